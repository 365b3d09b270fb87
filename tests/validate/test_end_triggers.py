"""End triggers are named bare, as the rules say them (issue 49, item 2): the names under
`presentation: ends:` read as themselves in every rule text where they name nothing else (San
Juan's `trigger: deck-exhausted if ...`, Puerto Rico's `trigger-end(city)`); a name the ruleset
declares otherwise keeps its meaning; a `trigger:` of one bare word that is no end trigger is
R001 at it with a did-you-mean. Through the real CLI and a real game."""

from __future__ import annotations

from pathlib import Path

from interpreter.cli.main import main
from interpreter.engine.loader import load_game_and_data

TRIGGER = "flow/trigger"


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


def test_a_trigger_named_like_a_counter_keeps_the_counter(tmp_path, capsys):
    # Puerto Rico's `vp-chips` is a counter and an end trigger: bare, it is the counter
    body = f"replace:\n  {TRIGGER}: vp-chips\n"
    path = _overlay(tmp_path, "puerto-rico", body)
    game, _data = load_game_and_data("puerto-rico", 4, [str(path)])
    state = game.new_state(1)
    assert game.rules.trigger(state) == 100
    capsys.readouterr()
