"""A patch that sets what no rule reads is an error (R007) at the line where it is written.

House-rule overlays of the shipped Puerto Rico, written to tmp_path, checked by `rulebook
validate` (the command line's own main function) and by `load_game`: a misspelt attribute
(`cots`, `copeis`), a made-up one (`vp-per-load`), a misspelt option or table merged in as a new
one, and a table key no rule can look up; an attribute an overlay adds and reads is fine, and so
is an attribute an overlay types under `attributes:` for another overlay's rules (The Nobles'
`in-draft`, read by The New Buildings' draft).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.cli.main import main
from interpreter.diagnostics.errors import RulesError
from interpreter.engine.loader import load_game

ROOT = Path(__file__).resolve().parents[2]


def _overlay(tmp_path: Path, name: str, body: str) -> Path:
    path = tmp_path / f"{name}.yaml"
    path.write_text(f"overlay: {name}\nextends: puerto-rico\n{body}", encoding="utf-8")
    return path


def _validate(path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main(["validate", "--strict", str(path)])
    return code, capsys.readouterr().out


def _load_faults(path: Path) -> list[tuple[str, int | None, int | None, str, str | None]]:
    with pytest.raises(RulesError) as info:
        load_game("puerto-rico", 4, [str(path)])
    return [(d.code, d.line, d.column, d.message, d.hint) for d in info.value.diagnostics]


# (overlay name, body, line:col of the fault, the name, the did-you-mean hint it must carry)
ATTRIBUTE_CASES = [
    ("misspelt-cost", "patch:\n  catalogs/buildings/entries/harbor: {cots: 6}\n", (4, 39), "cots",
     "did you mean 'cost'?"),
    ("misspelt-copies", "patch:\n  catalogs/buildings/entries/harbor:\n    copeis: 7\n", (5, 5),
     "copeis", "did you mean 'copies'?"),
    ("made-up", "patch:\n  catalogs/buildings/entries/wharf:\n    vp-per-load: 2\n", (5, 5),
     "vp-per-load", "attributes rules read: "),
]  # fmt: skip


@pytest.mark.parametrize("name, body, at, attr, hint", ATTRIBUTE_CASES, ids=lambda c: str(c))
def test_an_attribute_nothing_reads_is_an_error_where_it_is_written(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    name: str,
    body: str,
    at: tuple[int, int],
    attr: str,
    hint: str,
) -> None:
    path = _overlay(tmp_path, name, body)
    code, out = _validate(path, capsys)
    assert code == 1
    line, col = at
    assert f"{path}:{line}:{col}: error[R007]: no rule reads the attribute '{attr}'" in out
    assert hint in out
    faults = _load_faults(path)
    assert [(c, ln, cl) for c, ln, cl, _, _ in faults] == [("R007", line, col)]
    assert f"'{attr}' of buildings entries" in faults[0][3]
    assert hint in (faults[0][4] or "")


def test_the_made_up_attribute_lists_what_rules_read(tmp_path: Path) -> None:
    path = _overlay(tmp_path, "made-up", ATTRIBUTE_CASES[2][1])
    hint = _load_faults(path)[0][4] or ""
    assert "cost" in hint and "vp" in hint and "vp-per-load" not in hint


@pytest.mark.parametrize(
    "name, body",
    [
        (
            "harbor-bonus",
            "patch:\n  catalogs/buildings/entries/harbor: {vp-per-load: 2}\n"
            "add:\n  invariants/harbor-bonus:\n"
            "    doc: The harbor's bonus is two points a load.\n"
            "    expr: harbor.vp-per-load == 2\n",
        ),
        (
            "own-option",
            "add:\n  options/strict-bank: {default: false, choices: [false, true]}\n"
            "  invariants/strict-bank:\n"
            "    doc: The bank never goes below nothing.\n"
            "    expr: bank >= 0 or not option.strict-bank\n",
        ),
    ],
    ids=["attribute", "option"],
)
def test_an_attribute_or_option_an_overlay_sets_and_reads_is_fine(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, body: str
) -> None:
    path = _overlay(tmp_path, name, body)
    code, out = _validate(path, capsys)
    assert code == 0, out
    load_game("puerto-rico", 4, [str(path)])


def test_an_attribute_typed_for_another_overlay_is_fine() -> None:
    """The Nobles set `in-draft` that only The New Buildings read; they type it to say so."""
    load_game("puerto-rico", 3, ["nobles"])
    load_game("puerto-rico", 3, ["nobles", "new-buildings"])


def test_an_unread_attribute_of_a_base_ruleset_is_an_error(tmp_path: Path) -> None:
    text = (ROOT / "tests/validate/fixtures/base/ruleset.yaml").read_text(encoding="utf-8")
    before = "red-token: {}"
    assert before in text
    line = text[: text.index(before)].count("\n") + 1
    path = tmp_path / "ruleset.yaml"
    path.write_text(text.replace(before, "red-token: {cpies: 1}"), encoding="utf-8")
    with pytest.raises(RulesError) as info:
        load_game(str(path), 2)
    faults = [(d.code, d.line, d.hint) for d in info.value.diagnostics]
    assert faults == [("R007", line, "did you mean 'copies'?")]


@pytest.mark.parametrize(
    "name, patch, message, hint",
    [
        (
            "misspelt-option",
            "options:\n    bnak: {default: unlimited, choices: [limited, unlimited]}",
            "the overlay declares the option 'bnak'",
            "did you mean 'bank'?",
        ),
        (
            "misspelt-table",
            "tables:\n    strat-doubloons: {2: 5, 3: 5, 4: 5, 5: 5}",
            "the overlay declares the table 'strat-doubloons'",
            "did you mean 'start-doubloons'?",
        ),
    ],
    ids=["option", "table"],
)
def test_an_option_or_table_an_overlay_misspells_is_an_error(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    name: str,
    patch: str,
    message: str,
    hint: str,
) -> None:
    path = _overlay(tmp_path, name, f"patch:\n  {patch}\n")
    code, out = _validate(path, capsys)
    assert code == 1
    assert f"{path}:5:5: error[R007]: {message}" in out
    assert hint in out
    faults = _load_faults(path)
    assert [(c, ln, cl) for c, ln, cl, _, _ in faults] == [("R007", 5, 5)]
    assert hint in faults[0][4]


@pytest.mark.parametrize(
    "body, at, code, words",
    [
        # a player count the game is not for: no rule can look the key up
        ("patch:\n  tables/start-doubloons: {7: 3}\n", (4, 28), "K003", "a key 7"),
        # a good that does not exist
        ("patch:\n  tables/price: {tobaco: 5}\n", (4, 18), "R005", "did you mean 'tobacco'?"),
    ],
    ids=["player-count", "id"],
)
def test_a_table_key_no_rule_can_look_up_is_an_error(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    body: str,
    at: tuple[int, int],
    code: str,
    words: str,
) -> None:
    path = _overlay(tmp_path, "table-key", body)
    rc, out = _validate(path, capsys)
    assert rc == 1
    assert f"{path}:{at[0]}:{at[1]}: error[{code}]" in out
    assert words in out
    assert (code, *at) in [(c, ln, cl) for c, ln, cl, _, _ in _load_faults(path)]
