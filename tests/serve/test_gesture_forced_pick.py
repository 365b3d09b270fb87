"""A gesture's picks where the engine takes the last one by itself: in a 2-player Puerto Rico
Mayor phase, placing the proposal's picks in the order the engine takes them can leave one
building the only place left, which the engine fills without asking (a forced move). That pick
is made: the gesture is planned whole, not refused with "1 pick(s) more than this step asks"
(a person's confirm at the table did nothing, the page stuck on the same prompt)."""

from __future__ import annotations

from collections import Counter

from interpreter.engine.loader import load_game_and_data
from interpreter.table.gestures import gesture_of, plan_moves, proposal
from interpreter.table.presenter import Presentation


def test_a_pick_the_engine_takes_by_itself_is_made() -> None:
    game, data = load_game_and_data("puerto-rico", 2)
    pres = Presentation.from_data(data)
    state = game.new_state(seed=0)
    last: dict[str, list[str]] = {}
    planned = 0
    while not state.is_over and planned < 6:
        found = gesture_of(state, pres, 0) if state.to_move == 0 else None
        if found is None:
            state.apply(state.legal_options()[0])
            continue
        # the page's proposal: the seat's last placement kept, the rest as the engine places
        picks = proposal(found, last.get(found["step"], []))
        moves = plan_moves(state, pres, 0, picks)  # seed 0's fifth Mayor phase refused this
        for move in moves:
            state.apply(move)
        last[found["step"]] = picks
        planned += 1
        assert len(moves) <= len(picks)
        # every pick placed: the moves sent and the ones the engine took by itself
        placed = Counter(picks)
        sent = Counter(moves)
        assert sent <= placed
    assert planned == 6
