"""Replays are played from kept positions: the replay page's slider, one step after another,
plays a few decisions each and costs its client nothing of its quota, so the slider goes on
at a server that allows one replay (50 steps here; 200 and more alike); a step far from every
kept position counts as a new table does, and past the quota only steps near a kept one are
answered. Both for a save file and for a table people play."""

from __future__ import annotations

import random
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from interpreter.engine.loader import load_game_and_data
from interpreter.engine.savefile import SaveGame, validate_save
from interpreter.serve.app import create_app
from interpreter.serve.quotas import Limits
from interpreter.serve.replaying import CHECKPOINT_EVERY, ReplayCache, replay_message
from interpreter.table.presenter import Presentation

with warnings.catch_warnings():  # starlette suggests httpx2; httpx is what it runs on today
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient


@pytest.fixture
def one_replay(tmp_path: Path) -> Iterator[TestClient]:
    """A server whose clients may make one table, and play one replay again, per window."""
    app = create_app(tmp_path / "tables.sqlite3", limits=Limits(tables_per_window=1))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with TestClient(app) as client:
            yield client


def _save(seed: int, decisions: int) -> dict[str, Any]:
    """The save file of a two-player game of random choices, ``decisions`` long."""
    game, _data = load_game_and_data("san-juan", 2, (), {})
    state = game.new_state(seed)
    pick = random.Random(seed)
    choices = []
    while len(choices) < decisions:
        choice = pick.choice(state.legal_options())
        state.apply(choice)
        choices.append(choice)
    save = SaveGame("san-juan", 2, [], dict(game.options), seed, ["random", "random"], choices)
    return save.to_json()


def _step(client: TestClient, step: int, **source: Any) -> Any:
    return client.post("/api/replay", json={**source, "step": step})


def test_the_slider_goes_on_at_a_server_that_allows_one_replay(one_replay):
    save = _save(1, 101)
    for step in range(100, 50, -1):  # the page opens at the end and slides back
        answer = _step(one_replay, step, save=save)
        assert answer.status_code == 200, (step, answer.text)
        assert answer.json()["step"] == step


def test_a_step_far_from_every_kept_position_counts_against_the_quota(one_replay):
    save = _save(2, 140)
    assert _step(one_replay, 100, save=save).status_code == 200  # the quota's one
    refused = _step(one_replay, 100, save=_save(3, 140))  # another save, nothing of it kept
    assert refused.status_code == 429
    assert refused.json()["error"].startswith("too many replays from this address: at most 1")
    for step in (0, 20, 90, 100):  # near a position kept (or the start)
        assert _step(one_replay, step, save=save).status_code == 200, step
    assert _step(one_replay, 139, save=save).status_code == 429  # 43 past the last kept, 96


def test_a_live_tables_replay_is_played_from_kept_positions_too(one_replay):
    made = one_replay.post("/api/tables", json={"game": "san-juan", "seats": ["human", "random"]})
    table, token = made.json()["id"], made.json()["seats"][0]["token"]
    mine = one_replay.get(f"/api/tables/{table}/state", params={"token": token}).json()
    while mine["decision"] < 40:  # the person takes its first option, the bot plays on
        move = {"token": token, "option": mine["options"][0]["id"], "decision": mine["decision"]}
        mine = one_replay.post(f"/api/tables/{table}/move", json=move).json()
    assert _step(one_replay, 39, table=table).status_code == 200  # the quota's one
    for step in range(38, 20, -1):
        assert _step(one_replay, step, table=table).status_code == 200, step
    assert _step(one_replay, 39, save=_save(4, 40)).status_code == 429


def test_a_step_from_a_kept_position_is_the_step_replayed_from_the_start():
    game, data = load_game_and_data("san-juan", 2, (), {})
    pres = Presentation.from_data(data)
    save = validate_save(_save(5, 100))
    cache = ReplayCache()
    assert cache.message("k", game, pres, save, 99)[1] == 99
    for step in (0, 31, 32, 33, 70, 96, 98):
        message, played = cache.message("k", game, pres, save, step)
        assert played <= CHECKPOINT_EVERY
        assert message == replay_message(game, pres, save, step), step
