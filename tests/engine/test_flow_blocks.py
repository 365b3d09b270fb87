"""engine/blocks.py: the flow's straight runs written as one function each. A side of a branch
that runs straight out of the function (effects, then a decision or a phase entered or left)
is written under its `if`, and the function goes on with the other side; the game plays
exactly as the flow says either way."""

from __future__ import annotations

import pytest

from interpreter import load_game
from interpreter.engine import blocks
from interpreter.model.flow import CHOOSE, JUMP_IF_NOT

RULESET = """\
ruleset: branches
players: {min: 2, max: 2}
state:
  global:
    n: {counter: 0}
    called: {counter: 0}
    late: {counter: 0}
    asked: {counter: 0}
    skipped: {counter: 0}
flow:
  round:
    - if: n % 2 == 0
      then:
        - do: called += 1
        - phase: '"bonus"'
    - if: n % 3 == 0
      then:
        - do: asked += 1
        - choose:
            who: 0
            options:
              - id: one
                do: n += 1
              - id: two
                do: n += 2
      else:
        - do: skipped += 1
        - do: n += 1
  end-after-round-if: round >= 8
phases:
  bonus:
    - if: called > 2
      then:
        - do: late += 1
    - do: n += 0
scoring:
  components:
    - {name: n, value: n}
  tiebreak: 0
"""


def play(tmp_path, choices):
    path = tmp_path / "branches.yaml"
    path.write_text(RULESET, encoding="utf-8")
    game = load_game(str(path), 2)
    state = game.new_state(1)
    picks = iter(choices)
    while not state.is_over:
        state.apply(next(picks))
    return game, state


def expected(choices):
    """The same rounds, counted by hand from the ruleset above."""
    n = called = late = asked = skipped = 0
    picks = iter(choices)
    for _round in range(8):
        if n % 2 == 0:
            called += 1
            if called > 2:
                late += 1
        if n % 3 == 0:
            asked += 1
            n += 1 if next(picks) == "one" else 2
        else:
            skipped += 1
            n += 1
    return {"n": n, "called": called, "late": late, "asked": asked, "skipped": skipped}


@pytest.mark.parametrize("straight_max", [blocks._STRAIGHT_MAX, -1])
def test_branches_play_as_the_flow_says_with_or_without_sides_written_inline(
    tmp_path, monkeypatch, straight_max
):
    monkeypatch.setattr(blocks, "_STRAIGHT_MAX", straight_max)
    choices = ["two", "one", "two", "two", "one", "one", "two", "one"]
    _game, state = play(tmp_path, choices)
    want = expected(choices)
    assert {k: state.g[k] for k in want} == want
    assert state.history == choices[: want["asked"]]


def test_a_side_running_straight_into_a_decision_costs_no_second_function(tmp_path):
    game, state = play(tmp_path, ["two"] * 8)
    program = game.rules.program
    code = program.code
    # the `if` whose then-side ends in a decision: the function that reaches it goes on past
    # that side, so the position after it needs no function of its own
    branch = next(
        pc for pc, ins in enumerate(code) if ins[0] == JUMP_IF_NOT and code[pc + 2][0] == CHOOSE
    )
    after = code[branch][2]
    assert after not in program.blocks
