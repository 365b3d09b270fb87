"""rulebook simulate / compare: determinism across jobs and executors, outputs, interruption."""

from __future__ import annotations

import csv
import json

import pytest

import interpreter.simulate.batch as batch
from interpreter.cli.main import main
from interpreter.simulate.batch import SimSpec, run_simulation
from interpreter.simulate.compare import compare
from interpreter.simulate.summary import result_document, summarise

PR = "puerto-rico"
SPEC = SimSpec(PR, 3, seats=("random",) * 3, games=8, seed=11)


def _summary(run):
    return json.dumps(summarise(run.records, run.spec.seats), sort_keys=True)


def test_same_seed_same_summary_with_one_or_two_jobs():
    one = run_simulation(SPEC, jobs=1)
    two = run_simulation(SPEC, jobs=2, chunk_size=3)
    assert [r["index"] for r in two.records] == list(range(8))
    assert one.records == two.records
    assert _summary(one) == _summary(two)
    other = run_simulation(SimSpec(PR, 3, seats=("random",) * 3, games=8, seed=12), jobs=1)
    assert _summary(other) != _summary(one)


def test_game_i_is_rulebook_play_with_seed_plus_i(capsys):
    run = run_simulation(SimSpec(PR, 3, seats=("random",) * 3, games=3, seed=40), jobs=1)
    command = ["play", PR, "-p", "3", "--seed", "42", "--bots", "random", "--json", "--quiet"]
    assert main(command) == 0
    played = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert [s["total"] for s in played["scores"]] == run.records[2]["totals"]
    assert played["rounds"] == run.records[2]["rounds"]


def test_interrupt_in_the_serial_loop_keeps_finished_games(monkeypatch):
    real = batch.play_game

    def play(game, seats, seed, index, **kw):
        if index == 3:
            raise KeyboardInterrupt
        return real(game, seats, seed, index, **kw)

    monkeypatch.setattr(batch, "play_game", play)
    run = run_simulation(SPEC, jobs=1)
    assert run.interrupted and [r["index"] for r in run.records] == [0, 1, 2]


def test_interrupt_in_the_pool_loop_keeps_finished_chunks():
    calls = []

    def progress(done, total):
        calls.append(done)
        raise KeyboardInterrupt

    run = run_simulation(SPEC, jobs=2, chunk_size=2, progress=progress)
    assert run.interrupted
    assert 2 <= len(run.records) < 8 and len(calls) == 1
    assert all(r["index"] in range(8) for r in run.records)
    assert sorted(r["index"] for r in run.records) == [r["index"] for r in run.records]


def test_cli_writes_partial_results_when_interrupted(tmp_path, monkeypatch, capsys):
    real = batch.play_game

    def play(game, seats, seed, index, **kw):
        if index == 2:
            raise KeyboardInterrupt
        return real(game, seats, seed, index, **kw)

    monkeypatch.setattr(batch, "play_game", play)
    out = tmp_path / "part.json"
    code = main(["simulate", PR, "-p", "3", "-n", "6", "-j", "1", "--seed", "1", "--out", str(out)])
    assert code == 130
    doc = json.loads(out.read_text())
    assert doc["run"]["interrupted"] is True and doc["run"]["finished"] == 2
    assert doc["summary"]["games"] == 2 and len(doc["games"]) == 2


def test_cli_json_csv_and_report(tmp_path, capsys):
    out, table, page = tmp_path / "r.json", tmp_path / "r.csv", tmp_path / "r.html"
    args = ["simulate", PR, "-p", "4", "-n", "6", "-j", "2", "--seed", "3"]
    args += ["--bots", "pr-heuristic,random,random,random", "--out", str(out)]
    args += ["--csv", str(table), "--report", str(page), "--quiet"]
    assert main(args) == 0
    printed = capsys.readouterr().out
    assert "seat 0 pr-heuristic" in printed and "win rate" in printed
    doc = json.loads(out.read_text())
    assert doc["format"] == "rulebook-sim/1" and doc["config"]["seed"] == 3
    s = doc["summary"]
    assert s["games"] == 6 and len(s["win_rate"]["seats"]) == 4
    assert sum(r["wins"] for r in s["win_rate"]["seats"]) == 6
    assert set(s["win_rate"]["bots"]) == {"pr-heuristic", "random"}
    assert s["win_rate"]["bots"]["random"]["n"] == 18
    lo, hi = s["win_rate"]["seats"][0]["ci95"]
    assert 0 <= lo <= s["win_rate"]["seats"][0]["rate"] <= hi <= 1
    for key in ("mean", "sd", "q25", "median", "q75"):
        assert key in s["scores"]["all"] and key in s["length"]["rounds"]
    assert s["length"]["decisions"]["mean"] > 100
    assert sum(t["count"] for t in s["triggers"].values()) == 6
    assert s["choices"]["families"]["role"]["total"] > 0
    assert any(k.startswith("role:") for k in s["choices"]["ids"])
    assert any(k.startswith("build:") for k in s["choices"]["ids"])
    rows = list(csv.DictReader(table.open()))
    assert len(rows) == 6 and rows[0]["bot_0"] == "pr-heuristic"
    assert int(rows[0]["winner"]) == doc["games"][0]["winner"]
    assert int(rows[1]["total_2"]) == doc["games"][1]["totals"][2]
    text = page.read_text()
    assert text.startswith("<!DOCTYPE html>") and text.count("<svg") >= 5


def test_cli_usage_errors(tmp_path, capsys):
    out = str(tmp_path / "x.json")
    assert main(["simulate", PR, "-p", "4", "--bots", "a,b", "--out", out]) == 2
    assert main(["simulate", PR, "-p", "4", "--bots", "randum", "--out", out]) == 1
    assert "did you mean 'random'" in capsys.readouterr().err
    assert main(["simulate", PR, "-p", "4", "--out", out, "--report", "x.pdf"]) == 2
    assert main(["simulate", PR, "-p", "9", "--out", out]) == 1
    (tmp_path / "bad.json").write_text("{}")
    assert main(["compare", str(tmp_path / "bad.json"), str(tmp_path / "bad.json")]) == 1


def _doc(seats, seed, games, overlays=()):
    spec = SimSpec(PR, 4, seats=seats, games=games, seed=seed, overlays=overlays)
    return result_document(run_simulation(spec, jobs=2))


def test_compare_flags_a_real_difference_and_not_a_null_one(tmp_path, capsys):
    base = _doc(("random",) * 4, 100, 30)
    again = _doc(("random",) * 4, 500, 30)
    strong = _doc(("pr-heuristic", "random", "random", "random"), 100, 30)
    null_rows = compare(base, again)
    assert len(null_rows) > 30
    assert not [r.metric for r in null_rows if r.significant]
    real = {r.metric: r for r in compare(base, strong)}
    assert real["win rate seat 0 (random/pr-heuristic)"].significant
    assert real["score mean seat 0"].significant
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    a.write_text(json.dumps(base))
    b.write_text(json.dumps(strong))
    assert main(["compare", str(a), str(b)]) == 0
    text = capsys.readouterr().out
    assert "* win rate seat 0" in text and "significant at 95%" in text
    assert main(["compare", str(a), str(b), "--all"]) == 0
    assert len(capsys.readouterr().out.splitlines()) > len(text.splitlines())
    assert main(["compare", str(a), str(b), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["correction"] == "benjamini-hochberg" and any(
        r["significant"] for r in data["rows"]
    )


def test_heuristic_bot_beats_random():
    spec = SimSpec(PR, 4, seats=("pr-heuristic", "random", "random", "random"), games=24, seed=7)
    s = summarise(run_simulation(spec, jobs=2).records, spec.seats)
    rate = s["win_rate"]["bots"]["pr-heuristic"]
    assert rate["rate"] > 0.6 and rate["ci95"][0] > 0.4


def test_san_juan_heuristic_bot_beats_random():
    spec = SimSpec("san-juan", 4, seats=("sj-heuristic", "random", "random", "random"), games=16)
    s = summarise(run_simulation(spec, jobs=2).records, spec.seats)
    assert s["win_rate"]["bots"]["sj-heuristic"]["ci95"][0] > 0.5


def test_bots_see_only_their_view_and_the_legal_options():
    """The game bots get a view mapping and the legal ids; a view is built only if read."""
    from interpreter.bots import make_bot
    from interpreter.engine.loader import load_game
    from interpreter.simulate.batch import LazyView

    for name, game in (("pr-heuristic", PR), ("sj-heuristic", "san-juan")):
        state = load_game(game, 3).new_state(5)
        for _ in range(60):
            legal = state.legal_options()
            view = LazyView(state, state.to_move)
            choice = make_bot(name, state.to_move, 5).choose(view, legal)
            assert choice in legal
            if len(legal) == 1:
                assert view._view is None  # nothing to decide, nothing read
            state.apply(choice)


def test_dask_local_cluster_gives_the_same_summary(tmp_path, capsys):
    from distributed import LocalCluster

    with LocalCluster(
        n_workers=1,
        threads_per_worker=1,
        processes=False,
        protocol="tcp://",
        host="127.0.0.1",
        dashboard_address=None,
    ) as cluster:
        address = cluster.scheduler_address
        assert address.startswith("tcp://127.0.0.1:")
        out = tmp_path / "dask.json"
        args = ["simulate", PR, "-p", "3", "-n", "8", "--seed", "11", "--quiet"]
        assert main([*args, "--scheduler", address, "--out", str(out)]) == 0
    doc = json.loads(out.read_text())
    assert doc["run"]["executor"].startswith("dask tcp://127.0.0.1")
    local = run_simulation(SPEC, jobs=1)
    assert json.dumps(doc["summary"], sort_keys=True) == _summary(local)
    assert doc["games"] == local.records


def test_unreachable_scheduler_is_a_clean_error():
    from interpreter.diagnostics.errors import ConfigError
    from interpreter.simulate.batch import scheduler_executor

    with pytest.raises(ConfigError, match="Dask scheduler at tcp://127.0.0.1:9"):
        scheduler_executor("tcp://127.0.0.1:9", timeout="1s")
