"""One table cannot hurt another: an uploaded house rule whose loop never ends is accepted (its
set-up is fine), and the move that enters the loop runs in a worker process within the
server's CPU budget for one move. Meanwhile another table is answered; past the budget the
table stops, every seat is told why, and a move there is refused (that the stop is kept over a
restart: test_never_ending_rule.py). A real ``rulebook serve`` on 127.0.0.1.

Kept quick: the upload's check (the server's own, in its sandbox process) runs while the server
starts, and the two tables' workers start side by side."""

from __future__ import annotations

import json
import re
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from helpers.server import free_port, start_server
from interpreter.serve.house_rules import store_overlay

# after seat 1 picks a role, a loop whose end never comes (2e9 passes: minutes of CPU); the
# set-up and seat 0's options (whose previews try each pick) never enter it
SPIN = b"""overlay: spin
extends: puerto-rico
title: A loop that never ends
add:
  flow/round/choose-roles/repeat/steps/each-chooses/each-player/steps/spin:
    after: pick-role
    repeat:
      max: 2000000000
      while: chooser == 1 and picks < 2000000000
      steps:
        - name: spin-once
          do: rooms-left = rooms-left
"""
BUDGET = ["--workers", "1", "--move-seconds", "0.3"]


def _table(client: httpx.Client, overlays: list[str]) -> dict[str, Any]:
    response = client.post(
        "/api/tables",
        json={"game": "puerto-rico", "seats": ["human", "random", "random"], "overlays": overlays},
    )
    assert response.status_code == 201, response.text
    return response.json()


def _first_move(client: httpx.Client, table: dict[str, Any]) -> httpx.Response:
    token = table["seats"][0]["token"]
    state = client.get(f"/api/tables/{table['id']}/state", params={"token": token}).json()
    return client.post(
        f"/api/tables/{table['id']}/move",
        json={"token": token, "option": state["options"][0]["id"], "decision": state["decision"]},
    )


def _play_until_stopped(client: httpx.Client, table: dict[str, Any]) -> httpx.Response:
    """Seat 0 takes its first option until the table stops (seat 1's role pick spins)."""
    for _ in range(40):
        answer = _first_move(client, table)
        if answer.status_code != 200 or answer.json()["error"] is not None:
            return answer
    raise AssertionError("the table did not stop")


def test_a_spinning_rule_stops_its_table_and_no_other_waits(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the check's own time limit is not what this test is about (test_upload_sandbox.py): on a
    # machine busy with other work it may take past the default 20 s
    monkeypatch.setenv("RULEBOOK_UPLOAD_SECONDS", "120")
    db = tmp_path / "tables.sqlite3"
    port = free_port()
    aside = ThreadPoolExecutor(2)
    # the check an upload gets (the validator in its sandbox process), into the folder the
    # server keeps its uploads in, while the server starts: the upload then finds it checked
    checked = aside.submit(store_overlay, db.parent / "overlays", "spin.yaml", SPIN)
    server = start_server(db, port, *BUDGET)
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=20) as client:
            stored = Path(checked.result())  # accepted: its set-up is fine
            upload = client.post("/api/overlays?name=spin.yaml", content=SPIN)
            assert upload.status_code == 201, upload.text
            assert upload.json()["overlay"] == f"upload:{stored.stem}"
            normal_made = aside.submit(_table, client, [])  # each table's worker starts at once
            hostile = _table(client, [upload.json()["overlay"]])
            normal = normal_made.result()
            seat_url = f"ws://127.0.0.1:{port}/ws/tables/{hostile['id']}"
            with connect(f"{seat_url}?token={hostile['seats'][0]['token']}") as seat:
                assert json.loads(seat.recv(10))["error"] is None
                answers: list[httpx.Response] = []
                mover = threading.Thread(
                    target=lambda: answers.append(_play_until_stopped(client, hostile))
                )
                mover.start()
                # another table, asked again and again while the hostile moves run: each time
                # answered, and it plays on
                with httpx.Client(base_url=client.base_url, timeout=20) as other:
                    asked = 0
                    while mover.is_alive() or asked < 3:
                        path = f"/api/tables/{normal['id']}/state"
                        assert other.get(path).status_code == 200
                        asked += 1
                    assert _first_move(other, normal).status_code == 200
                mover.join()
                # the hostile move: seat 0's pick is made, the bot's pick that follows passes
                # the budget and the table stops there, saying why
                assert answers[0].status_code == 200, answers[0].text
                error = answers[0].json()["error"]
                assert error.startswith("the table stopped at decision ")
                assert "(seat 1 to move): the rules used more than" in error
                assert error.endswith("more than this server's 0.3 s of CPU time for one move")
                # the seat's socket is sent the reason
                told = json.loads(seat.recv(10))
                while told.get("error") is None:
                    told = json.loads(seat.recv(10))
                assert told["error"] == error
            state = client.get(f"/api/tables/{hostile['id']}/state").json()
            stopped_at = state["decision"]
            assert state["error"] == error and f"decision {stopped_at} (" in error
            # a move at a stopped table is refused
            token = hostile["seats"][0]["token"]
            refused = client.post(
                f"/api/tables/{hostile['id']}/move",
                json={"token": token, "option": "role:mayor", "decision": stopped_at},
            )
            assert refused.status_code == 409
            assert refused.json()["error"] == f"this table has stopped: {error}"
            # the server is stopped while a move spins in its worker (a bot-only table of the
            # same rules): it says nothing on its way out (test_quiet_shutdown.py)
            spinning = client.post(
                "/api/tables",
                json={
                    "game": "puerto-rico",
                    "seats": ["random"] * 3,
                    "overlays": [upload.json()["overlay"]],
                    "speed": 0,
                },
            )
            assert spinning.status_code == 201, spinning.text
            time.sleep(0.1)
    finally:
        aside.shutdown()
        server.terminate()
        server.wait(20)
    log = server.stderr.read().decode()
    # all it said: where its tables are kept, its address, and the tables it stopped; nothing
    # on its way out (no traceback, no worker started again)
    said = [line for line in log.splitlines() if not line.startswith("rulebook: ")]
    assert all(re.fullmatch(r"table \S+ stopped: .*", line) for line in said), log
