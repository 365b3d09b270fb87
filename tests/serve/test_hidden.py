"""Hidden information per seat: what a seat is sent is built from its own view only. Seat 1
never receives seat 0's hand (San Juan) or seat 0's VP chips (Puerto Rico), over HTTP or the
websocket, at any moment of a game."""

from __future__ import annotations

import json
import random
import re
from dataclasses import replace

from helpers.serve_api import ask_everything, new_table, token_of
from interpreter.serve.messages import seat_message
from interpreter.serve.tables import Hub


def _table(client, table_id):
    hub: Hub = client.app.state.hub
    return hub.get(table_id)


def _seat0_zone(board_html: str) -> str:
    found = re.search(r"<section class='zone [^']*' data-seat='0'[^>]*>(.*?)</section>", board_html)
    assert found, "the board shows seat 0"
    return found.group(1)


def test_no_message_to_seat_1_holds_seat_0s_hand(client):
    table = new_table(client, game="san-juan", players=2, seats=["human", "human"], seed=4)
    live = _table(client, table["id"])
    rng = random.Random(2)
    checked = 0
    sockets = [
        client.websocket_connect(f"/ws/tables/{table['id']}?token={token_of(table, s)}")
        for s in (0, 1)
    ]
    with sockets[0] as ws0, sockets[1] as ws1:
        ws0.receive_json()
        message = ws1.receive_json()
        while not live.state.is_over and checked < 150:
            hand = live.state.p[0]["hand"]  # the full state: what seat 1 must not learn
            # the same moment with seat 0 holding other cards: seat 1 must be told the same
            other = live.state.copy()
            other.log = list(live.state.log)
            others = [c for c in live.presentation.pieces if c not in hand]
            other.p[0]["hand"] = rng.sample(others, len(hand))
            start = message["log_from"]
            assert message == seat_message(live, 1, start)
            tampered = seat_message(replace(live, state=other), 1, start)
            assert message == tampered, message["decision"]
            zone = _seat0_zone(message["board"])
            assert f"{len(hand)} hidden" in zone
            checked += 1
            seat = live.state.to_move
            option = rng.choice(live.state.legal_options())
            (ws0 if seat == 0 else ws1).send_text(
                json.dumps({"option": option, "decision": len(live.save.choices)})
            )
            ws0.receive_json()
            message = ws1.receive_json()
    assert checked >= 100


def test_seat_1_never_sees_seat_0s_vp_chips(client):
    table = new_table(client, game="puerto-rico", players=3, seats=["human"] * 3, seed=9)
    ask_everything(client, table)  # every move is the test's own
    live = _table(client, table["id"])
    rng = random.Random(3)
    seen_chips = False
    for _ in range(400):
        if live.state.is_over:
            break
        message = client.get(
            f"/api/tables/{table['id']}/state", params={"token": token_of(table, 1)}
        ).json()
        zone = _seat0_zone(message["board"])
        assert "data-field='vp-chips'" not in zone and "data-field='vp-paper'" not in zone
        own = re.search(r"data-seat='1'[^>]*>(.*?)</section>", message["board"]).group(1)
        assert "data-field='vp-chips'" in own  # a seat sees its own chips
        seen_chips |= live.state.p[0]["vp-chips"] > 0
        seat = live.state.to_move
        live_message = client.post(
            f"/api/tables/{table['id']}/move",
            json={
                "token": token_of(table, seat),
                "option": rng.choice(live.state.legal_options()),
                "decision": len(live.save.choices),
            },
        )
        assert live_message.status_code == 200
    assert seen_chips, "seat 0 earned chips during the test, so hiding them was tested"


def test_only_the_seat_to_move_gets_options(client):
    table = new_table(client, game="san-juan", players=3, seats=["human"] * 3, seed=1)
    live = _table(client, table["id"])
    mover = live.state.to_move
    for seat in range(3):
        message = client.get(
            f"/api/tables/{table['id']}/state", params={"token": token_of(table, seat)}
        ).json()
        assert bool(message["options"]) == (seat == mover)
    spectator = client.get(f"/api/tables/{table['id']}/state").json()
    assert spectator["options"] == [] and spectator["seat"] is None
    assert "(you)" not in spectator["board"]
