"""``simulate --rotate-seats``: every deal once per seat rotation, and each bot's win share."""

from __future__ import annotations

import csv
import json

from interpreter.cli.main import main
from interpreter.simulate.batch import SimSpec


def test_seating_rotates_the_bots_and_keeps_the_deal():
    spec = SimSpec(game="g", players=3, seats=("a", "b", "c"), seed=10, games=6, rotate=True)
    assert [spec.seating(i) for i in range(4)] == [
        (("a", "b", "c"), 10),
        (("c", "a", "b"), 10),
        (("b", "c", "a"), 10),
        (("a", "b", "c"), 11),
    ]
    plain = SimSpec(game="g", players=3, seats=("a", "b", "c"), seed=10)
    assert plain.seating(4) == (("a", "b", "c"), 14)


def test_cli_rotates_seats_and_reports_win_shares(tmp_path, capsys):
    out, table = tmp_path / "r.json", tmp_path / "r.csv"
    args = ["simulate", "san-juan", "-p", "3", "-n", "4", "-j", "1", "--seed", "5", "-q"]
    args += ["--bots", "sj-heuristic,random,random", "--rotate-seats"]
    assert main([*args, "--out", str(out), "--csv", str(table)]) == 0
    text = capsys.readouterr().out
    assert "win share by bot, seats rotated" in text
    doc = json.loads(out.read_text())
    games = doc["games"]
    assert len(games) == 12 and doc["config"]["rotate_seats"] is True
    assert [g["seats"].index("sj-heuristic") for g in games[:3]] == [0, 1, 2]
    assert {g["seed"] for g in games[:3]} == {5}
    bots = doc["summary"]["win_rate"]["bots"]
    assert bots["sj-heuristic"]["fair_share"] == round(1 / 3, 6)
    total = sum(b["share"] * (12 if n == "sj-heuristic" else 24) for n, b in bots.items())
    assert abs(total - 12) < 1e-6  # every game's win is shared out once
    low, high = bots["sj-heuristic"]["share_ci95"]
    assert low <= bots["sj-heuristic"]["share"] <= high
    rows = list(csv.DictReader(table.open()))
    assert [r["bot_1"] for r in rows[:3]] == ["random", "sj-heuristic", "random"]
    for row, game in zip(rows, games, strict=True):
        assert row["winner_bot"] == game["seats"][game["winner"]]
