"""`rulebook play --human 1` at San Juan: the screen of seat 1 (its board, its options, the log
printed between its decisions) never shows a card of seat 0's hand that seat 1 cannot see.
The person's screen is drawn from `state.view(1)` and the option texts the driver writes."""

from __future__ import annotations

import io
import json
import re

import pytest

from interpreter.bots import make_bot
from interpreter.cli.human import HumanPlayer
from interpreter.cli.logfmt import LogPrinter
from interpreter.cli.play import drive, presentation_of
from interpreter.engine.loader import load_game


def _shown(text: str, card: str, label: str) -> bool:
    """The card's label as a word (as chips and texts name it; field labels such as "Cards
    under the chapel" are lower case), or its id as a part of an option id."""
    word = rf"(?<![\w-]){re.escape(label)}(?![\w-])"
    return bool(re.search(word, text) or re.search(rf":{re.escape(card)}(?![\w-])", text))


@pytest.mark.parametrize("seed", [3, 8])
def test_seat_1s_terminal_never_shows_seat_0s_hand(seed, monkeypatch):
    monkeypatch.setattr("interpreter.cli.human.WIDTH", 400)  # no label folded over two lines
    game = load_game("san-juan", 2)
    pres = presentation_of("san-juan", ())
    state = game.new_state(seed)
    out = io.StringIO()
    checked = {"hidden": 0, "own": 0, "screens": 0, "full": 0}
    # the board's row labels name fields, not cards ("Palace VP"): left out of the search
    fields = [*game.rules.player_init, *game.rules.global_init]
    row_labels = sorted({pres.label(f) for f in fields}, key=len, reverse=True)

    class Person(HumanPlayer):
        """Seat 1's person: answers 1, and the test reads each screen it was shown."""

        def choose(self, view, legal):
            start = len(out.getvalue())
            choice = super().choose(view, legal)
            screen = out.getvalue()[start:]
            # from the heading on: the log lines above it name cards put where nobody sees
            # them (a discard), and a copy of such a card may lie in seat 0's hand
            screen = screen[screen.index("--- seat 1 to decide ---") :]
            for label in row_labels:  # a row starts with its label, then a wide gap
                screen = re.sub(rf"(?m)^ {re.escape(label)}(?=  )", " ", screen)
                # and the seat's own summary line gives a count after its label ("Palace VP 0")
                screen = re.sub(rf"{re.escape(label)}(?= \d)", " ", screen)
            visible = json.dumps(state.view(1))
            hidden = {c for c in state.p[0]["hand"] if f'"{c}"' not in visible}
            for card in hidden:
                assert not _shown(screen, card, pres.label(card)), card
            checked["hidden"] += len(hidden)
            own = state.p[1]["hand"]
            if "Seat 1 (you)" in screen:  # a full screen (a compound step shows options only)
                checked["own"] += all(_shown(screen, c, pres.label(c)) for c in own)
                checked["full"] += 1
            checked["screens"] += 1
            return choice

    person = Person(1, inp=io.StringIO("1\n" * 2000), out=out, presentation=pres)
    drive(state, [make_bot("random", 0, seed), person], LogPrinter(out), lambda c: None)
    assert state.is_over and checked["screens"] > 20
    assert checked["hidden"] > 50  # seat 0 held cards seat 1 could not see, and none showed
    # while seat 1's own hand showed on every full screen
    assert checked["own"] == checked["full"] > 20
