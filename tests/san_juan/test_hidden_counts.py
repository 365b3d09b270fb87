"""The chapel's cards are secret, count included: "Players do not need to tell each other how many
cards they have placed under their chapel" (the harbor's cards: "see Chapel")."""

from __future__ import annotations

from interpreter.engine.loader import load_game


def test_others_see_neither_the_chapel_cards_nor_how_many():
    s = load_game("san-juan", players=3, overlays=("new-buildings",)).new_state(3)
    s.p[0]["under-cards"] = ["statue", "tower"]
    s.p[0]["harbor-count"] = 2
    s.g["under-harbor"] = ["well", "well"]
    own, other = s.view(0), s.view(1)
    assert own["players"][0]["under-cards"] == ["statue", "tower"]
    assert own["players"][0]["harbor-count"] == 2
    assert "under-cards" not in other["players"][0]
    assert "harbor-count" not in other["players"][0]
    assert other["global"]["under-harbor"] == {"hidden": True}
    # a hand stays a pile whose size everybody sees
    assert other["players"][0]["hand"] == {"hidden": True, "count": len(s.p[0]["hand"])}
