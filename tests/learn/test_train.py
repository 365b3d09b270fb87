"""``rulebook train`` end to end on the toy ruleset: one small iteration fits its own targets
better, the same seed gives the same model (with one worker or two), and the command line
writes a model that ``--bots learned:FILE`` then plays."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from interpreter.cli.main import main
from interpreter.learn.model import load_model
from interpreter.learn.train import TrainConfig, train
from tests.helpers.training import toy_config

TOY = str(Path(__file__).resolve().parents[1] / "toy" / "ruleset.yaml")


def _config(out: Path, jobs: int = 1, seed: int = 3) -> TrainConfig:
    return toy_config(out, jobs=jobs, seed=seed)


def test_one_iteration_fits_its_targets_and_is_deterministic(tmp_path: Path) -> None:
    report = train(_config(tmp_path / "a.npz"))
    row = report.iterations[0]
    assert row["decisions"] > 0
    assert row["loss_after"] < row["loss_before"]
    train(_config(tmp_path / "b.npz", jobs=2))
    a, head_a = load_model(tmp_path / "a.npz")
    b, head_b = load_model(tmp_path / "b.npz")
    assert head_a == head_b
    for name in a.params:
        assert np.array_equal(a.params[name], b.params[name]), name
    c, _ = load_model(train(_config(tmp_path / "c.npz", seed=4)).out)
    assert not np.array_equal(a.params["Wp"], c.params["Wp"])


def test_a_second_iteration_uses_the_model_inside_search(tmp_path: Path) -> None:
    cfg = _config(tmp_path / "m.npz")
    cfg.iterations = 2
    report = train(cfg)
    assert [r["iteration"] for r in report.iterations] == [1, 2]
    assert load_model(cfg.out)[1]["trained"]["iterations"] == 2


def test_the_command_trains_and_simulate_plays_the_model(tmp_path: Path, capsys) -> None:
    out = tmp_path / "toy.npz"
    code = main(
        [
            "train",
            TOY,
            "-p",
            "2",
            "--out",
            str(out),
            "--iterations",
            "1",
            "--games",
            "2",
            "--search",
            "search:iterations=10:depth=8",
            "--hidden",
            "16",
            "--seed",
            "1",
            "--json",
        ]
    )
    captured = capsys.readouterr()
    assert code == 0
    assert "iteration 1/1" in captured.err
    report = json.loads(captured.out.strip().splitlines()[-1])
    assert report["out"] == str(out) and report["iterations"][0]["games"] == 2
    code = main(
        [
            "simulate",
            TOY,
            "-p",
            "2",
            "--games",
            "4",
            "-j",
            "1",
            "--json",
            "--bots",
            f"learned:{out},random",
        ]
    )
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])["summary"]
    assert code == 0 and summary["games"] == 4


def test_bad_search_spec_and_missing_folder_are_clear_errors(tmp_path: Path, capsys) -> None:
    code = main(["train", TOY, "-p", "2", "--out", str(tmp_path / "m.npz"), "--search", "random"])
    assert code == 1 and "must be a search bot spec" in capsys.readouterr().err
    code = main(["train", TOY, "-p", "2", "--out", str(tmp_path / "no" / "m.npz")])
    assert code == 1 and "does not exist" in capsys.readouterr().err
