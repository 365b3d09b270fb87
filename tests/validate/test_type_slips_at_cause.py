"""The last type slips, reported where they are written: a table keyed by numbers read by a
seat or by the player count without the key every game asks for, a list an overlay gives where
the rules read a table's number, a table by player count lacking a count, a boolean option's
default written in quotes. Through `rulebook validate` on house rules of the shipped games and
on a copy of the validation fixtures' base ruleset, each with the good form beside it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from interpreter.cli.main import main

ROOT = Path(__file__).resolve().parents[2]
FIXTURE_BASE = ROOT / "tests" / "validate" / "fixtures" / "base" / "ruleset.yaml"


def _validate(capsys: pytest.CaptureFixture[str], *paths: Path) -> tuple[int, list[dict]]:
    code = main(["validate", "--json", *map(str, paths)])
    return code, json.loads(capsys.readouterr().out.splitlines()[-1])["diagnostics"]


def _overlay(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / f"{name}.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def _line_of(path: Path, needle: str) -> tuple[int, int]:
    """line and column (from 1) of the first `needle` in the file."""
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if needle in line:
            return number, line.index(needle) + 1
    raise AssertionError(f"{needle!r} not in {path}")


def _seat_bonus(tmp_path: Path, table: str, read: str, guard: str = "") -> Path:
    """A Puerto Rico house rule: every seat is paid from a new table at the end of each round
    (after the first decision: the set-up validate plays never reaches it)."""
    body = f"pay(player(i), {read})"
    if guard:
        body = f"if {guard}:\n          {body}"
    return _overlay(
        tmp_path,
        "seat-bonus",
        "overlay: seat-bonus\nextends: puerto-rico\ntitle: seat bonus\nadd:\n"
        f"  tables/seat-bonus: {table}\n"
        "  flow/round/seat-bonus-pay:\n"
        "    before: next-governor\n"
        "    do: |\n"
        "      for i in seats:\n"
        f"        {body}\n",
    )


# -- (a) a table keyed by numbers, read by a seat or by the player count --------------------


def test_a_table_by_seat_lacking_the_seats_of_larger_games(tmp_path, capsys):
    # seats 0 to 2 are every seat of a 2- or 3-player game, not of a 5-player one
    path = _seat_bonus(tmp_path, "{0: 1, 1: 1, 2: 2}", "seat-bonus[i]")
    code, found = _validate(capsys, path)
    assert code == 1
    (d,) = found
    assert d["file"] == str(path) and d["code"] == "D008"
    assert (d["line"], d["column"]) == _line_of(path, "i])")
    assert "is read by a seat, but has no key for seats 3, 4" in d["message"]
    assert "with 5 players, seats are numbered 0 to 4" in d["message"]


def test_a_table_by_seat_read_by_the_player_count(tmp_path, capsys):
    path = _seat_bonus(tmp_path, "{0: 1, 1: 1, 2: 2, 3: 2, 4: 3}", "seat-bonus[players]")
    code, found = _validate(capsys, path)
    assert code == 1
    (d,) = found
    assert d["file"] == str(path) and d["code"] == "D008"
    assert (d["line"], d["column"]) == _line_of(path, "players])")
    assert (
        "is a table by seat (its keys: 0, 1, 2, 3, 4), read by the player count" in (d["message"])
    )
    assert "no key 5 (with 5 players)" in d["message"]


@pytest.mark.parametrize(
    ("table", "read", "guard"),
    [
        ("{0: 1, 1: 1, 2: 2, 3: 2, 4: 3}", "seat-bonus[i]", ""),  # a key for every seat
        ("{2: 1, 3: 1, 4: 2, 5: 2}", "seat-bonus[players]", ""),  # a key for every count
        ("{0: 1, 1: 1, 2: 2}", "seat-bonus[i]", "players <= 3"),  # only games of 2 or 3
        ("{2: 1, 3: 1, 4: 2}", "seat-bonus[players]", "players != 5"),
        ("{2: 1, 3: 1, 4: 2}", "(0 if players == 5 else seat-bonus[players])", ""),
    ],
)
def test_a_table_with_every_key_its_reads_ask_for_is_clean(tmp_path, capsys, table, read, guard):
    code, found = _validate(capsys, _seat_bonus(tmp_path, table, read, guard))
    assert (code, found) == (0, [])


# -- (b) a list an overlay gives where the rules read a number -------------------------------


@pytest.mark.parametrize("extends", ["puerto-rico", "[puerto-rico, new-buildings]"])
def test_a_list_for_a_number_is_reported_at_the_overlay(tmp_path, capsys, extends):
    # the base (and, stacked, The New Buildings) compares city-spaces with a number
    path = _overlay(
        tmp_path,
        "wide-city",
        f"overlay: wide-city\nextends: {extends}\ntitle: wide city\nreplace:\n"
        "  tables/city-spaces: [12, 13]\n",
    )
    code, found = _validate(capsys, path)
    assert code == 1
    (d,) = found
    assert d["file"] == str(path) and d["code"] == "D008"
    assert (d["line"], d["column"]) == _line_of(path, "[12, 13]")
    assert (
        "table 'city-spaces' is a list of whole numbers of 0 or more: a whole number is"
        in (d["message"])
    )
    reader = "new-buildings.yaml:" if "new-buildings" in extends else "ruleset.yaml:"
    assert d["hint"].startswith("read at ") and reader in d["hint"]


def test_lists_for_a_tables_numbers_are_reported_at_the_overlay(tmp_path, capsys):
    # a table by player count whose values became lists; the base adds one to a number
    path = _overlay(
        tmp_path,
        "listed",
        "overlay: listed\nextends: puerto-rico\ntitle: listed\nreplace:\n"
        "  tables/start-doubloons: {2: [3], 3: [2], 4: [3], 5: [4]}\n",
    )
    code, found = _validate(capsys, path)
    assert code == 1
    (d,) = found
    assert d["file"] == str(path) and d["code"] == "D008"
    assert (d["line"], d["column"]) == _line_of(path, "{2: [3]")
    assert (
        "table 'start-doubloons' holds a list of whole numbers of 0 or more: a whole"
        in (d["message"])
    )


def test_a_list_its_own_file_reads_as_a_number_is_that_texts_slip(tmp_path, capsys):
    # the overlay writes the list and the text that misreads it: the text is the slip
    path = _overlay(
        tmp_path,
        "own-list",
        "overlay: own-list\nextends: puerto-rico\ntitle: own list\nadd:\n"
        "  tables/extra-pay: [1, 2]\n"
        "  flow/round/extra:\n"
        "    before: next-governor\n"
        "    do: pay(player(governor), extra-pay)\n",
    )
    code, found = _validate(capsys, path)
    assert code == 1
    (d,) = found
    assert d["file"] == str(path) and d["code"] == "D008"
    assert d["line"] == _line_of(path, "do: pay")[0]


# -- (c) a table by player count lacking a count ----------------------------------------------


def test_a_table_by_player_count_lacking_a_count_is_reported_at_the_table(tmp_path, capsys):
    # read at set-up: reported at the table, not as E001 at the base ruleset's reading line
    path = _overlay(
        tmp_path,
        "no-two",
        "overlay: no-two\nextends: puerto-rico\ntitle: no two\nreplace:\n"
        "  tables/start-doubloons: {3: 2, 4: 3, 5: 4}\n",
    )
    code, found = _validate(capsys, path)
    assert code == 1
    (d,) = found
    assert d["file"] == str(path) and d["code"] == "K005"
    assert (d["line"], d["column"]) == _line_of(path, "{3: 2")
    assert "table 'start-doubloons' by player count has no key for 2 players" in d["message"]
    assert "start-doubloons[players]" in d["hint"] and "ruleset.yaml:" in d["hint"]


def test_a_count_missing_where_no_set_up_reads_it(tmp_path, capsys):
    # read only after the first decision: validate found nothing
    path = _seat_bonus(tmp_path, "{2: 1, 3: 1, 4: 2}", "seat-bonus[players]")
    code, found = _validate(capsys, path)
    assert code == 1
    (d,) = found
    assert d["file"] == str(path) and d["code"] == "K005"
    assert (d["line"], d["column"]) == _line_of(path, "{2: 1")
    assert "has no key for 5 players (its keys: 2, 3, 4; the game is for 2 to 5" in (d["message"])


def test_a_count_missing_from_a_fixture_copy(tmp_path, capsys):
    base = tmp_path / "ruleset.yaml"
    base.write_text(
        FIXTURE_BASE.read_text(encoding="utf-8").replace(
            "start-points: {2: 3, 3: 2}", "start-points: {2: 3}"
        ),
        encoding="utf-8",
    )
    code, found = _validate(capsys, base)
    assert code == 1
    (d,) = found
    assert (d["code"], d["line"]) == ("K005", _line_of(base, "start-points: {2: 3}")[0])
    assert "no key for 3 players" in d["message"]


def test_the_shipped_guarded_table_and_a_short_game_stay_clean(capsys):
    # vp-chips-start has no key 5: every read of it is under `players == 5`
    variant = ROOT / "examples" / "variants" / "pr-short-game.yaml"
    code, found = _validate(capsys, ROOT / "rulesets" / "puerto-rico" / "ruleset.yaml", variant)
    assert (code, found) == (0, [])


# -- (d) a boolean option's default written in quotes ----------------------------------------


def _game_with_a_boolean_option(tmp_path: Path) -> Path:
    """A copy of the fixtures' base ruleset with an option `fast` (default false) that the
    set-up reads as a condition."""
    text = FIXTURE_BASE.read_text(encoding="utf-8")
    text = text.replace("options:\n", "options:\n  fast:\n    default: false\n", 1)
    read = "          gain(player(i), start-points[players])\n"
    text = text.replace(read, read + "          if option.fast:\n            gain(player(i), 1)\n")
    base = tmp_path / "ruleset.yaml"
    base.write_text(text, encoding="utf-8")
    return base


def test_a_real_boolean_default_is_clean(tmp_path, capsys):
    code, found = _validate(capsys, _game_with_a_boolean_option(tmp_path))
    assert (code, found) == (0, [])


def test_a_quoted_boolean_default_is_reported_in_the_overlay(tmp_path, capsys):
    base = _game_with_a_boolean_option(tmp_path)
    overlay = _overlay(
        tmp_path,
        "quoted",
        "overlay: quoted\nextends: vbase\ntitle: quoted\nreplace:\n"
        '  options/fast/default: "false"\n',
    )
    code, found = _validate(capsys, base, overlay)
    assert code == 1
    (d,) = found
    assert d["file"] == str(overlay) and d["code"] == "D008"
    assert (d["line"], d["column"]) == _line_of(overlay, '"false"')
    assert (
        "option 'fast' has a default of a text ('false'): true or false is needed" in (d["message"])
    )
    assert "write false without quotes" in d["hint"] and "ruleset.yaml:" in d["hint"]


def test_a_quoted_default_compared_with_true_is_reported_at_the_default(tmp_path, capsys):
    path = _overlay(
        tmp_path,
        "slow",
        "overlay: slow\nextends: puerto-rico\ntitle: slow\nadd:\n"
        '  options/slow:\n    default: "true"\n'
        "  flow/round/slow-pay:\n"
        "    before: next-governor\n"
        "    do: |\n"
        "      if option.slow == true:\n"
        "        pay(player(governor), 1)\n",
    )
    code, found = _validate(capsys, path)
    assert code == 1
    (d,) = found
    assert (d["code"], d["line"]) == ("D008", _line_of(path, '"true"')[0])
    assert "write true without quotes" in d["hint"]


def test_a_quoted_default_among_boolean_choices_says_to_unquote(tmp_path, capsys):
    path = _overlay(
        tmp_path,
        "choices",
        "overlay: choices\nextends: puerto-rico\ntitle: choices\nadd:\n"
        '  options/slow:\n    default: "false"\n    choices: [true, false]\n'
        "  flow/round/slow-pay:\n"
        "    before: next-governor\n"
        "    do: |\n"
        "      if option.slow:\n"
        "        pay(player(governor), 1)\n",
    )
    code, found = _validate(capsys, path)
    assert code == 1
    (d,) = found
    assert (d["code"], d["line"]) == ("R004", _line_of(path, '"false"')[0])
    assert d["hint"] == "write false without quotes: in quotes it is a text"
