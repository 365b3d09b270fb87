"""`rulebook play --human 0` shows the person its seat's own log lines ("you build the Well with
...": the names of the cards it paid, kept and discarded) and the other seats' public ones
("seat 1 builds the Well for 2 cards"); `rulebook replay` of the same game prints the public
log only. Through the real command on San Juan, typed answers on standard input."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _rulebook(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "interpreter.cli.main", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=300,
    )


def test_the_person_reads_its_own_lines_and_a_replay_the_public_ones(tmp_path):
    save = tmp_path / "game.json"
    done = _rulebook(
        "play",
        "san-juan",
        "--players",
        "2",
        "--seed",
        "3",
        "--human",
        "0",
        "--bots",
        "random",
        "--save",
        str(save),
        stdin="1\n" * 3000,
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout
    # a build is one line; the person's own names the cards where the whole hand pays
    paid = dict(re.findall(r"(?m)^  you build the (.+?) with (.+)$", out))
    told = re.findall(r"(?m)^  Player 1 builds the (.+?) for (\d) cards?$", out)
    assert paid and told
    assert re.search(r"(?m)^  you keep \w", out)
    # the other seat's (by its name): public
    assert re.search(r"(?m)^  Random bot builds the .+ for \d cards?$", out)
    assert "Player 1: you" not in out
    assert "Winner:" in out

    replayed = _rulebook("replay", str(save))
    assert replayed.returncode == 0, replayed.stderr
    log = replayed.stdout
    assert "you build" not in log and "you keep" not in log
    public = re.findall(r"(?m)^  seat 0 builds the (.+?) for (\d) cards?$", log)
    assert len(public) == len(told) + len(paid)
    # the same payments: as many cards as the person was told it paid
    cards = {building: p.count(",") + 1 + (" and " in p) for building, p in paid.items()}
    assert all(int(n) == cards[b] for b, n in public if b in cards)
    assert [(b, n) for b, n in public if b not in cards] == told
