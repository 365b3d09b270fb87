"""A full tie (equal total and equal tiebreak) has several winners, and `rulebook play` names
every one of them: the score table marks each, the last line says "Winners (tied): ...", the
`--json` line lists them under `winners`, a save records them and `replay` prints the same.

Against the real engine and tests/toy-ties (Even Steps: nothing breaks a tie there), with the
tied games found by playing seeds, not written down.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from interpreter.cli.main import main
from interpreter.simulate.batch import SimSpec, run_simulation

TIES = str(Path(__file__).resolve().parents[1] / "toy-ties" / "ruleset.yaml")


def _games(players: int) -> list[dict[str, Any]]:
    """Sixty seeded games of Even Steps between random bots (game i is `play --seed i`)."""
    spec = SimSpec(TIES, players, seats=("random",) * players, games=60, seed=0)
    return run_simulation(spec, jobs=1).records


def _seed_where(players: int, winners: list[int]) -> int:
    return next(r["seed"] for r in _games(players) if r["winners"] == winners)


def _play(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[str, dict[str, Any]]:
    code = main(["play", TIES, *argv, "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    return out, json.loads(out.splitlines()[-1])


def _marked(out: str) -> list[int]:
    """The seats the score table marks with '*' (the line under the table names them too)."""
    return [int(line.split()[1]) for line in out.splitlines() if line.startswith("*  ")]


def test_play_names_both_tied_winners_in_text_and_json(capsys):
    seed = _seed_where(3, [1, 2])
    out, data = _play(capsys, "-p", "3", "--seed", str(seed))
    totals = [s["total"] for s in data["scores"]]
    assert totals[1] == totals[2] > totals[0]  # a full tie: this game has no tiebreak
    assert data["winners"] == [1, 2]
    assert data["winner"] == 1  # kept: the first of the winners
    assert _marked(out) == [1, 2]
    assert out.splitlines()[-2] == "Winners (tied): seat 1 (random), seat 2 (random)"


def test_a_three_way_tie_names_every_seat(capsys):
    seed = _seed_where(3, [0, 1, 2])
    out, data = _play(capsys, "-p", "3", "--seed", str(seed))
    assert data["winners"] == [0, 1, 2] and _marked(out) == [0, 1, 2]
    assert "Winners (tied): seat 0 (random), seat 1 (random), seat 2 (random)" in out


def test_a_single_winner_reads_as_before(capsys):
    seed = next(r["seed"] for r in _games(2) if len(r["winners"]) == 1)
    out, data = _play(capsys, "-p", "2", "--seed", str(seed))
    (winner,) = data["winners"]
    assert data["winner"] == winner and _marked(out) == [winner]
    assert out.splitlines()[-2] == f"Winner: seat {winner} (random)"


def test_a_save_records_the_tied_winners_and_replay_prints_the_same(capsys, tmp_path):
    seed = _seed_where(3, [1, 2])
    save = tmp_path / "tie.json"
    played, data = _play(capsys, "-p", "3", "--seed", str(seed), "--save", str(save))
    assert json.loads(save.read_text())["result"]["winners"] == [1, 2]
    assert main(["replay", str(save), "--json"]) == 0
    replayed, _ = capsys.readouterr()
    assert replayed == played


def test_a_save_written_without_winners_still_replays(capsys, tmp_path):
    seed = _seed_where(3, [1, 2])
    save = tmp_path / "old.json"
    played, _ = _play(capsys, "-p", "3", "--seed", str(seed), "--save", str(save))
    old = json.loads(save.read_text())
    del old["result"]["winners"]  # what a save of an earlier version holds
    save.write_text(json.dumps(old))
    assert main(["replay", str(save), "--json"]) == 0
    replayed, err = capsys.readouterr()
    assert replayed == played, err


def test_a_save_whose_winners_are_not_seats_is_refused(capsys, tmp_path):
    seed = _seed_where(3, [1, 2])
    save = tmp_path / "bad.json"
    _play(capsys, "-p", "3", "--seed", str(seed), "--save", str(save))
    bad = json.loads(save.read_text())
    bad["result"]["winners"] = "1 and 2"
    save.write_text(json.dumps(bad))
    assert main(["replay", str(save)]) != 0
    _, err = capsys.readouterr()
    assert "'result.winners' must be a list of seat numbers" in err and "Traceback" not in err
