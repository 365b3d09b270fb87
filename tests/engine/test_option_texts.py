"""Every option of every shipped game reads in words: each option family the `choose` steps of
a shipped composition offer (the base game, each overlay on it, all its overlays together) has
a `presentation: options: FAMILY: text:`, and a family without one is warned of (W007)."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.compose.rulefiles import load_rules_data
from interpreter.compose.tree import CopyOnWriteTree
from interpreter.load import catalog
from interpreter.model.words import option_families, untexted_options
from interpreter.ruleset.ruleset import Ruleset

ROOT = Path(__file__).resolve().parents[2]
GAMES = ("puerto-rico", "san-juan")


def _compositions() -> list[tuple[str, tuple[str, ...]]]:
    out = []
    for game in GAMES:
        overlays = tuple(sorted(catalog.overlay_files(catalog.find_game(game))))
        out.append((game, ()))
        out.extend((game, (o,)) for o in overlays)
        if len(overlays) > 1:
            out.append((game, overlays))
    return out


COMPOSITIONS = _compositions()


def test_the_compositions_include_every_shipped_overlay() -> None:
    named = {(g, o) for g, overlays in COMPOSITIONS for o in overlays}
    assert ("puerto-rico", "nobles") in named and ("puerto-rico", "new-buildings") in named
    assert ("san-juan", "new-buildings") in named
    assert len(COMPOSITIONS) >= 7


@pytest.mark.parametrize(("game", "overlays"), COMPOSITIONS, ids=lambda v: str(v))
def test_every_option_family_has_a_text(game: str, overlays: tuple[str, ...]) -> None:
    data = load_rules_data(game, overlays)[0]
    families = option_families(Ruleset.from_data(data))
    assert "pass" in families and len(families) > 5  # the walk finds the choose steps
    texts = data["presentation"]["options"]
    missing = sorted(f for f in families if not (texts.get(f) or {}).get("text"))
    assert missing == []
    assert untexted_options(Ruleset.from_data(data)) == []


def test_a_family_without_a_text_is_warned_of_where_its_option_is() -> None:
    # the loaded tree is the process's parsed-file cache, shared with every later load: the
    # maps on the way to the entry are copied (positions kept), never changed in place
    tree = CopyOnWriteTree()
    data = tree.copy(load_rules_data("puerto-rico")[0])
    data["presentation"] = tree.copy(data["presentation"])
    data["presentation"]["options"] = options = tree.copy(data["presentation"]["options"])
    del options["produce"]
    (warning,) = untexted_options(Ruleset.from_data(data))
    assert warning.code == "W007" and warning.severity == "warning"
    assert "'produce'" in warning.message
    assert warning.file.endswith("ruleset.yaml") and warning.json_path.endswith("/id")
    line = (ROOT / "rulesets/puerto-rico/ruleset.yaml").read_text().splitlines()[warning.line - 1]
    assert "id: produce" in line
