"""``rulebook train --full-share P``: only that share of the decisions is searched in full and
recorded, the others are played by the quick search; the same seed still gives the same
model with one worker or two, and a share outside (0, 1] is refused."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from interpreter.cli.main import main
from interpreter.learn.model import load_model
from interpreter.learn.model_spaces import composition, spaces_of
from interpreter.learn.train import Teacher, TrainConfig, play_selfplay_game, train
from tests.helpers.training import toy_config

TOY = str(Path(__file__).resolve().parents[1] / "toy" / "ruleset.yaml")
TEACHER = "search:iterations=12:depth=8"


def _head() -> dict:
    spaces = spaces_of({"game": TOY, "players": 2, "overlays": [], "options": {}})
    return composition(TOY, 2, [], {}, spaces.game)


def _small(out: Path, **changes) -> TrainConfig:
    """Two small iterations of the toy game with the 12-walk teacher."""
    settings = {"iterations": 2, "search": TEACHER, "guided_search": "search:iterations=12"}
    return toy_config(out, **{**settings, "hidden": (8,), "epochs": 2, **changes})


def test_only_the_full_share_is_recorded() -> None:
    head = _head()
    full = sum(len(play_selfplay_game(head, TEACHER, seed, 0)["movers"]) for seed in range(6))
    capped = Teacher(TEACHER, 0, 0.25, f"{TEACHER}:iterations=2")
    games = [play_selfplay_game(head, capped, seed) for seed in range(6)]
    part = sum(sum(1 for t in g["targets"] if t) for g in games)
    assert 0 < part < full * 0.5  # about a quarter (the games differ a little too)
    # the quick searches' positions are kept for the value head, without a policy target
    assert sum(len(g["movers"]) for g in games) > full * 0.7
    assert all(len(g["obs"]) == len(g["targets"]) == len(g["roots"]) for g in games)
    # a share of 1 is the plain teacher: the same records
    same = Teacher(TEACHER, 0, 1.0, f"{TEACHER}:iterations=2")
    a, b = play_selfplay_game(head, TEACHER, 3, 0), play_selfplay_game(head, same, 3)
    assert a["targets"] == b["targets"] and a["movers"] == b["movers"]


def test_capped_training_is_the_same_with_one_worker_or_two(tmp_path: Path) -> None:
    def cfg(out: str, jobs: int) -> TrainConfig:
        return _small(tmp_path / out, jobs=jobs, full_share=0.5, fast_iterations=3)

    train(cfg("a.npz", 1))
    train(cfg("b.npz", 2))
    (a, head), (b, _) = load_model(tmp_path / "a.npz"), load_model(tmp_path / "b.npz")
    assert head["trained"]["full_share"] == 0.5 and head["trained"]["fast_iterations"] == 3
    for name in a.params:
        assert np.array_equal(a.params[name], b.params[name]), name


@pytest.mark.parametrize("share", ["0", "1.5", "-0.2"])
def test_a_share_outside_the_range_is_refused(tmp_path: Path, capsys, share: str) -> None:
    code = main(["train", TOY, "--out", str(tmp_path / "m.npz"), "--full-share", share])
    err = capsys.readouterr().err
    assert code != 0 and "--full-share" in err and "Traceback" not in err
    assert not (tmp_path / "m.npz").exists()


def test_a_guided_teacher_may_weigh_its_leaves(tmp_path: Path) -> None:
    cfg = _small(tmp_path / "m.npz", games=2, guided_search="search:iterations=8:value=0")
    assert len(train(cfg).iterations) == 2


@pytest.mark.parametrize(
    ("flag", "spec", "says"),
    [
        ("--guided-search", "search:iterations=8:valu=0", "bad parameter 'valu=0'"),
        ("--search", "search:iterations=8:value=0", "give model=FILE too"),
        ("--search", "search:depth=0", "depth must be >= 1"),
    ],
)
def test_a_bad_teacher_is_a_clear_error(tmp_path: Path, capsys, flag, spec, says) -> None:
    code = main(["train", TOY, "--out", str(tmp_path / "m.npz"), flag, spec])
    err = capsys.readouterr().err
    assert code != 0 and says in err, err
    assert "internal error" not in err and "Traceback" not in err
