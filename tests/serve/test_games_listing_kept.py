"""The games listing (the lobby, ``GET /api/games``) is read from the rule files once, not at
every request: reading it loads every shipped rule file, most of a second on the event loop
for anyone who asks. A changed rule file is read again."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.serve import game_menu


def test_the_listing_is_read_once_and_again_when_a_rule_file_changes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    reads: list[int] = []
    read = game_menu.list_games
    monkeypatch.setattr(game_menu, "list_games", lambda: reads.append(1) or read())
    monkeypatch.setenv("RULEBOOK_RULESETS", str(tmp_path))  # a folder of one's own rules
    monkeypatch.setattr(game_menu, "_kept", None, raising=False)  # as a server starts
    first = game_menu.games_listing()
    assert "puerto-rico" in {g["name"] for g in first["games"]}
    assert game_menu.games_listing() == first and len(reads) == 1  # asked again: not read again
    (tmp_path / "house.yaml").write_text("overlay: house\n")
    assert game_menu.games_listing() == first and len(reads) == 2  # a new rule file: read again


def test_a_game_that_cannot_be_listed_is_left_out_of_the_lobby(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the lobby offers what a table can be opened on; a broken folder does not empty it
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "ruleset.yaml").write_text("ruleset: bad\nplayers: lots\n")
    monkeypatch.setenv("RULEBOOK_RULESETS", str(tmp_path))
    monkeypatch.setattr(game_menu, "_kept", None, raising=False)
    names = {g["name"] for g in game_menu.games_listing()["games"]}
    assert "bad" not in names and {"puerto-rico", "san-juan"} <= names
