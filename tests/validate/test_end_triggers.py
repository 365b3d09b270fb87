"""End triggers are named bare, as the rules say them (issue 49, item 2): the names under
`presentation: ends:` read as themselves in every rule text where they name nothing else (San
Juan's `trigger: deck-exhausted if ...`, Puerto Rico's `trigger-end(city)`); a name the ruleset
declares otherwise keeps its meaning; a `trigger:` of one bare word that is no end trigger is
R001 at it with a did-you-mean. Where a text gives an end trigger (assigns it to a trigger
field, compares one with it, passes it to a procedure that does), the trigger's name is the
trigger even where it names a counter too (Puerto Rico's `trigger-end(vp-chips)`), and a
misspelt one is R001; a table known at load is read by a bare key
(`game-ends-when[city-full]`). Through the real CLI and a real game (the toy ``ends``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers.toy_rules import copy_with, line_of, play
from interpreter.cli.main import main
from interpreter.engine.loader import load_game_and_data

TRIGGER = "flow/trigger"
ENDS = Path(__file__).resolve().parent / "ends" / "ruleset.yaml"


def _overlay(tmp_path: Path, game: str, body: str) -> Path:
    path = tmp_path / "ends.yaml"
    path.write_text(f"overlay: ends\nextends: {game}\ntitle: t\n{body}", "utf-8")
    return path


def test_a_bare_end_trigger_in_an_expression_reads_as_itself(tmp_path, capsys):
    body = f"replace:\n  {TRIGGER}: city-full if end-trigger == none else end-trigger\n"
    path = _overlay(tmp_path, "san-juan", body)
    assert main(["validate", "--strict", str(path)]) == 0, capsys.readouterr().out
    game, _data = load_game_and_data("san-juan", 2, [str(path)])
    state = game.new_state(1)
    assert game.rules.trigger(state) == "city-full"


def test_a_misspelt_bare_end_trigger_is_r001(tmp_path, capsys):
    path = _overlay(tmp_path, "san-juan", f"replace:\n  {TRIGGER}: deck-exhaustd\n")
    assert main(["validate", str(path)]) == 1
    out = capsys.readouterr().out
    assert f"{path}:5:17: error[R001]: unknown end trigger 'deck-exhaustd'" in out, out
    assert "did you mean 'deck-exhausted'?" in out


def test_a_trigger_named_like_a_counter_keeps_the_counter_where_no_trigger_is_given(
    tmp_path: Path,
) -> None:
    # the toy's `chips` is a counter and an end trigger: the flow's `trigger:` reads it as the
    # counter (a text that reads no trigger field gives no trigger)
    path = copy_with(ENDS, tmp_path, "trigger: end-trigger", "trigger: chips")
    game, s = play(path, [])
    assert game.rules.trigger(s) == 3


def _to_the_end(path: Path = ENDS):
    """The toy played until the chips run out (seat 0, 1, 0 take one each; seat 1's only
    choice then is to pass, which the engine takes)."""
    return play(path, ["take", "take", "take"])


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # passed to a procedure whose text gives it to a trigger field (the toy's own text)
        ("trigger-end(chips)", "trigger-end(chips)"),
        # given to the trigger field itself
        ("trigger-end(chips)", "end-trigger = chips"),
        # passed on through one procedure to another
        (
            "procedures:\n",
            "procedures:\n  game-over:\n    params: [cause]\n    do: trigger-end(cause)\n",
        ),
    ],
)
def test_a_trigger_named_like_a_counter_is_the_trigger_where_a_text_gives_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], old: str, new: str
) -> None:
    path = copy_with(ENDS, tmp_path, old, new)
    if "game-over" in new:
        path.write_text(
            path.read_text("utf-8").replace("      trigger-end(chips)", "      game-over(chips)"),
            "utf-8",
        )
    assert main(["validate", str(path)]) == 0, capsys.readouterr().out  # (W002 aside)
    game, s = _to_the_end(path)
    assert s.g["end-trigger"] == "chips" and s.g["chips"] == 0
    assert game.rules.trigger(s) == "chips"
    assert s.legal_options() == []  # the game ended after that round


def test_a_trigger_compared_with_a_trigger_field_is_the_trigger(tmp_path: Path) -> None:
    # `end-trigger == chips` compares with the trigger, not with the counter (3, then 0)
    path = copy_with(
        ENDS,
        tmp_path,
        "end-after-round-if: end-trigger != none or round >= 5",
        "end-after-round-if: end-trigger == chips or round >= 5",
    )
    _game, s = _to_the_end(path)
    assert s.legal_options() == []


@pytest.mark.parametrize(
    "text", ["trigger-end(chps)", "end-trigger = chps", "if end-trigger != chps: pass"]
)
def test_a_misspelt_trigger_where_a_text_gives_one_is_r001(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str
) -> None:
    path = copy_with(ENDS, tmp_path, "trigger-end(chips)", text)
    assert main(["validate", str(path)]) == 1
    out = capsys.readouterr().out
    line = line_of(path, f"                      {text}")
    column = 23 + text.index("chps")
    message = "error[R001]: unknown end trigger 'chps'; did you mean 'chips'?"
    assert f"{path}:{line}:{column}: {message}" in out, out


def test_a_table_key_named_bare_is_the_key(tmp_path: Path) -> None:
    # `ends-when[chips-run-out]`: the toy's own text; off, the chips running out ends nothing
    path = copy_with(ENDS, tmp_path, "{chips-run-out: true}", "{chips-run-out: false}")
    _game, s = _to_the_end(path)
    assert s.g["end-trigger"] is None and s.g["chips"] == 0
    _game, s = _to_the_end()
    assert s.g["end-trigger"] == "chips"


def test_a_misspelt_table_key_is_d003_with_the_keys_guessed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = copy_with(ENDS, tmp_path, "ends-when[chips-run-out]", "ends-when[chips-run-ot]")
    assert main(["validate", str(path)]) == 1
    out = capsys.readouterr().out
    line = line_of(path, "                    if chips == 0 and ends-when[chips-run-ot]:")
    message = "error[D003]: unknown name 'chips-run-ot'; did you mean 'chips-run-out'?"
    assert f"{path}:{line}:49: {message}" in out, out


def test_the_shipped_rulesets_name_triggers_and_their_keys_bare() -> None:
    rulesets = Path(__file__).resolve().parents[2] / "rulesets"
    for path in rulesets.glob("*/*.yaml"):
        text = path.read_text("utf-8")
        assert 'trigger-end("' not in text, path
        assert 'game-ends-when["' not in text, path
