"""A scenario's set-up that leaves a declared invariant broken (coins handed out that the
ruleset does not say come from the treasury) is rigged: that invariant is not checked for the
rest of the scenario, and the steps say so with the set-up's line and the invariant's. The
same in a game whose first decisions come before the first round (a draft in the set-up,
round 0): there too the set-up is named, not a failure one step later at the ruleset's line."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# Each seat picks a number before the first round; then each earns a coin from the treasury.
DRAFT_FIRST = """\
ruleset: draft-first
title: A pick before the first round
players: {min: 2, max: 2}
tables:
  coin-stock: 10
state:
  global:
    treasury: {counter: 10}
  player:
    coins: {counter: 0}
    picked: {counter: 0}
flow:
  setup:
    - each-player:
        as: picker
        steps:
          - choose:
              who: picker
              label: pick a number
              options:
                - id: "pick:{n}"
                  for: n in range(1, 3)
                  do: picker.picked = n
  round:
    - each-player:
        as: earner
        steps:
          - choose:
              who: earner
              label: earn
              options:
                - id: earn
                  do: |
                    earner.coins += 1
                    treasury -= 1
  end-after-round-if: round >= 2
invariants:
  coins: treasury + sum(player(i).coins for i in seats) == coin-stock
scoring:
  components:
    - {name: coins, value: p.coins}
"""

SCENARIO = """\
game: ruleset.yaml
players: 2
forced: ask
scenarios:
  - name: a seat starts rich
    setup:
      seat 0: {coins: 5}
    steps:
      - seat 0: pick:1
      - seat 1: pick:2
      - seat 0: earn
    expect:
      - player(0).coins == %d
"""


def _test(folder: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "interpreter.cli.main", "test", str(folder / "s.yaml")],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=dict(os.environ),
        timeout=300,
    )


def test_a_set_up_made_before_the_first_round_rigs_the_invariant_it_breaks(tmp_path: Path):
    (tmp_path / "ruleset.yaml").write_text(DRAFT_FIRST, encoding="utf-8")
    (tmp_path / "s.yaml").write_text(SCENARIO % 6, encoding="utf-8")
    run = _test(tmp_path)
    assert run.returncode == 0, run.stdout
    assert "E002" not in run.stdout


def test_the_steps_name_the_invariant_a_set_up_leaves_broken(tmp_path: Path):
    (tmp_path / "ruleset.yaml").write_text(DRAFT_FIRST, encoding="utf-8")
    (tmp_path / "s.yaml").write_text(SCENARIO % 7, encoding="utf-8")
    run = _test(tmp_path)
    assert run.returncode == 1, run.stdout
    assert "expected player(0).coins == 7" in run.stdout
    assert (
        f"~ set-up (line 7) leaves invariant 'coins' ({tmp_path / 'ruleset.yaml'}:38:10) "
        "broken: not checked in this scenario"
    ) in run.stdout
