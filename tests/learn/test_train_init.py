"""``rulebook train --init FILE`` continues from a model: its weights and widths are kept, the
iterations add up, the first teacher is the guided search, and a model of another composition
is refused with a clear message."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from interpreter.cli.main import main
from interpreter.diagnostics.errors import ConfigError
from interpreter.learn.model import load_model
from interpreter.learn.train import TrainConfig, train
from tests.helpers.training import spy_teachers, toy_config

TOY = str(Path(__file__).resolve().parents[1] / "toy" / "ruleset.yaml")


def _config(out: Path, **changes) -> TrainConfig:
    return toy_config(out, **{"games": 2, "seed": 5, "hidden": (16,), "epochs": 4, **changes})


def test_training_continues_from_a_model(tmp_path: Path) -> None:
    first = tmp_path / "first.npz"
    train(_config(first))
    start, _ = load_model(first)
    # --hidden is the file's: a different width asked for is not used
    report = train(_config(tmp_path / "next.npz", init=str(first), hidden=(64,)))
    assert report.iterations[0]["decisions"] > 0
    net, head = load_model(tmp_path / "next.npz")
    assert net.hidden == (16,)
    assert head["trained"]["iterations"] == 2
    assert head["trained"]["init"] == str(first)
    # the input standardisation is the file's, the weights moved on from its weights
    assert np.array_equal(net.mean, start.mean)
    assert not np.array_equal(net.params["Wp"], start.params["Wp"])


def test_the_first_teacher_is_the_guided_search(tmp_path: Path, monkeypatch) -> None:
    first = tmp_path / "first.npz"
    train(_config(first))
    seen = spy_teachers(monkeypatch)
    train(_config(tmp_path / "next.npz", init=str(first), iterations=2))
    assert seen == [
        f"search:iterations=20:model={first}",
        f"search:iterations=20:model={tmp_path / 'next.npz'}",
    ]


def test_a_model_of_another_composition_is_refused(tmp_path: Path) -> None:
    first = tmp_path / "first.npz"
    train(_config(first))
    with pytest.raises(ConfigError, match="was trained for .*2 players.*not .*3 players"):
        train(_config(tmp_path / "next.npz", init=str(first), players=3))
    assert not (tmp_path / "next.npz").exists()


def test_the_command_names_a_missing_init_file(tmp_path: Path, capsys) -> None:
    code = main(
        ["train", TOY, "--out", str(tmp_path / "m.npz"), "--init", str(tmp_path / "no.npz")]
    )
    err = capsys.readouterr().err
    assert code != 0
    assert "no.npz" in err and "does not exist" in err
    assert "Traceback" not in err
