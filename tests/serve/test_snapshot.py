"""The position a worker sends the server (serve/snapshot.py) is the whole state: rebuilt on
the server's side, move after move, from the log and history entries it lacks only, it reads
as the worker's state does and plays on identically."""

from __future__ import annotations

import pickle
import random

from interpreter.engine.loader import load_game
from interpreter.serve.snapshot import restore, snapshot


def test_a_position_rebuilt_move_by_move_is_the_played_one() -> None:
    game = load_game("puerto-rico", 3)
    played = game.new_state(7)
    held = restore(game, pickle.loads(pickle.dumps(snapshot(played))))
    rng = random.Random(7)
    for _ in range(80):
        played.apply(rng.choice(played.legal_options()))
        sent = snapshot(played, len(held.log or ()), len(held.history))
        held = restore(game, pickle.loads(pickle.dumps(sent)), held)
        assert (held.g, held.p, held.v) == (played.g, played.p, played.v)
        assert held.legal_options() == played.legal_options()
        assert (held.log, held.history, held.to_move) == (
            played.log,
            played.history,
            played.to_move,
        )
        assert held.view(0) == played.view(0)
    # the pending options are the engine's own: the held state plays on as the played one
    again = played.copy()
    option = played.legal_options()[0]
    again.apply(option)
    held.apply(option)
    assert (held.g, held.p, held.rng.random()) == (again.g, again.p, again.rng.random())


def test_a_generator_the_server_holds_is_not_sent_again() -> None:
    """A move that draws nothing sends no generator (the receiver keeps its own: some 3.7 KB
    of a 7 KB position); one that draws sends it, and the held state draws as the played one.
    A whole game of San Juan, which draws now and then (a reshuffle)."""
    game = load_game("san-juan", 2)
    played = game.new_state(7)
    known = played._rng
    held = restore(game, pickle.loads(pickle.dumps(snapshot(played))))
    rng = random.Random(3)
    sent_with = []
    while not played.is_over:
        moved = played.copy()
        moved.log = list(played.log or [])
        moved.apply(rng.choice(moved.legal_options()))
        sent = snapshot(moved, len(held.log or ()), len(held.history), known)
        known = moved._rng
        sent_with.append("rng" in sent)
        held = restore(game, pickle.loads(pickle.dumps(sent)), held)
        played = moved
        assert held._rng.getstate() == played._rng.getstate()  # read without a clone
    assert 0 < sum(sent_with) < len(sent_with) / 10
    assert (held.g, held.p, held.rng.random()) == (played.g, played.p, played.rng.random())
