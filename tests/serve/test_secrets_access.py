"""While people play, the server hands nobody more than their seat: a live table's save (seed
and every choice) is nobody's to download, a seat gets its own record, a visitor the public
one, the replay of a live table is the public history, and seeds of people's tables are drawn
from 256 bits (a chosen seed makes a "practice" table that says so). All through a real
``rulebook serve`` (uvicorn, SQLite)."""

from __future__ import annotations

import json
import random
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from helpers.server import free_port, start_server
from interpreter.table.seat_names import with_names

ROOT = Path(__file__).resolve().parents[2]
TABLE_JS = ROOT / "interpreter/serve/static/table.js"


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    db = tmp_path_factory.mktemp("secrets") / "tables.sqlite3"
    port = free_port()
    process = start_server(db, port)
    yield f"http://127.0.0.1:{port}", db
    process.terminate()
    process.wait(timeout=30)


def _create(base: str, **fields: Any) -> dict[str, Any]:
    response = httpx.post(f"{base}/api/tables", json=fields, timeout=30)
    assert response.status_code == 201, response.text
    return response.json()


def _tokens(table: dict[str, Any]) -> dict[int, str]:
    return {s["seat"]: s["token"] for s in table["seats"] if "token" in s}


def _state(base: str, table_id: str, token: str | None = None) -> dict[str, Any]:
    params = {"token": token} if token else {}
    response = httpx.get(f"{base}/api/tables/{table_id}/state", params=params, timeout=30)
    assert response.status_code == 200, response.text
    return response.json()


def _play(base: str, table: dict[str, Any], moves: int, seed: int) -> dict[str, Any]:
    """Make ``moves`` moves of the human seats at random; returns what each step showed: the
    spectator's message before every decision and the choices each seat made."""
    tokens, rng = _tokens(table), random.Random(seed)
    spectator: list[dict[str, Any]] = []
    chosen: dict[int, list[tuple[int, str]]] = {seat: [] for seat in tokens}
    for _ in range(moves):
        public = _state(base, table["id"])
        spectator.append(public)
        if public["over"]:
            break
        seat = public["to_move"]
        mine = _state(base, table["id"], tokens[seat])
        option = rng.choice([o["id"] for o in mine["options"]])
        response = httpx.post(
            f"{base}/api/tables/{table['id']}/move",
            json={"token": tokens[seat], "option": option, "decision": mine["decision"]},
            timeout=30,
        )
        assert response.status_code == 200, response.text
        chosen[seat].append((mine["decision"], option))
    return {"spectator": spectator, "chosen": chosen}


def _save(base: str, table_id: str, token: str | None = None) -> httpx.Response:
    params = {"token": token} if token else {}
    return httpx.get(f"{base}/api/tables/{table_id}/save", params=params, timeout=60)


def _stored_seed(db: Path, table_id: str) -> int:
    with sqlite3.connect(db) as con:
        (header,) = con.execute("SELECT header FROM tables WHERE id = ?", (table_id,)).fetchone()
    return json.loads(header)["seed"]


def test_a_live_tables_save_gives_each_seat_its_own_record_and_a_visitor_the_public_one(served):
    base, db = served
    table = _create(base, game="san-juan", players=2, seats=["human", "human"])
    played = _play(base, table, 30, seed=3)
    tokens = _tokens(table)

    public = _save(base, table["id"])
    assert public.status_code == 200
    assert public.headers["cache-control"] == "no-store"
    record = public.json()
    assert record["format"] == "rulebook-record/1" and record["seat"] is None
    assert "seed" not in record and "choices" not in record
    assert str(_stored_seed(db, table["id"])) not in public.text
    assert not any("chose" in step or "options" in step for step in record["steps"])
    # the public record is what a spectator's messages showed: the same log, decision by
    # decision (in the engine's words, as a save: the page says each seat by its name)
    assert record["decisions"] == len(played["chosen"][0]) + len(played["chosen"][1])
    logs = [line for step in record["steps"] for line in step["log"]]
    shown = _state(base, table["id"])
    assert [[r, with_names(text, shown["names"])] for r, text in logs] == shown["log"]
    for message in played["spectator"]:
        step = record["steps"][message["decision"]]
        assert step["to_move"] == message["to_move"] and step["round"] == message["round"]

    for seat, other in ((0, 1), (1, 0)):
        mine = _save(base, table["id"], tokens[seat]).json()
        assert mine["seat"] == seat and "seed" not in mine
        # its own choices, each where it made it, and no choice of the other seat
        assert [(s["decision"], s["chose"]) for s in mine["steps"] if "chose" in s] == played[
            "chosen"
        ][seat]
        assert all(s["to_move"] == seat for s in mine["steps"] if "options" in s)
        # it saw its own hand, never the other's: the same view of the other seat as a visitor
        for step, seen in zip(mine["steps"], record["steps"], strict=True):
            assert step["view"]["players"][other] == seen["view"]["players"][other]
            assert isinstance(step["view"]["players"][seat]["hand"], list)
            assert not isinstance(seen["view"]["players"][seat]["hand"], list)

    assert _save(base, table["id"], "x" * 43).status_code == 403  # a wrong token
    for bad in ("é", "x" * 500):
        response = _save(base, table["id"], bad)
        assert response.status_code == 400
        assert "must be a seat token (a string)" in response.json()["error"]


def test_the_full_save_is_there_once_the_game_is_over_and_at_bot_only_tables(served):
    base, db = served
    table = _create(base, game="san-juan", players=2, seats=["human", "random"])
    _play(base, table, 2000, seed=5)
    assert _state(base, table["id"])["over"]
    save = _save(base, table["id"]).json()
    assert save["format"].startswith("rulebook-save/") and save["result"] is not None
    assert save["seed"] == _stored_seed(db, table["id"]) and save["seed"] >= 2**64
    assert len(save["choices"]) == _state(base, table["id"])["decision"]

    bots = _create(base, game="san-juan", players=2, seats=["random", "random"], speed=0)
    save = _save(base, bots["id"]).json()
    assert save["format"].startswith("rulebook-save/") and "seed" in save
    assert bots["seed"] == str(save["seed"])  # as text for a browser: exact past 2**53


def test_the_replay_of_a_live_table_is_the_public_history_replayed_by_the_server(served):
    base, _db = served
    table = _create(base, game="san-juan", players=2, seats=["human", "human"])
    played = _play(base, table, 12, seed=9)
    for message in played["spectator"]:
        step = message["decision"]
        response = httpx.post(
            f"{base}/api/replay", json={"table": table["id"], "step": step}, timeout=30
        )
        assert response.status_code == 200, response.text
        shown = response.json()
        assert shown["step"] == step and shown["options"] == [] and shown["seat"] is None
        # exactly the board every visitor was shown at that decision
        assert shown["board"] == message["board"] and shown["log"] == message["log"]
    response = httpx.post(f"{base}/api/replay", json={"table": 5, "step": 0}, timeout=30)
    assert response.status_code == 400 and "'table' must be a table id" in response.json()["error"]
    # the replay page of a table never downloads its save: it asks the server for each step
    script = TABLE_JS.read_text()
    replay_page = script[script.index("function replayPage") :]
    assert "/save" not in replay_page and "table: table" in replay_page


def test_seeds_of_peoples_tables_are_256_bits_and_a_chosen_seed_makes_a_practice_table(served):
    base, db = served
    secret = _create(base, game="puerto-rico", players=3, seats=["human", "random", "human"])
    assert secret["practice"] is False and "seed" not in secret  # not even the creator's
    assert _stored_seed(db, secret["id"]).bit_length() > 64
    seeds = {_stored_seed(db, _create(base, game="san-juan", players=2, seats=["human"] * 2)["id"])}
    seeds.add(_stored_seed(db, secret["id"]))
    assert len(seeds) == 2 and all(2**64 <= s < 2**256 for s in seeds)
    for token in (None, *_tokens(secret).values()):
        assert _state(base, secret["id"], token)["practice"] is False
    assert "Practice table" not in httpx.get(f"{base}/t/{secret['id']}").text

    practice = _create(base, game="san-juan", players=2, seats=["human", "human"], seed="7")
    assert practice["practice"] is True and practice["seed"] == "7"
    for token in (None, *_tokens(practice).values()):
        assert _state(base, practice["id"], token)["practice"] is True
        page = httpx.get(f"{base}/t/{practice['id']}", params={"token": token} if token else {})
        assert "Practice table: its creator chose the seed" in page.text

    response = httpx.post(
        f"{base}/api/tables",
        json={"game": "san-juan", "players": 2, "seats": ["human", "human"], "seed": 2**64},
        timeout=30,
    )
    assert response.status_code == 400 and "practice table" in response.json()["error"]
    bots = _create(base, game="san-juan", players=2, seats=["random"] * 2, seed=2**200, speed=0)
    assert bots["practice"] is False and bots["seed"] == str(2**200)
