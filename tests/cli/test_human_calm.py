"""The calm terminal on real games, read screen by screen: options picked by the start of a name,
catalog entries found by `? NAME`, compound decisions redrawn as options only, the log since
the seat's last turn cut to a few lines, and the log's tail printed when the game ends."""

from __future__ import annotations

import io
import re

import pytest

from interpreter.bots import make_bot
from interpreter.cli.calm import describe, find_entry, recent_lines
from interpreter.cli.human import HumanPlayer, pick
from interpreter.cli.logfmt import LogPrinter
from interpreter.cli.main import main
from interpreter.cli.play import drive, presentation_of
from interpreter.engine.loader import load_game
from interpreter.table.offers import options_of

HEADING = "--- seat 0 to decide ---"


def first_state_offering(game: str, players: int, family: str, seed: int = 5):
    """A real state where seat 0 decides and an option of ``family`` is legal."""
    state = load_game(game, players).new_state(seed)
    bots = [make_bot("random", seat, seed) for seat in range(players)]
    from interpreter.infoset.worlds import SeatView

    while not state.is_over:
        legal = state.legal_options()
        if state.to_move == 0 and any(o.startswith(family + ":") for o in legal):
            return state
        state.apply(bots[state.to_move].choose(SeatView(state, state.to_move), legal))
    raise AssertionError(f"no {family} decision for seat 0 with seed {seed}")


def texts_of(state, game: str) -> dict[str, str]:
    return {o["id"]: o["text"] for o in options_of(state, presentation_of(game, ()), 0)}


def test_an_option_is_picked_by_the_start_of_its_name():
    state = first_state_offering("puerto-rico", 3, "tile")
    legal, texts = state.legal_options(), texts_of(state, "puerto-rico")
    assert "tile:quarry" in legal  # the settler's privilege: seat 0 may take the quarry
    assert pick("quar", legal, texts) == ("tile:quarry", "")
    assert pick("QUARRY", legal, texts) == ("tile:quarry", "")
    plantation = next(o for o in legal if o.endswith("-plantation"))
    name = texts[plantation].removeprefix("Take ")  # "Coffee plantation"
    assert pick(name.lower(), legal, texts) == (plantation, "")
    # "plantation" starts a word of several options: asked again, naming them
    choice, problem = pick("plantation", legal, texts)
    assert choice is None and "matches several options" in problem
    # without the texts (a plain view) only ids match
    assert pick("quar", legal)[0] is None


def test_a_build_is_picked_by_the_start_of_the_building_name():
    state = first_state_offering("puerto-rico", 3, "build")
    legal, texts = state.legal_options(), texts_of(state, "puerto-rico")
    option = next(o for o in legal if o.startswith("build:"))
    words = texts[option].split(" — ")[0].split()[1:]  # "Build Small market" -> Small market
    typed = " ".join([*words[:-1], words[-1][:3]]).upper()
    assert pick(typed, legal, texts) == (option, "")


@pytest.mark.parametrize(
    ("game", "typed", "key"),
    [
        ("puerto-rico", "hospice", "hospice"),
        ("puerto-rico", "? hosp"[2:], "hospice"),
        ("puerto-rico", "small mar", "small-market"),
        ("puerto-rico", "Small-Market", "small-market"),
        ("puerto-rico", "roaster", "coffee-roaster"),
        ("san-juan", "gold m", "gold-mine"),
        ("san-juan", "PREFECT", "prefecture"),
    ],
)
def test_info_finds_an_entry_by_id_name_or_start(game, typed, key):
    pres = presentation_of(game, ())
    assert find_entry(pres, typed) == (key, "")
    text = "\n".join(describe(pres, key, 90))
    assert text.startswith(f"{pres.label(key)}  [{key}]")
    assert re.search(r"Cost \d+ · VP \d+", text)
    assert " ".join(pres.doc(key).split()[:6]) in " ".join(text.split())


def test_info_explains_unknown_and_ambiguous_names():
    pres = presentation_of("puerto-rico", ())
    key, problem = find_entry(pres, "market")
    assert key is None and "names several entries: Small market, Large market" in problem
    key, problem = find_entry(pres, "hospise")
    assert key is None and "nothing called 'hospise'" in problem and "Hospice" in problem


def test_recent_lines_keep_the_latest_and_count_the_rest():
    log = [(1, i % 3, f"move {i}") for i in range(20)]
    lines = recent_lines(log, 5)
    assert len(lines) == 5
    assert lines[0] == "  (17 earlier lines not shown; 'log' shows them all)"
    assert lines[1] == "Round 1" and lines[-1] == "  seat 1: move 19"


class Recorder(HumanPlayer):
    """Seat 0's person answering 1; keeps each screen and who decided just before."""

    def __init__(self, pres, out):
        super().__init__(0, inp=io.StringIO("1\n" * 3000), out=out, presentation=pres)
        self.screens: list[tuple[str, bool]] = []

    def choose(self, view, legal):
        start = len(self.out.getvalue())
        same_seat = self._previous == 0
        choice = super().choose(view, legal)
        self.screens.append((self.out.getvalue()[start:], same_seat))
        return choice


def test_compound_steps_redraw_only_the_options():
    game = load_game("puerto-rico", 3)
    pres = presentation_of("puerto-rico", ())
    state = game.new_state(5)
    out = io.StringIO()
    person = Recorder(pres, out)
    bots = [person, make_bot("random", 1, 5), make_bot("random", 2, 5)]
    drive(state, bots, LogPrinter(io.StringIO()), lambda c: None)
    assert state.is_over
    full = [s for s, _ in person.screens if "Seat 0 (you)" in s]
    short = [(s, again) for s, again in person.screens if "Seat 0 (you)" not in s]
    assert len(full) > 30 and len(short) > 10
    for screen, again in short:
        assert again  # only when seat 0 decided just before
        head, _, rest = screen.partition(HEADING)
        assert len(head.strip().splitlines()) <= 3  # at most its own step's line(s)
        assert rest.lstrip("\n").startswith("options:")
    for screen in full:
        assert len(screen.splitlines()) <= 40  # a pipe counts as a 40-line terminal
        assert re.search(r"^Round \d+: ", screen, re.M)  # the compact board's first line


def test_the_log_since_the_last_screen_is_printed_when_the_game_ends(capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * 3000))
    code = main(["play", "puerto-rico", "-p", "3", "--seed", "5", "--human", "0"])
    out = capsys.readouterr().out
    assert code == 0
    # the person is "Player 1" (no --name), the bots their kind
    tail = out[out.rindex("Player 1> 1\n") : out.index("Game over after")]
    assert re.search(r"^Round \d+\n  ", tail.removeprefix("Player 1> 1\n"))
    assert "game over" in tail or "end" in tail
    # the round log is not printed while the person plays: no line shows twice in a row
    assert out.count("Player 1> ") == out.count("--- Player 1 to decide ---")


def test_the_transcript_in_cli_md_is_what_the_command_prints(capsys, monkeypatch):
    """docs/cli.md's terminal transcript, replayed with the answers it shows."""
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "docs" / "cli.md").read_text(encoding="utf-8")
    section = text[text.index("### Playing at the terminal") :]
    start = section.index("```\n--- Player 1") + 4
    block = section[start : section.index("\n```", start)]
    assert block.count("--- Player 1 to decide ---") == 3
    answers = [
        line[len("Player 1> ") :] for line in block.splitlines() if line.startswith("Player 1> ")
    ]
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(f"{a}\n" for a in answers)))
    main(["play", "puerto-rico", "--players", "3", "--human", "0", "--seed", "5"])
    out = capsys.readouterr().out
    assert block in out, out
