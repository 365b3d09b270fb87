"""A person at a real terminal: `rulebook play GAME --human 0` runs in a pseudo-terminal of
100x40 (the `pty` module), and the test answers each prompt as a person would type, to the end
of a whole game (bots play the other seats, the seed is fixed).

Each screen printed between two of the person's decisions (what happened since the last turn,
the compact board, the options) must fit the terminal's 40 lines, so nothing the person needs
scrolls away; `? hospice` (or `? NAME` for a San Juan card) prints the entry's text, `b` the
whole board, and an option can be picked by the start of its name."""

from __future__ import annotations

import os
import pty
import re
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
COLUMNS, LINES = 100, 40
PROMPT = "Player 1> "  # the person at seat 0, unnamed
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


class Terminal:
    """`rulebook play ...` on the slave side of a pty; the test types on the master side."""

    def __init__(self, *args: str, size: tuple[int, int] = (COLUMNS, LINES)) -> None:
        env = {k: v for k, v in os.environ.items() if k != "RULEBOOK_RULESETS"}
        env.update(PYTHONPATH=str(REPO), COLUMNS=str(size[0]), LINES=str(size[1]), TERM="dumb")
        self.master, slave = pty.openpty()
        command = [sys.executable, "-m", "interpreter.cli.main", "play", *args]
        self.proc = subprocess.Popen(
            command, stdin=slave, stdout=slave, stderr=slave, cwd=REPO, env=env, close_fds=True
        )
        os.close(slave)
        self.text = ""  # everything the terminal showed, "\r\n" read as "\n"

    def read_until_prompt(self, deadline: float) -> str | None:
        """What the program prints up to its next prompt (None: it ended first)."""
        start = len(self.text)
        while len(self.text) == start or not self.text.endswith(PROMPT):
            if time.monotonic() > deadline:
                raise AssertionError("no prompt in time; last output:\n" + self.text[-2000:])
            ready, _, _ = select.select([self.master], [], [], 1.0)
            if not ready:
                continue
            try:
                chunk = os.read(self.master, 65536)
            except OSError:  # the program ended and closed the terminal
                chunk = b""
            if not chunk:
                return None
            text = ANSI.sub("", chunk.decode("utf-8", "replace"))
            self.text += text.replace("\r\n", "\n").replace("\r", "")
        return self.text[start:]

    def type(self, line: str) -> None:
        os.write(self.master, (line + "\n").encode())

    def close(self) -> int:
        """Read what is left until the program ends (killed if it still waits after 10 s)."""
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            ready, _, _ = select.select([self.master], [], [], 0.5)
            if ready:
                try:
                    chunk = os.read(self.master, 65536)
                except OSError:
                    break
                if not chunk:
                    break
                self.text += ANSI.sub("", chunk.decode("utf-8", "replace")).replace("\r\n", "\n")
            elif self.proc.poll() is not None:
                break
        if self.proc.poll() is None:
            self.proc.kill()
        os.close(self.master)
        return self.proc.wait(timeout=30)


def play_whole_game(
    game: str, seed: int, entry: str, entry_text: str, size: tuple[int, int] = (COLUMNS, LINES)
) -> dict[str, int]:
    """Answer every prompt with 1 (after a few commands at the first one); check every screen
    fits ``size`` (columns, lines)."""
    columns, height = size
    term = Terminal(game, "--players", "3", "--human", "0", "--seed", str(seed), size=size)
    deadline = time.monotonic() + 120
    seen = {"decisions": 0, "tallest": 0, "compound": 0}
    try:
        first = term.read_until_prompt(deadline)
        assert first is not None and "--- Player 1 to decide ---" in first
        term.type(f"? {entry}")
        shown = term.read_until_prompt(deadline)
        assert shown is not None and entry_text in " ".join(shown.split()), shown
        term.type("b")  # the whole board, on demand
        board = term.read_until_prompt(deadline)
        assert board is not None and "(you)" in board and "options:" in board
        term.type("1")
        while True:
            screen = term.read_until_prompt(deadline)
            if screen is None:
                break
            seen["decisions"] += 1
            lines = screen.removeprefix("1\n").split("\n")  # the typed answer's echo
            rows = sum(max(1, -(-len(line) // columns)) for line in lines)  # as wrapped
            seen["tallest"] = max(seen["tallest"], rows)
            assert rows <= height, f"a {rows}-row screen:\n{screen}"
            assert lines[-1] == PROMPT and "--- Player 1 to decide ---" in screen
            if "Player 1 (you)" not in screen:
                seen["compound"] += 1  # the same seat again: only the options redrawn
            term.type("1")
    finally:
        code = term.close()
    assert code == 0, term.text[-3000:]
    assert "Traceback" not in term.text and re.search(r"Winners?( \(tied\))?: \S", term.text)
    return seen


@pytest.mark.parametrize("size", [(COLUMNS, LINES), (80, 24)])
def test_a_whole_puerto_rico_game_fits_the_terminal_screen_by_screen(size):
    seen = play_whole_game(
        "puerto-rico",
        5,
        "hospice",
        "When its owner places a plantation or quarry in the settler phase",
        size,
    )
    assert seen["decisions"] > 50 and seen["compound"] > 5, seen
    assert seen["tallest"] > 15  # the screens do show the board and log, not only options


@pytest.mark.parametrize("size", [(COLUMNS, LINES), (80, 24)])
def test_a_whole_san_juan_game_fits_the_terminal_screen_by_screen(size):
    seen = play_whole_game("san-juan", 5, "gold m", "draws 4 cards; all different costs", size)
    assert seen["decisions"] > 50, seen


@pytest.mark.parametrize(
    ("answers", "expected"),
    [
        (["? small mar"], "Small market  [small-market]"),
        (["info HOSP"], "Hospice  [hospice]"),
        (["? market"], "names several entries: Small market, Large market"),
        (["? nothing-like-this"], "nothing called 'nothing-like-this'"),
        (["?"], "b (board)"),
    ],
)
def test_info_and_help_at_the_prompt(answers, expected):
    term = Terminal("puerto-rico", "--players", "3", "--human", "0", "--seed", "5")
    deadline = time.monotonic() + 60
    try:
        assert term.read_until_prompt(deadline) is not None
        for answer in answers:
            term.type(answer)
            assert term.read_until_prompt(deadline) is not None
        term.type("quit")
        term.read_until_prompt(deadline)
    finally:
        code = term.close()
    assert code == 0 and expected in term.text, term.text[-2000:]
