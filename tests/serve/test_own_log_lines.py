"""The web table sends each seat the log as that seat reads it: a San Juan builder's payment is
"you build the Market hall with Well, Tower and Smithy" to the payer and "seat 0 builds the
Market hall for 3 cards" to every other seat and to a spectator, over HTTP, the websocket and
the seat's record (the save a seat may download while people play); no other reader is ever
sent the names in an own text."""

from __future__ import annotations

import json
import random
import re

from helpers.serve_api import move, new_table, state_of, token_of
from interpreter.dsl.runtime.loglines import OwnLine
from interpreter.serve.tables import Hub
from interpreter.table.seat_names import with_names


def _live(client, table_id):
    hub: Hub = client.app.state.hub
    return hub.get(table_id)


def _texts(message) -> list[str]:
    return [text for _round, text in message["log"]]


def test_each_seat_is_sent_its_own_lines_and_nobody_else_is(client):
    table = new_table(client, game="san-juan", players=3, seats=["human"] * 3, seed=11)
    live = _live(client, table["id"])
    rng = random.Random(11)
    # people who build what they can and pay with what comes first: payments of several cards
    while live.state.round < 6 and not live.state.is_over:
        seat = live.state.to_move
        options = live.state.legal_options()
        builds = [o for o in options if o.startswith(("build:", "role:builder"))]
        choice = builds[0] if builds else rng.choice(options)
        response = move(client, table, seat, choice, len(live.save.choices))
        assert response.status_code == 200, response.text
    log = live.state.log
    own = [(i, text) for i, (_r, _s, text) in enumerate(log) if isinstance(text, OwnLine)]
    payments = [(i, t) for i, t in own if t.own.startswith("you build the ") and " and " in t.own]
    assert payments, "a payment of several cards"
    messages = {seat: state_of(client, table, seat) for seat in (0, 1, 2, None)}
    records = {
        seat: client.get(
            f"/api/tables/{table['id']}/save",
            params={} if seat is None else {"token": token_of(table, seat)},
        ).json()
        for seat in (0, 1, 2, None)
    }
    for reader, message in messages.items():
        texts = _texts(message)
        assert len(texts) == len(log)
        recorded = [text for step in records[reader]["steps"] for _round, text in step["log"]]
        # the record carries what the messages did, in the engine's words (a page names seats)
        assert [with_names(text, message["names"]) for text in recorded] == texts
        sent = json.dumps(message) + json.dumps(records[reader])
        for i, line in own:
            if line.seat == reader:
                assert texts[i] == line.own
            else:
                assert texts[i] == with_names(str(line), message["names"])
                assert texts[i].startswith(f"Player {line.seat + 1} ")
                assert line.own not in sent
    i, paid = payments[0]
    count = paid.own.split(" with ", 1)[1].count(",") + 2
    assert re.fullmatch(rf"seat {paid.seat} builds the .+ for {count} cards", str(paid)), paid
    # the websocket's first message is the same as the seat's HTTP state
    for seat in (paid.seat, (paid.seat + 1) % 3):
        socket = f"/ws/tables/{table['id']}?token={token_of(table, seat)}"
        with client.websocket_connect(socket) as ws:
            first = ws.receive_json()
        public = with_names(str(paid), first["names"])
        assert _texts(first)[i] == (paid.own if seat == paid.seat else public)
