"""The web table names every tied winner: the result of a tied game lists them all, its score
rows mark each, and the page says "Winners (tied)". Through the real server on tests/toy-ties
(Even Steps) found through RULEBOOK_RULESETS: every seat always stepping 1 ties them all."""

from __future__ import annotations

from pathlib import Path

from tests.helpers.serve_api import new_table, play_out

HERE = Path(__file__).resolve().parents[1]
TABLE_JS = HERE.parent / "interpreter" / "serve" / "static" / "table.js"


def _step_one(options: list[str]) -> str:
    return "step:1"


def test_a_tied_table_names_every_winner(client, monkeypatch):
    monkeypatch.setenv("RULEBOOK_RULESETS", str(HERE / "toy-ties"))
    table = new_table(client, game="toy-ties", players=3, seats=["human"] * 3, seed=1)
    last = play_out(client, table, pick=_step_one)
    result = last["result"]
    assert result["winners"] == [0, 1, 2] and result["winner"] == 0
    assert [row[0] for row in result["rows"][1:]] == ["*", "*", "*"]
    replay = client.post("/api/replay", json={"table": table["id"], "step": "end"}).json()
    assert replay["result"]["winners"] == [0, 1, 2]
    script = TABLE_JS.read_text(encoding="utf-8")
    assert "Winners (tied): " in script and "res.winners" in script


def test_a_sole_winner_is_the_only_one_marked(client, monkeypatch):
    monkeypatch.setenv("RULEBOOK_RULESETS", str(HERE / "toy-ties"))
    table = new_table(client, game="toy-ties", players=2, seats=["human"] * 2, seed=1)
    # seat 0 steps 2 twice, seat 1 steps 1 twice: seat 0 alone wins
    moves = iter(["step:2", "step:1", "step:2", "step:1"])
    last = play_out(client, table, pick=lambda options: next(moves))
    assert last["result"]["winners"] == [0]
    assert [row[0] for row in last["result"]["rows"][1:]] == ["*", ""]
