"""An option's preview ("you get 2 doubloons", "1 VP chip") tells the truth: what the deciding
seat's own fields would be right after that option's own effect, never what a move the engine
then takes by itself adds (a forced load after the captain's privilege).

Every option of every decision of a whole random game of every shipped game: its preview,
as the table words it, against the seat's own fields at the first stop after the option
(a decision asked, a move the engine is about to take alone, or the end), followed through the
real engine with the leak check's tracing walk (a path independent of the preview's).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from interpreter.check.secrets_trace import Enough, Watcher, walk
from interpreter.compose.rulefiles import load_rules_data
from interpreter.engine.loader import load_game
from interpreter.table.offers import option_preview
from interpreter.table.presenter import Presentation, preview_changes

GAMES = [
    ("puerto-rico", 3, ()),
    ("puerto-rico", 4, ("new-buildings", "nobles")),
    ("san-juan", 4, ()),
    ("san-juan", 2, ("new-buildings",)),
]


class _FirstStop(Watcher):
    """The seat's own fields at the first stop of a walk, then the walk ends."""

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.own: dict[str, Any] | None = None

    def stop(self, s: Any, kind: str, spec: Any) -> None:
        self.own = _own(s, self.seat)
        raise Enough


def _own(state: Any, seat: int) -> dict[str, Any]:
    from interpreter.engine.view import seat_view

    return seat_view(state.game.rules, state, seat, shared=False)["players"][seat]


@pytest.mark.parametrize(("game", "players", "overlays"), GAMES, ids=lambda x: str(x))
def test_every_preview_is_the_options_own_effect(game, players, overlays) -> None:
    rules = load_game(game, players, overlays)
    pres = Presentation.from_data(load_rules_data(game, overlays)[0])
    rng = random.Random(7)
    previewed = 0
    for seed in (1,):
        s = rules.new_state(seed)
        while not s.over:
            seat = s.to_move
            for option in s.legal_options():
                names = pres.preview_fields(option)
                if not names:
                    continue
                shown = option_preview(s, pres, option, seat)
                first = _FirstStop(seat)
                trial = s.copy()
                walk(trial, option, first)
                assert first.own is not None
                truth = preview_changes(_own(s, seat), first.own, names)
                assert shown == truth, (seed, s.decisions, option)
                previewed += 1
            s.apply(rng.choice(s.legal_options()))
    assert previewed > 20
