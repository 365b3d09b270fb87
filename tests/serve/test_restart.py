"""A real `rulebook serve` process killed with SIGKILL mid-game loses no acknowledged move: a
new process on the same database resumes every table at its last acknowledged decision."""

from __future__ import annotations

import random
import signal

import httpx

from helpers.server import free_port, start_server


def test_a_killed_server_resumes_every_table_at_its_last_acknowledged_move(tmp_path):
    db, port = tmp_path / "tables.sqlite3", free_port()
    base = f"http://127.0.0.1:{port}"
    server = start_server(db, port)
    try:
        table = httpx.post(
            f"{base}/api/tables",
            json={
                "game": "puerto-rico",
                "players": 3,
                "seats": ["human", "random", "human"],
                "seed": 5,
            },
        ).json()
        tokens = {s["seat"]: s["token"] for s in table["seats"] if "token" in s}
        rng = random.Random(8)
        acknowledged, last_mover = None, 0
        for _ in range(40):
            public = httpx.get(f"{base}/api/tables/{table['id']}/state").json()
            seat = public["to_move"]
            mine = httpx.get(
                f"{base}/api/tables/{table['id']}/state", params={"token": tokens[seat]}
            ).json()
            response = httpx.post(
                f"{base}/api/tables/{table['id']}/move",
                json={
                    "token": tokens[seat],
                    "decision": mine["decision"],
                    "option": rng.choice([o["id"] for o in mine["options"]]),
                },
            )
            assert response.status_code == 200
            acknowledged, last_mover = response.json(), seat
        save_before = httpx.get(f"{base}/api/tables/{table['id']}/save").json()
    finally:
        server.send_signal(signal.SIGKILL)
        server.wait()
    server = start_server(db, port)
    try:
        # the acknowledgement is the mover's own view: compare that seat's view after the restart
        after = httpx.get(
            f"{base}/api/tables/{table['id']}/state", params={"token": tokens[last_mover]}
        ).json()
        assert after["decision"] == acknowledged["decision"]
        assert after["board"] == acknowledged["board"] and after["log"] == acknowledged["log"]
        assert httpx.get(f"{base}/api/tables/{table['id']}/save").json() == save_before
        # and play goes on
        seat = after["to_move"]
        mine = httpx.get(
            f"{base}/api/tables/{table['id']}/state", params={"token": tokens[seat]}
        ).json()
        response = httpx.post(
            f"{base}/api/tables/{table['id']}/move",
            json={
                "token": tokens[seat],
                "decision": mine["decision"],
                "option": mine["options"][0]["id"],
            },
        )
        assert response.status_code == 200 and response.json()["decision"] > after["decision"]
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)
