"""The leak check of ``rulebook validate --secrets`` over the real messages of the web table.

At each decision of San Juan tables played through the HTTP API, every seat's message (and a
spectator's) is built from the true table state and from states that seat cannot tell from it
(``determinise``: what it may not see redrawn); the two must be equal in every field: the
board, the log, whose turn it is, and, for the seat to move, its options with their texts,
previews and costs. A seat to move must also be asked in every such state (a forced move in one
world and a decision in another is itself a leak). And what the HTTP state endpoint and the
websocket carry is exactly that message.
"""

from __future__ import annotations

import random
from dataclasses import replace

from helpers.serve_api import new_table, state_of, token_of
from interpreter.check.secrets_trace import reenumerate
from interpreter.infoset.worlds import determinise
from interpreter.serve.messages import SPECTATOR, seat_message
from interpreter.serve.tables import Hub

VIEWERS = (0, 1, 2, None)  # the three seats, then a spectator


def _drawn(live, seat: int | None, rng: random.Random):
    """A state `seat` cannot tell from the table's, with its options listed afresh, and the
    table's log (the log is shared: every seat is sent all of it); None when the drawn state is
    one the rules cannot reach (a rule fails in it)."""
    truth = live.state
    world = determinise(truth, SPECTATOR if seat is None else seat, rng)
    if not truth.is_over:
        asked = reenumerate(world, truth.take_forced)
        if asked is None:
            return None  # a rule fails there: not a state the game can reach
        assert asked, f"seat {truth.to_move} is asked here but not in a state {seat} may be in"
    world.log = list(truth.log)
    return world


def test_no_message_depends_on_what_its_seat_may_not_see(client) -> None:
    rng = random.Random(26)
    checked = 0
    for game_seed in (3, 8):
        table = new_table(client, game="san-juan", players=3, seats=["human"] * 3, seed=game_seed)
        hub: Hub = client.app.state.hub
        live = hub.get(table["id"])
        while not live.state.is_over and live.decision < 70:
            for seat in VIEWERS:
                message = seat_message(live, seat)
                if live.decision % 7 == 0:  # what the endpoint sends is exactly this message
                    assert state_of(client, table, seat) == message
                for _ in range(2):
                    world = _drawn(live, seat, rng)
                    if world is None:
                        continue
                    assert seat_message(replace(live, state=world), seat) == message, (
                        f"seat {seat}, decision {live.decision}"
                    )
                    checked += 1
            mover = live.state.to_move
            option = rng.choice(live.state.legal_options())
            response = client.post(
                f"/api/tables/{table['id']}/move",
                json={"token": token_of(table, mover), "option": option, "decision": live.decision},
            )
            assert response.status_code == 200, response.text
    assert checked >= 1000


def test_the_websocket_carries_exactly_the_seats_message(client) -> None:
    table = new_table(client, game="san-juan", players=3, seats=["human"] * 3, seed=5)
    hub: Hub = client.app.state.hub
    live = hub.get(table["id"])
    rng = random.Random(5)
    with (
        client.websocket_connect(f"/ws/tables/{table['id']}?token={token_of(table, 1)}") as seat,
        client.websocket_connect(f"/ws/tables/{table['id']}") as watcher,
    ):
        sent = {1: 0, None: 0}
        for _ in range(25):
            for viewer, ws in ((1, seat), (None, watcher)):
                message = ws.receive_json()
                assert message == seat_message(live, viewer, sent[viewer])
                sent[viewer] += len(message["log"])
                world = _drawn(live, viewer, rng)
                if world is not None:
                    start = message["log_from"]
                    assert message == seat_message(replace(live, state=world), viewer, start)
            mover = live.state.to_move
            client.post(
                f"/api/tables/{table['id']}/move",
                json={
                    "token": token_of(table, mover),
                    "option": rng.choice(live.state.legal_options()),
                    "decision": live.decision,
                },
            )
        assert sent[1] > 0 and sent[None] == sent[1]  # both were sent the whole log
