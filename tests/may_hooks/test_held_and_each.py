"""`held-by:` (a card no piece stands for: a role, a title) and `may:` with `for:` (one offer
for each value), docs/optional-effects.md.

Through the real CLI and engine: a toy game (``crown/ruleset.yaml``) whose crown is a title
worn by the leader, mistakes in copies of it, and Puerto Rico's captain's privilege and The New
Buildings' aqueduct, which are written on their cards with them.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers.toy_rules import copy_with, line_of, play
from interpreter.cli.main import main
from interpreter.engine.loader import load_game
from interpreter.model.probes import Probes

CROWN = Path(__file__).resolve().parent / "crown" / "ruleset.yaml"
RULESETS = CROWN.parents[3] / "rulesets" / "puerto-rico"


def _play(options: list[str], path: Path = CROWN):
    return play(path, options)


def _copy_with(tmp_path: Path, old: str, new: str) -> Path:
    return copy_with(CROWN, tmp_path, old, new)


def _line_of(text: str) -> int:
    return line_of(CROWN, text)


def test_a_held_cards_hook_runs_for_its_holder_only() -> None:
    # round 1: seat 0 rolls 2 (nobody wears the crown yet), seat 1 rolls 3 (seat 0 wears it
    # then: his roll is no crown's); round 2: seat 0 rolls 3 (seat 1 wears it), seat 1 rolls 1
    game, s = _play(["roll:2", "roll:3", "roll:3", "roll:1"])
    assert s.legal_options() == ["gem:red", "pass"]
    assert s.who == 1


def test_a_for_offer_lists_each_value_and_asks_again_after_each_taken() -> None:
    game, s = _play(["roll:2", "roll:3", "roll:3", "roll:3"])
    assert s.legal_options() == ["gem:red", "gem:blue", "gem:green", "pass"]
    s.apply("gem:blue")
    assert s.legal_options() == ["gem:red", "gem:green", "pass"]
    s.apply("pass")  # declines the rest
    assert s.legal_options() == []
    assert game.view(s, 1)["players"][1]["gems"] == {"red": 0, "blue": 1, "green": 0}
    assert "seat 1 takes a Blue gem (crown)" in [line for _, _, line in s.log]


def test_a_for_offer_whose_if_fails_lapses(tmp_path: Path) -> None:
    path = _copy_with(tmp_path, "stock[c] = 1", "stock[c] = 1 if c != red else 0")
    _, s = _play(["roll:2", "roll:3", "roll:3", "roll:3"], path)
    assert s.legal_options() == ["gem:blue", "gem:green", "pass"]


@pytest.mark.parametrize(
    ("old", "new", "at", "column", "said"),
    [
        # the card's `if` and `do` of a `for:` offer, at the card's own line
        ("if: stock[c] > 0", "if: stok[c] > 0", "              if: stock[c] > 0", 19, "D003"),
        (
            "owner.gems[c] += 1",
            "owner.gemz[c] += 1",
            "                owner.gems[c] += 1",
            23,
            "D003",
        ),
        # `held-by:` reads the entry as `self`
        (
            "held-by: leader if self",
            "held-by: leder if self",
            "    held-by: leader if self == crown else none",
            14,
            "D003",
        ),
        # a `for:` over no set or catalog: its values could key no offers
        ("for: c in colours", "for: c in [1, 2]", "              for: c in colours", 20, "D007"),
    ],
)
def test_a_fault_is_reported_at_the_card(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    old: str,
    new: str,
    at: str,
    column: int,
    said: str,
) -> None:
    path = _copy_with(tmp_path, old, new)
    assert main(["validate", str(path)]) == 1
    out = capsys.readouterr().out
    assert f"ruleset.yaml:{_line_of(at)}:{column}: error[{said}]" in out, out
    # the rules the engine writes for a `for:` offer are named by the card's path
    assert "/functions/" not in out and "/procedures/" not in out, out


def test_show_prints_the_captains_privilege_on_the_role_card(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["show", "puerto-rico", "catalogs/roles/entries/captain"]) == 0
    out = capsys.readouterr().out
    for part in (
        "shipped:",
        "may:",
        "id: privilege-vp",
        "when: captain-bonus-given == 0",
        "amount: privilege(owner) * captain-bonus-vp",
        "do: captain-bonus-given = 1",
    ):
        assert part in out, part
    # the phase that asked it, and the state field that held it, are gone
    assert main(["show", "puerto-rico", "phases/offers"]) == 2
    assert "privilege-vp-offer" not in (RULESETS / "ruleset.yaml").read_text(encoding="utf-8")


def test_show_prints_the_aqueducts_whole_rule(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["show", "--with", "new-buildings", "puerto-rico", "catalogs/buildings/entries/aqueduct"]
    assert main(args) == 0
    out = capsys.readouterr().out
    for part in (
        "produced:",
        "for: k in [indigo, sugar]",
        "id: aqueduct:{k}",
        "if: goods-supply[k] > 0",
        "take-goods(owner, k, 1)",
    ):
        assert part in out, part
    assert "aqueduct-offer" not in (RULESETS / "new-buildings.yaml").read_text(encoding="utf-8")


def test_the_captains_privilege_is_asked_before_the_harbor() -> None:
    game = load_game("puerto-rico", 3)
    s = game.new_state(seed=1)
    me = s.p[0]
    me["goods"]["corn"] = 2
    s.p[0]["city"].append({"type": "harbor", "workers": 1})
    for o in ("role:captain", "load:corn:ship-4"):
        s.apply(o)
    assert s.legal_options() == ["privilege-vp", "pass"]
    s.apply("privilege-vp")
    assert s.legal_options() == ["vp:harbor", "pass"]


def test_every_coverage_point_is_in_a_rule_file_and_pass_at_the_cards_may() -> None:
    probes = Probes()
    load_game("puerto-rico", 3, ["new-buildings", "nobles"], probes=probes)
    assert [p for p in probes.points if p.file == "?"] == []
    text = (RULESETS / "nobles.yaml").read_text(encoding="utf-8").splitlines()
    # the chapel's hook writes `do:` first: declining is counted at its `may:` line
    chapel = next(i for i, line in enumerate(text, 1) if "id: vp:chapel" in line) - 1
    assert text[chapel - 1].strip() == "may:"
    assert any(
        p.file.endswith("nobles.yaml") and p.line == chapel and p.label == "pass"
        for p in probes.points
    )


def test_a_for_offer_takes_no_amount(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # each value is offered once: an `amount` beside `for:` is refused at the amount
    path = _copy_with(
        tmp_path, "when: rank[c] <= n\n", "when: rank[c] <= n\n              amount: 2\n"
    )
    assert main(["validate", str(path)]) == 1
    out = capsys.readouterr().out
    line = _line_of("              when: rank[c] <= n") + 1
    assert f"ruleset.yaml:{line}:23: error[S009]" in out, out
