"""``rulebook train --gate G`` keeps the best model, not the last: each fitted model plays a
seat-rotated match against the one in the output file and replaces it only if it wins its even
share; the kept model teaches the next iteration; the last fitted one is written beside it."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

import interpreter.learn.gate as gate_module
import interpreter.learn.train as train_module
from interpreter.cli.main import main
from interpreter.learn.gate import GateResult, candidate_path, gate_match
from interpreter.learn.model import load_model
from interpreter.learn.train import TrainConfig, train
from tests.helpers.training import TOY, spy_teachers, toy_config


def _config(out: Path, **changes) -> TrainConfig:
    return toy_config(out, **{"games": 2, "seed": 5, "hidden": (16,), "epochs": 4, **changes})


def _same_weights(a: Path | str, b: Path | str) -> bool:
    na, _ = load_model(a)
    nb, _ = load_model(b)
    return all(np.array_equal(na.params[k], nb.params[k]) for k in na.params)


def _verdicts(monkeypatch, shares: list[float]) -> list[tuple[str, str]]:
    """Make the gating matches end with ``shares`` in turn; the (candidate, kept) files each
    match was asked to play."""
    asked: list[tuple[str, str]] = []

    def match(pool, game, players, overlays, options, candidate, kept, games, seed):
        asked.append((candidate, kept))
        return GateResult(games=games, share=shares[len(asked) - 1], even=1.0 / players)

    monkeypatch.setattr(train_module, "gate_match", match)
    return asked


def _first_model(tmp_path: Path) -> tuple[Path, Path]:
    """A model trained for one iteration (the --init of the tests) and the output to write."""
    first = tmp_path / "first.npz"
    train(_config(first))
    return first, tmp_path / "next.npz"


def test_a_model_that_loses_its_match_does_not_replace_the_kept_one(
    tmp_path: Path, monkeypatch
) -> None:
    first, out = _first_model(tmp_path)
    asked = _verdicts(monkeypatch, [0.25, 0.5])
    teachers = spy_teachers(monkeypatch)
    report = train(_config(out, init=str(first), iterations=2, gate=6))
    candidate = candidate_path(str(out))
    assert asked == [(candidate, str(out))] * 2
    # the first fitted model lost (0.25 < 1/2): the output held the --init model's weights,
    # and that model taught the second iteration; the second won its even share: kept
    assert [row["kept"] for row in report.iterations] == [False, True]
    assert [row["gate_share"] for row in report.iterations] == [0.25, 0.5]
    assert report.kept == 2
    assert teachers == [f"search:iterations=20:model={first}", f"search:iterations=20:model={out}"]
    assert _same_weights(out, candidate)
    assert not _same_weights(out, first)
    _, head = load_model(out)
    assert head["trained"]["iterations"] == 3
    assert head["trained"]["gate"] == 6


def test_when_every_match_is_lost_the_output_still_holds_the_init_model(
    tmp_path: Path, monkeypatch
) -> None:
    first, out = _first_model(tmp_path)
    _verdicts(monkeypatch, [0.0, 0.1])
    lines: list[str] = []
    report = train(_config(out, init=str(first), iterations=2, gate=4), progress=lines.append)
    assert report.kept == 0
    assert _same_weights(out, first)
    # the network went on learning all the same: the candidate is the last fitted model
    assert not _same_weights(candidate_path(str(out)), first)
    gate_lines = [line for line in lines if line.startswith("gate:")]
    assert len(gate_lines) == 2
    assert "won 0.100 of 4 games" in gate_lines[1] and "not kept" in gate_lines[1]
    assert f"{out} holds the --init model" in gate_lines[1]


def test_a_fresh_model_is_kept_without_a_match_then_gated(tmp_path: Path) -> None:
    """The real match: the toy game's games are played (rounded up to whole rotations)."""
    out = tmp_path / "m.npz"
    report = train(_config(out, iterations=2, gate=3))
    first, second = report.iterations
    assert first["kept"] and "gate_games" not in first
    assert second["gate_games"] == 4  # 3 rounded up to two rotations of 2 seats
    assert 0.0 <= second["gate_share"] <= 1.0
    assert second["kept"] == (second["gate_share"] >= 0.5)
    assert report.kept == (2 if second["kept"] else 1)
    assert _same_weights(out, candidate_path(str(out))) == second["kept"]


def test_the_match_counts_the_candidates_seat_after_each_rotation(monkeypatch) -> None:
    # game i seats the candidate at i % players; a shared win counts its share
    winners = {0: [0], 1: [0], 2: [2], 3: [1, 0], 4: [1], 5: [2]}
    seen: dict[str, object] = {}

    def chunk(spec, indexes):
        seen["seats"] = spec.seats
        return [{"index": i, "winners": winners[i]} for i in indexes]

    monkeypatch.setattr(gate_module, "run_chunk", chunk)
    result = gate_match(None, TOY, 3, (), (), "new.npz", "old.npz", 5, 9)
    assert seen["seats"] == ("learned:new.npz", "learned:old.npz", "learned:old.npz")
    # candidate seats 0,1,2,0,1,2: won games 0, 2, 4 and 5 and half of game 3
    assert result.games == 6
    assert result.share == 4.5 / 6
    assert result.kept and result.even == 1 / 3


def test_the_candidate_file_sits_beside_the_output() -> None:
    assert candidate_path("models/pr.npz") == "models/pr.candidate.npz"
    assert candidate_path("bot") == "bot.candidate.npz"


def test_the_command_takes_a_gate(tmp_path: Path, capsys) -> None:
    out = tmp_path / "m.npz"
    args = ["train", TOY, "--out", str(out), "--iterations", "2", "--games", "2"]
    code = main([*args, "--hidden", "8", "--epochs", "2", "--gate", "2", "--json"])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    assert "gate: the new model won" in captured.err
    last = json.loads(captured.out.strip().splitlines()[-1])
    assert last["kept"] in (1, 2)  # the iteration the output holds
    assert last["iterations"][1]["kept"] == (last["kept"] == 2)
    assert out.exists() and Path(candidate_path(str(out))).exists()
    code = main([*args, "--gate", "0"])
    assert code != 0
    assert "--gate" in capsys.readouterr().err
