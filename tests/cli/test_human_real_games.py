"""A person at the terminal playing a real game to its end: the real `rulebook play` command in a
subprocess, stdin fed by a script. The script starts with bad entries (garbage, an out-of-range
number, an empty line), each of which must be asked again without a crash, then always answers
1 (the first option) until the game is over."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
BAD_ENTRIES = ("banana", "99", "")
# far more answers than a game needs; a game that runs out of them fails (the seat "left")
SCRIPT = "".join(f"{line}\n" for line in BAD_ENTRIES) + "1\n" * 5000


def play_as_human(game: str, players: int, seat: int, seed: int) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "RULEBOOK_RULESETS"}  # shipped rulesets
    command = [sys.executable, "-m", "interpreter.cli.main", "play", game]
    command += ["--players", str(players), "--human", str(seat), "--seed", str(seed)]
    command += ["--bots", "random"]  # the person's screens name them "Random bot 1", "... 2"
    # the timeout only guards against a game that waits for input forever
    return subprocess.run(
        command, input=SCRIPT, capture_output=True, text=True, cwd=REPO, env=env, timeout=120
    )


def score_table(out: str) -> tuple[list[str], list[list[str]], str]:
    """The final table (header, rows without the winner's '*') and the winner line; cells are
    set apart by two spaces or more (a name or a label has single spaces)."""
    lines = out.splitlines()
    end = next(i for i, line in enumerate(lines) if line.startswith("Game over after"))
    header = re.split(r" {2,}", lines[end + 1].strip())
    rows = []
    for line in lines[end + 2 :]:
        if line.startswith("Winner"):
            return header, rows, line
        rows.append(re.split(r" {2,}", line[1:].strip()))
    raise AssertionError("no winner line after the score table")


def check_human_game(proc: subprocess.CompletedProcess, players: int, seat: int) -> None:
    out, err = proc.stdout, proc.stderr
    assert proc.returncode == 0, err[-2000:]
    assert "Traceback" not in err and "Traceback" not in out
    assert "left the game" not in err  # the script did not run out before the end

    # the seat's view and numbered options, then a prompt
    name = f"Player {seat + 1}"  # no --name: the person's seat is "Player N"
    decide, prompt = f"--- {name} to decide ---\n", f"{name}> "
    assert decide in out and re.search(r"options:\n [^\n]+:\n  1\) \S[^\n]* \[[a-z]", out)
    # a readable board, not a dump of the state: no internal fields, no raw ids as labels
    assert "Round " in out and "done-loading" not in out and "used-own-ship" not in out
    # each bad entry is echoed and answered by a message, then the same decision is asked again
    first = out.index(prompt)
    transcript = out[first:]
    expected = (
        f"{prompt}banana\n'banana' is not an option: enter ",
        f"{prompt}99\nno option 99: enter ",
        f"{prompt}\nenter ",
        "or an option id ('?' shows the options again)\n",
        f"{prompt}1\n",
    )
    at = 0
    for piece in expected:
        found = transcript.find(piece, at)
        assert found >= 0, f"{piece!r} missing after the bad entries:\n{transcript[:800]}"
        at = found + len(piece)
    assert out.count(decide, 0, first + at) == 1  # all three re-asked in the first decision
    # one prompt per decision shown, plus one per bad entry; every answer after them was "1"
    assert out.count(prompt) == out.count(decide) + len(BAD_ENTRIES)
    answers = [line[len(prompt) :] for line in out.splitlines() if line.startswith(prompt)]
    assert answers[len(BAD_ENTRIES) :] == ["1"] * out.count(decide)

    # the final score table: one row per seat, the human's seat marked, totals add up
    # the final score table, by name and in the ruleset's words
    header, rows, winner = score_table(out)
    assert header[0] == "Player" and "Total" in header
    bots = [f"Random bot {n}" for n in range(1, players)]
    assert sorted(row[0] for row in rows) == sorted([name, *bots])
    total = header.index("Total")
    for row in rows:
        assert len(row) == len(header)
        assert int(row[total]) == sum(int(v) for v in row[1:total]), row
    best = max(int(row[total]) for row in rows)
    named = winner.split(": ", 1)[1].split(", ")
    assert set(named) <= {row[0] for row in rows if int(row[total]) == best}


@pytest.mark.parametrize("seed", [5, 11])
def test_person_plays_seat_1_of_san_juan_to_the_end(seed):
    proc = play_as_human("san-juan", 3, 1, seed)
    check_human_game(proc, 3, 1)
    assert proc.stdout.startswith("San Juan [san-juan], 3 players")
    assert "Game over after" in proc.stdout and "Cards under buildings" in proc.stdout


@pytest.mark.parametrize("seed", [5, 11])
def test_person_plays_seat_0_of_puerto_rico_to_the_end(seed):
    proc = play_as_human("puerto-rico", 3, 0, seed)
    check_human_game(proc, 3, 0)
    assert proc.stdout.startswith("Puerto Rico [puerto-rico], 3 players")
