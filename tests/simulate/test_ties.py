"""Ties are shared: a game won jointly by k seats counts 1/k of a win to each of them (and to
the bots in those seats) in `rulebook simulate`'s win rates, its CSV and report, and in
`rulebook compare`; both say how many games tied.

Through the real CLI on tests/toy-ties (Even Steps: its seats are alike and nothing breaks a
tie, so about half of its games tie). The expected counts are worked out here from the game
records' `winners`, which the engine fills (tests/engine checks those).
"""

from __future__ import annotations

import csv
import json
from collections import Counter
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from interpreter.cli.main import main
from interpreter.simulate.stats import two_proportion_p, wilson

TIES = str(Path(__file__).resolve().parents[1] / "toy-ties" / "ruleset.yaml")
GAMES = 90


def _simulate(tmp_path: Path, capsys: Any, name: str, *extra: str) -> tuple[dict, str]:
    out = tmp_path / f"{name}.json"
    args = ["simulate", TIES, "-p", "3", "-n", str(GAMES), "-j", "1", "--quiet"]
    assert main([*args, "--out", str(out), *extra]) == 0
    printed = capsys.readouterr().out
    return json.loads(out.read_text()), printed


def _shared(records: list[dict[str, Any]], by: Any) -> Counter:
    """Each record's win, 1/k to each of its k winners, summed by ``by(record, seat)``."""
    wins: Counter = Counter()
    for r in records:
        for seat in r["winners"]:
            wins[by(r, seat)] += Fraction(1, len(r["winners"]))
    return wins


def test_seat_wins_are_shared_and_add_up_to_the_games(tmp_path, capsys):
    doc, printed = _simulate(tmp_path, capsys, "a", "--seed", "1")
    records, s = doc["games"], doc["summary"]
    tied = [r for r in records if len(r["winners"]) > 1]
    assert len(tied) > 10  # the fixture ties often, or this test checks nothing
    expected = _shared(records, lambda r, seat: seat)
    seats = s["win_rate"]["seats"]
    for row in seats:
        assert row["wins"] == pytest.approx(float(expected[row["seat"]]), abs=1e-6)
        assert row["rate"] == pytest.approx(float(expected[row["seat"]]) / GAMES, abs=1e-6)
        lo, hi = wilson(float(expected[row["seat"]]), GAMES)
        assert row["ci95"] == pytest.approx([lo, hi], abs=1e-6)
    assert sum(row["wins"] for row in seats) == pytest.approx(GAMES, abs=1e-5)
    # the lowest seat no longer takes every tie
    lowest = Counter(r["winners"][0] for r in records)
    assert seats[0]["wins"] < lowest[0]
    assert s["ties"]["count"] == len(tied)
    assert s["ties"]["rate"] == pytest.approx(len(tied) / GAMES, abs=1e-6)
    assert f"tied games: {len(tied)} of {GAMES}" in printed
    assert "ties shared" in printed


def test_bots_in_tied_seats_share_the_win_when_seats_rotate(tmp_path, capsys):
    doc, printed = _simulate(
        tmp_path, capsys, "rot", "--seed", "2", "--bots", "first,random,random", "--rotate-seats"
    )
    records, bots = doc["games"], doc["summary"]["win_rate"]["bots"]
    games = len(records)
    assert any(len(r["winners"]) > 1 and r["seats"][r["winners"][0]] == "first" for r in records)
    expected = _shared(records, lambda r, seat: r["seats"][seat])
    for name, row in bots.items():
        assert row["wins"] == pytest.approx(float(expected[name]), abs=1e-6)
        assert row["rate"] == pytest.approx(row["share"], abs=1e-6)
    assert sum(row["wins"] for row in bots.values()) == pytest.approx(games, abs=1e-5)
    seat_wins = [row["wins"] for row in doc["summary"]["win_rate"]["seats"]]
    assert sum(seat_wins) == pytest.approx(games, abs=1e-5)
    assert "tied games:" in printed


def test_csv_lists_every_winner_and_the_report_counts_ties(tmp_path, capsys):
    table, page = tmp_path / "t.csv", tmp_path / "t.html"
    doc, _ = _simulate(
        tmp_path, capsys, "c", "--seed", "1", "--csv", str(table), "--report", str(page)
    )
    rows = list(csv.DictReader(table.open()))
    for row, record in zip(rows, doc["games"], strict=True):
        assert [int(x) for x in row["winners"].split()] == record["winners"]
    ties = doc["summary"]["ties"]["count"]
    assert f"{ties} of {GAMES} games tied" in page.read_text()


def test_json_line_carries_the_ties(tmp_path, capsys):
    args = ["simulate", TIES, "-p", "3", "-n", "30", "-j", "1", "--seed", "5", "--json", "-q"]
    assert main(args) == 0
    line = json.loads(capsys.readouterr().out.splitlines()[-1])
    assert line["summary"]["ties"]["count"] > 0
    assert sum(r["wins"] for r in line["summary"]["win_rate"]["seats"]) == pytest.approx(30)


def test_compare_uses_shared_wins_and_compares_the_ties(tmp_path, capsys):
    a, _ = _simulate(tmp_path, capsys, "a", "--seed", "1")
    b, _ = _simulate(tmp_path, capsys, "b", "--seed", "1000")
    files = [str(tmp_path / "a.json"), str(tmp_path / "b.json")]
    assert main(["compare", *files, "--json"]) == 0
    rows = {r["metric"]: r for r in json.loads(capsys.readouterr().out)["rows"]}
    seat0 = rows["win rate seat 0 (random)"]
    wins_a = a["summary"]["win_rate"]["seats"][0]["wins"]
    wins_b = b["summary"]["win_rate"]["seats"][0]["wins"]
    assert seat0["a"] == pytest.approx(wins_a / GAMES) and seat0["b"] == pytest.approx(
        wins_b / GAMES
    )
    assert seat0["p"] == pytest.approx(two_proportion_p(wins_a, GAMES, wins_b, GAMES))
    ties_a, ties_b = a["summary"]["ties"]["count"], b["summary"]["ties"]["count"]
    assert rows["tied games"]["a"] == pytest.approx(ties_a / GAMES)
    assert rows["tied games"]["b"] == pytest.approx(ties_b / GAMES)
    assert main(["compare", *files]) == 0
    text = capsys.readouterr().out
    assert f"{GAMES} games ({ties_a} tied)" in text and "tied games" in text


def test_compare_shares_the_ties_of_a_result_written_before_ties_were_shared(tmp_path, capsys):
    doc, _ = _simulate(tmp_path, capsys, "new", "--seed", "1")
    old = json.loads(json.dumps(doc))
    # an earlier version's summary: no `ties`, every tie credited to its lowest seat
    del old["summary"]["ties"]
    lowest = Counter(r["winners"][0] for r in old["games"])
    for row in old["summary"]["win_rate"]["seats"]:
        row["wins"] = lowest[row["seat"]]
    (tmp_path / "old.json").write_text(json.dumps(old))
    files = [str(tmp_path / "old.json"), str(tmp_path / "new.json")]
    assert main(["compare", *files, "--json"]) == 0
    rows = {r["metric"]: r for r in json.loads(capsys.readouterr().out)["rows"]}
    assert rows["win rate seat 0 (random)"]["diff"] == pytest.approx(0.0)
    assert rows["tied games"]["diff"] == pytest.approx(0.0)


def test_wilson_and_the_proportion_test_take_a_shared_count():
    lo, hi = wilson(40.5, 100)
    below, above = wilson(40, 100), wilson(41, 100)
    assert below[0] < lo < above[0] and below[1] < hi < above[1]
    assert two_proportion_p(40.5, 100, 40.5, 100) == 1.0
    assert 0 < two_proportion_p(20.5, 100, 40.5, 100) < 0.01
