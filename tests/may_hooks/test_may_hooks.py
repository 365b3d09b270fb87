"""`may:`: an optional effect written on its card (docs/optional-effects.md).

Through the real CLI and engine: a toy game (``charms/ruleset.yaml``) whose cards offer points,
mistakes in copies of it, and the Puerto Rico buildings that use the construct.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers.toy_rules import copy_with, line_of, play
from interpreter.cli.main import main
from interpreter.engine.loader import load_game

CHARMS = Path(__file__).resolve().parent / "charms" / "ruleset.yaml"


def _game():
    return load_game(str(CHARMS), 2)


def _play(options: list[str]):
    return play(CHARMS, options)


def _copy_with(tmp_path: Path, old: str, new: str) -> Path:
    return copy_with(CHARMS, tmp_path, old, new)


def _line_of(text: str) -> int:
    return line_of(CHARMS, text)


def test_offers_add_up_and_are_asked_in_catalog_order() -> None:
    # two rolls (2, then 1): the clover's offers add up to 3, the horseshoe's `when` holds once
    game, s = _play(["roll:2", "roll:1"])
    assert s.legal_options() == ["take:clover", "pass"]
    s.apply("take:clover")
    assert s.legal_options() == ["take:horseshoe", "pass"]
    mine = game.view(s, 0)["players"][0]
    assert (mine["points"], mine["rolls"]) == (3, 2)
    s.apply("take:horseshoe")
    assert game.view(s, 0)["players"][0]["points"] == 3 + 2
    # seat 1 owns no charm: nothing to ask, his turn starts
    assert s.legal_options() == ["roll:1", "roll:2"]


def test_a_declined_offer_lapses() -> None:
    game, s = _play(["roll:1", "roll:1", "pass"])
    mine = game.view(s, 0)["players"][0]
    assert mine["points"] == 0
    assert mine["may-charms"]["clover"] == 0  # not carried to his next question


def test_an_offer_whose_if_fails_is_not_asked(tmp_path: Path) -> None:
    path = _copy_with(tmp_path, "if: owner.points < 10", "if: owner.points > 10")
    game = load_game(str(path), 2)
    s = game.new_state(seed=1)
    s.apply("roll:1")
    s.apply("roll:2")
    assert s.legal_options() == ["take:horseshoe", "pass"]


def test_show_prints_the_hospice_whole_rule(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["show", "puerto-rico", "catalogs/buildings/entries/hospice"]) == 0
    out = capsys.readouterr().out
    for part in (
        "tile-placed:",
        "may:",
        "id: colonist:hospice",
        "if: colonist-available() and hospice-room(owner)",
        "do: hospice-colonist(owner)",
    ):
        assert part in out, part


@pytest.mark.parametrize(
    ("old", "new", "at", "column", "said", "hint"),
    [
        # a fault in the card's `do:` or `when:`, at the card's own line
        (
            "do: owner.points += amount",
            "do: owner.pointz += amount",
            "              do: owner.points += amount",
            25,
            "error[D003]: nothing has a field 'pointz'",
            None,
        ),
        (
            "when: n == 2",
            "when: m == 2",
            "              when: n == 2",
            21,
            "error[D003]: unknown name 'm'",
            None,
        ),
        # a phase named as it is declared, misspelt: among the phases, with a did-you-mean
        (
            "phase: may",
            "phase: mya",
            "            phase: may",
            20,
            "error[R001]: unknown phase 'mya'",
            "did you mean 'may'?",
        ),
    ],
)
def test_a_fault_is_reported_where_it_is_written(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    old: str,
    new: str,
    at: str,
    column: int,
    said: str,
    hint: str | None,
) -> None:
    path = _copy_with(tmp_path, old, new)
    assert main(["validate", str(path)]) == 1
    out = capsys.readouterr().out
    assert f"ruleset.yaml:{_line_of(at)}:{column}: {said}" in out, out
    assert hint is None or hint in out


@pytest.mark.parametrize(
    ("old", "new", "where", "code"),
    [
        # a misspelt key of `may:`, at the key
        ('log: "seat {owner}', 'lgo: "seat {owner}', ('              log: "seat', 15, 0), "S003"),
        # `do` is what taking it does: required, reported at the `may:` that lacks it
        (
            "do: owner.points += 2 * amount",
            "label: two points?",
            ("              id: take:horseshoe", 13, -1),
            "S002",
        ),
    ],
)
def test_a_malformed_may_is_a_schema_error_at_the_card(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    old: str,
    new: str,
    where: tuple[str, int, int],
    code: str,
) -> None:
    path = _copy_with(tmp_path, old, new)
    assert main(["validate", str(path)]) == 1
    out = capsys.readouterr().out
    start, column, offset = where
    line = offset + next(
        i + 1
        for i, text in enumerate(CHARMS.read_text(encoding="utf-8").splitlines())
        if text.startswith(start)
    )
    assert f"ruleset.yaml:{line}:{column}: error[{code}]" in out, out


def test_a_phase_named_may_clashes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _copy_with(tmp_path, "scoring:\n", "phases:\n  may:\n    - do: host = 1\n\nscoring:\n")
    assert main(["validate", str(path)]) == 1
    out = capsys.readouterr().out
    assert "error[R002]: the phase 'may' is the one the engine writes" in out


def test_an_offer_never_asked_is_a_warning(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _copy_with(tmp_path, "          - name: offers\n            phase: may\n", "")
    assert main(["validate", str(path)]) == 0
    assert main(["validate", "--strict", str(path)]) == 1
    out = capsys.readouterr().out
    line = _line_of("          rolled:")
    assert f"ruleset.yaml:{line}:11: warning[W005]: this offer can never be asked" in out


# -- phases named as they are declared -------------------------------------------------------


def test_the_quoted_phase_name_still_works(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _copy_with(tmp_path, "phase: may", "phase: '\"may\"'")
    assert main(["validate", "--strict", str(path)]) == 0
    game = load_game(str(path), 2)
    s = game.new_state(seed=1)
    s.apply("roll:2")
    s.apply("roll:2")
    assert s.legal_options() == ["take:clover", "pass"]


def test_the_shipped_rulesets_name_their_phases_without_quotes() -> None:
    root = CHARMS.parents[3] / "rulesets"
    quoted = [
        f"{p.relative_to(root)}:{i}"
        for p in sorted(root.rglob("*.yaml"))
        for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
        if "phase: '\"" in line
    ]
    assert quoted == []
