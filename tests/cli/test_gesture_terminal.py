"""A gesture at the terminal (cli/gesture_input.py), through the real `rulebook play`: a San Juan
payment is asked once, with what it is for and how many cards; a line naming more cards than
allowed is refused whole (nothing played, asked again); a line of numbers pays them all, as the
seat's small moves."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SEED = str(2**61)  # seat 0 builds the Carpenter at once, for 2 of its cards


def test_a_payment_is_one_line_and_a_bad_line_plays_nothing() -> None:
    env = {k: v for k, v in os.environ.items() if k != "RULEBOOK_RULESETS"}
    command = [sys.executable, "-m", "interpreter.cli.main", "play", "san-juan"]
    command += ["--players", "2", "--human", "0", "--seed", SEED]
    script = "1\nbuild:carpenter\n1 1 1\n1 2\n"
    proc = subprocess.run(
        command, input=script, capture_output=True, text=True, cwd=REPO, env=env, timeout=120
    )
    out = proc.stdout
    assert "Traceback" not in out + proc.stderr
    asked = "Pay 2 cards for Carpenter: type all 2 in one line, e.g. 1 2"
    assert out.count(asked) == 1, out[-3000:]
    after = out[out.index(asked) :]
    refused = (
        "Player 1> 1 1 1\n'pay:tobacco-storage' is not a legal option now (nothing was played)\n"
    )
    assert after.startswith(asked + " (or names, with commas)\n" + refused), after[:600]
    paid = after[len(asked) :].split("Player 1> 1 2\n", 1)[1]
    # the build was said in one line when chosen (nothing could change its price), before the
    # payment; the cards paid are named in no line
    before = out[: out.index(asked)]
    assert "Round 1\n  Player 1 builds the Carpenter for 2 cards\n" in before, before[-1500:]
    assert "Carpenter" not in paid.split("Round 1:", 1)[0], paid[:600]
    assert "Pay with" not in paid.split("--- Player 1 to decide ---")[1]  # the payment is over
