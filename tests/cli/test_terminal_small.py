"""A person at an 80x24 terminal, through the real `rulebook play` code in process: the calm
screen cut to fit still shows the seat's own entry whole, its piles by name and its numbers at
zero, at every decision of the first rounds of a Puerto Rico game (builds included, when a
long list of options leaves the board little room)."""

from __future__ import annotations

import io
import re

from interpreter.cli.human import HumanPlayer
from interpreter.cli.main import main

OWN = "Player 1 (you)"
HEADING = "--- Player 1 to decide ---"


def test_the_own_entry_stays_whole_on_an_80x24_screen(capsys, monkeypatch):
    monkeypatch.setattr(HumanPlayer, "size", lambda self: (80, 24))
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * 30))  # 30 decisions, then it stops
    main(
        ["play", "puerto-rico", "--players", "3", "--seed", "5", "--human", "0", "--bots", "first"]
    )
    out = capsys.readouterr().out
    screens = [s.split("Player 1> ")[0] for s in out.split(HEADING)[1:]]
    boards = [s for s in screens if re.search(r"^Round \d+: ", s, re.M)]  # a summary shown
    assert len(boards) > 10
    builds = 0
    for screen in boards:
        assert OWN in screen, screen
        own = screen[screen.index(OWN) :].split("\n")
        entry = " ".join([own[0], *(x for x in own[1:] if x.startswith("    "))][:3])
        assert "Doubloons " in entry, entry  # said at 0 too
        assert not re.search(r"Island \d", entry), entry  # the seat's own island by name
        assert len(screen.rstrip("\n").split("\n")) <= 24
        builds += "Build " in screen
    assert builds >= 1
