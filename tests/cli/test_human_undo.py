"""`undo` at the terminal: the real `rulebook play` command (both San Juan seats played by
people at one terminal, stdin fed by a script). The seat to move takes the builder, takes it
back, finds nothing more to take back, takes the prospector (a card drawn into its hand: its
turn is over), and the other seat has nothing to take back either; the partial save holds
only the choices that stand."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from interpreter.cli.human import NOTHING_TO_UNDO
from interpreter.cli.main import main

SEED = 5


def test_a_person_takes_back_a_move_until_a_card_is_drawn(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    save = tmp_path / "game.json"
    script = "role:builder\nundo\nundo\nrole:prospector\nundo\nquit\n"
    monkeypatch.setattr("sys.stdin", io.StringIO(script))
    command = ["play", "san-juan", "--players", "2", "--human", "0,1", "--seed", str(SEED)]
    assert main([*command, "--save", str(save)]) == 0
    out = capsys.readouterr().out
    name = int(out.split("--- Player ", 1)[1][0])  # the seat asked first ("Player N": seat N-1)
    assert out.count(f"Player {name} takes back their last move") == 1
    assert out.count(NOTHING_TO_UNDO) == 2
    # the builder taken back: the seat is asked the same role again, then the other seat plays
    taken = out.index("takes back their last move")
    assert f"--- Player {name} to decide ---" in out[taken:]
    assert f"Player {3 - name}> undo\n{NOTHING_TO_UNDO}" in out
    choices = json.loads(save.read_text())["choices"]
    assert choices == ["role:prospector"]
