"""A watched bot-only table whose bot raises, or whose rules fail mid-game, stops there and
says why (a located diagnostic, never a traceback) to everybody watching; nothing of the
failed move is stored and the watch task ends."""

from __future__ import annotations

import logging
import re
import time

from helpers.serve_api import new_table, state_of

FAILS_MID_GAME = b"""overlay: fails-mid-game
extends: puerto-rico
replace:
  # from round 3 on, the chooser's privilege divides by zero
  functions/privilege:
    params: [p]
    expr: (1 // (0 if round >= 3 else 1)) if p == chooser else 0
"""


def _stopped(client, table, timeout=60.0):
    """The spectator's message once the table has an error and its task has ended."""
    tasks = client.app.state.watchers.tasks
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        message = state_of(client, table, None)
        if message["error"] and table["id"] not in tasks:
            return message
        time.sleep(0.05)
    raise AssertionError(f"no error after {timeout} s: {message}")


def _logged(caplog) -> list[str]:
    """What the server's own logger wrote at the default level (warning; the real server's
    stderr: nothing configures a handler for it, so Python writes it there)."""
    return [r.getMessage() for r in caplog.records if r.name == "rulebook.serve"]


def test_a_rule_failing_mid_game_is_shown_located_and_the_task_stops(client, caplog):
    caplog.set_level(logging.WARNING)
    upload = client.post("/api/overlays?name=fails-mid-game.yaml", content=FAILS_MID_GAME)
    assert upload.status_code == 201, upload.text
    table = new_table(
        client,
        game="puerto-rico",
        players=3,
        seats=["random"] * 3,
        overlays=[upload.json()["overlay"]],
        seed=1,
        speed=0,
    )
    message = _stopped(client, table)
    error = message["error"]
    assert re.search(r"\.yaml:\d+:\d+: error\[E001\]: a rule failed at decision \d+", error)
    assert "division by zero" in error and "Traceback" not in error
    assert message["round"] >= 3 and not message["over"]
    stored = client.app.state.hub.store.load(table["id"])
    assert len(stored.save.choices) == message["decision"]  # the failed move is not stored
    time.sleep(0.3)
    assert state_of(client, table, None)["decision"] == message["decision"]
    assert _logged(caplog) == [f"table {table['id']} stopped: {error}"]  # one line


class Broken:
    """A bot with a fault of its own."""

    def choose(self, view, legal):
        raise KeyError("the bot's own slip")


def test_a_bot_that_raises_is_shown_and_the_task_stops(client, caplog):
    caplog.set_level(logging.WARNING)
    table = new_table(client, game="san-juan", players=2, seats=["random"] * 2, speed=0.01)
    hub = client.app.state.hub
    live = hub.get(table["id"])
    live.bots = {seat: Broken() for seat in live.bots}  # the next move fails
    response = client.post(
        f"/api/tables/{table['id']}/speed", json={"speed": 0, "creator": table["creator"]}
    )
    assert response.status_code == 200
    message = _stopped(client, table, timeout=20)
    assert message["error"].startswith(f"seat {message['to_move']}'s bot (random) failed: ")
    assert "KeyError" in message["error"] and "Traceback" not in message["error"]
    assert message["decision"] == len(hub.store.load(table["id"]).save.choices)
    assert _logged(caplog) == [f"table {table['id']} stopped: {message['error']}"]
