"""``rulebook train --minutes M`` stops starting iterations that would end past the budget and
keeps the last finished one's model; Ctrl-C says which model the file holds; a model file is
never seen half-written (it is written beside and renamed over)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from interpreter.cli.main import main
from interpreter.learn import train as train_module
from interpreter.learn.model import load_model
from interpreter.learn.train import train
from tests.helpers.training import TOY, toy_config


def _small(out: Path, **changes):
    settings = {
        "search": "search:iterations=8:depth=6",
        "guided_search": "search:iterations=8",
        "hidden": (8,),
        "epochs": 2,
        "games": 2,
    }
    return toy_config(out, **{**settings, **changes})


def test_a_budget_shorter_than_an_iteration_trains_one(tmp_path: Path) -> None:
    lines: list[str] = []
    report = train(_small(tmp_path / "m.npz", iterations=5, minutes=1e-6), None, lines.append)
    assert [r["iteration"] for r in report.iterations] == [1]
    assert report.stopped == "minutes"
    assert (
        lines[-1] == "stopping after 1 iterations: the next would end past the 1e-06-minute budget"
    )
    assert load_model(tmp_path / "m.npz")[1]["trained"]["iterations"] == 1
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".part")]


def test_a_budget_that_fits_every_iteration_runs_them_all(tmp_path: Path) -> None:
    report = train(_small(tmp_path / "m.npz", iterations=2, minutes=60.0))
    assert len(report.iterations) == 2 and report.stopped == "iterations"


def test_the_command_with_a_budget_alone_and_its_report(tmp_path: Path, capsys) -> None:
    out = tmp_path / "toy.npz"
    args = ["train", TOY, "-p", "2", "--out", str(out), "--games", "2", "--hidden", "8"]
    args += ["--search", "search:iterations=8:depth=6", "--guided-search", "search:iterations=8"]
    code = main([*args, "--minutes", "0.000001", "--json"])
    captured = capsys.readouterr()
    assert code == 0
    report = json.loads(captured.out.strip().splitlines()[-1])
    assert report["stopped"] == "minutes" and len(report["iterations"]) == 1
    assert "iteration 1: 2 games" in captured.err  # no --iterations: as many as fit, no count
    for bad in ("0", "nan", "inf"):  # (nan would never end a run that has no count)
        assert main([*args, "--minutes", bad]) == 2
        assert "--minutes must be a number of minutes above 0" in capsys.readouterr().err


def test_ctrl_c_says_which_model_the_file_holds(tmp_path: Path, monkeypatch) -> None:
    real = train_module._play
    calls = []

    def interrupted_second(*args, **kwargs):
        calls.append(1)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(train_module, "_play", interrupted_second)
    lines: list[str] = []
    out = tmp_path / "m.npz"
    with pytest.raises(KeyboardInterrupt):
        train(_small(out, iterations=3), None, lines.append)
    assert lines[-1] == f"interrupted: {out} holds the model of iteration 1"
    assert load_model(out)[1]["trained"]["iterations"] == 1
    calls.clear()
    lines.clear()
    calls.append(1)  # the next call is the first iteration's, and is interrupted
    with pytest.raises(KeyboardInterrupt):
        train(_small(tmp_path / "n.npz", iterations=3), None, lines.append)
    assert lines[-1] == "interrupted during the first iteration: no model trained yet"
