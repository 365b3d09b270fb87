"""Issue 16 item 5: a decision with one legal option is taken by the engine (unless the ruleset
says ask-when-only-one), old save files still replay exactly, phase- and round-local fields
reset by themselves and leave the views, and a list of tiebreaks is applied in order."""

from __future__ import annotations

import json

import pytest

from interpreter import load_game
from interpreter.cli.main import main
from interpreter.diagnostics.errors import RulesError
from interpreter.engine.savefile import FORMAT_ASKED, read_save

# Each round: seat 0 picks a number or passes; then every seat is offered `pass` alone (and
# `take` while the pot holds coins); a phase counts its own takes in a phase-local field.
RULESET = """\
ruleset: forced
players: {{min: 2, max: 2}}
state:
  global:
    pot: {{counter: 0}}
    takes: {{counter: 0, scope: phase}}
    picked: {{bag: numbers, scope: round}}
  player:
    coins: {{counter: 0}}
sets:
  numbers: [one, two]
flow:
  {flow_ask}
  round:
    - choose:
        who: 0
        options:
          - id: "pick:{{n}}"
            for: n in numbers
            do: |
              picked[n] += 1
              pot += 1
          - id: pass
    - phase: '"grab"'
  end-after-round-if: round >= 3
phases:
  grab:
    - each-player:
        from: 0
        steps:
          - choose:
              who: actor
              {choose_ask}
              options:
                - id: take
                  if: pot > 0
                  do: |
                    pot -= 1
                    actor.coins += 1
                    takes += 1
                - id: pass
scoring:
  components:
    - {{name: coins, value: p.coins}}
  tiebreak: {tiebreak}
"""


def write(tmp_path, flow_ask="", choose_ask="", tiebreak="0"):
    path = tmp_path / "forced.yaml"
    path.write_text(
        RULESET.format(flow_ask=flow_ask, choose_ask=choose_ask, tiebreak=tiebreak),
        encoding="utf-8",
    )
    return str(path)


def play_passing(state):
    """Seat 0 always picks `pick:one` when asked, everybody else takes or passes (first)."""
    while not state.is_over:
        options = state.legal_options()
        state.apply("pick:one" if "pick:one" in options else options[0])
    return state


def test_a_lone_option_is_taken_by_the_engine_and_logged(tmp_path):
    game = load_game(write(tmp_path), 2)
    state = play_passing(game.new_state(1))
    # per round: seat 0 picks (asked), seat 0 may take or pass (asked), seat 1's pass is forced
    assert state.decisions == 6
    assert state.history == ["pick:one", "take"] * 3
    assert [text for _r, seat, text in state.log if seat == 1] == [
        "seat 1: Pass (the only choice)"
    ] * 3


@pytest.mark.parametrize(
    "flow_ask, choose_ask",
    [("ask-when-only-one: true", ""), ("", "ask-when-only-one: true")],
)
def test_ask_when_only_one_asks_in_the_flow_or_per_choose(tmp_path, flow_ask, choose_ask):
    game = load_game(write(tmp_path, flow_ask, choose_ask), 2)
    state = play_passing(game.new_state(1))
    assert state.decisions == 9
    assert state.history == ["pick:one", "take", "pass"] * 3
    assert not any("only choice" in text for _r, _s, text in state.log)


def test_a_choose_may_opt_back_in_when_the_flow_asks(tmp_path):
    path = write(tmp_path, "ask-when-only-one: true", "ask-when-only-one: false")
    state = play_passing(load_game(path, 2).new_state(1))
    assert state.decisions == 6


def test_take_forced_false_asks_every_decision_as_before(tmp_path):
    game = load_game(write(tmp_path), 2)
    state = play_passing(game.new_state(1, take_forced=False))
    assert state.decisions == 9
    assert state.copy().take_forced is False


def test_a_format_1_save_is_converted_and_replays_to_the_same_result(tmp_path, capsys):
    path = write(tmp_path)
    game = load_game(path, 2)
    old = play_passing(game.new_state(1, take_forced=False))
    save = tmp_path / "old.json"
    save.write_text(
        json.dumps(
            {
                "format": FORMAT_ASKED,
                "game": path,
                "players": 2,
                "overlays": [],
                "options": {},
                "seed": 1,
                "seats": ["first", "first"],
                "choices": old.history,
                "result": {
                    "scores": old.result().scores,
                    "winner": old.result().winner,
                    "rounds": old.result().rounds,
                    "decisions": old.result().decisions,
                    "trigger": old.result().trigger,
                },
            }
        ),
        encoding="utf-8",
    )
    assert read_save(save).format == FORMAT_ASKED
    assert main(["replay", str(save), "--quiet", "--json"]) == 0
    replayed = json.loads(capsys.readouterr().out.splitlines()[-1])
    # its 9 choices converted: the forced ones are taken by the engine, not counted
    assert replayed["decisions"] < old.result().decisions == 9
    assert replayed["scores"] == json.loads(json.dumps(old.result().scores))
    # a game played now is saved as format 4: its choices are its decisions, no forced one
    # (this toy game hides nothing, so none of its forced decisions is asked)
    again = tmp_path / "new.json"
    assert main(["play", path, "-p", "2", "--seed", "1", "--save", str(again), "-q"]) == 0
    capsys.readouterr()
    saved = json.loads(again.read_text(encoding="utf-8"))
    assert saved["format"] == "rulebook-save/4"
    assert len(saved["choices"]) == saved["result"]["decisions"] < 9
    assert main(["replay", str(again), "-q"]) == 0


def test_local_fields_reset_by_themselves_and_leave_the_views(tmp_path):
    game = load_game(write(tmp_path), 2)
    state = game.new_state(1, take_forced=False)  # so that seat 1 stops inside the phase
    state.apply("pick:one")
    assert state.g["picked"] == {"one": 1, "two": 0}
    state.apply("take")  # inside the phase: counted, and shown
    assert state.g["takes"] == 1 and "takes" in state.view(1)["global"]
    state.apply("pass")
    # the phase has ended and round 2 started: both are back at their start, the phase's
    # field is out of the view, the round's is in it
    assert state.round == 2 and state.g["takes"] == 0
    assert state.g["picked"] == {"one": 0, "two": 0}
    view = state.view(0)["global"]
    assert "takes" not in view and "picked" in view
    play_passing(state)
    assert "picked" not in state.view(0)["global"]


def test_a_pile_cannot_be_local(tmp_path):
    path = tmp_path / "forced.yaml"
    path.write_text(
        open(write(tmp_path), encoding="utf-8")
        .read()
        .replace("picked: {bag: numbers, scope: round}", "picked: {pile: numbers, scope: round}"),
        encoding="utf-8",
    )
    with pytest.raises(RulesError) as caught:
        load_game(str(path), 2)
    assert "scope" in str(caught.value)


def test_the_second_tiebreak_decides_between_seats_the_first_left_tied(tmp_path):
    # both seats end with 0 coins when seat 0 passes and nobody takes; the second tiebreak
    # (the seat number) then favours seat 1, the first alone leaves both winners
    tied = load_game(write(tmp_path, tiebreak="p.coins"), 2).new_state(1)
    while not tied.is_over:
        tied.apply("pass")
    assert tied.result().winners == [0, 1] and tied.result().scores[0]["tiebreak"] == 0
    broken = load_game(write(tmp_path, tiebreak="[p.coins, p.seat]"), 2).new_state(1)
    while not broken.is_over:
        broken.apply("pass")
    assert broken.result().winners == [1]
    assert [s["tiebreak"] for s in broken.result().scores] == [[0, 0], [0, 1]]


def test_a_rule_failing_in_an_option_the_engine_takes_names_that_option(tmp_path):
    # `pass` is seat 1's only option when the pot is empty; its effect divides by zero: the
    # E001 must name the option the engine took for seat 1, not seat 0's decision before it
    path = write(tmp_path)
    text = open(path, encoding="utf-8").read()
    text = text.replace(
        "                - id: pass\nscoring:",
        '                - id: pass\n                  do: "actor.coins = 1 // pot"\nscoring:',
    )
    open(path, "w", encoding="utf-8").write(text)
    state = load_game(path, 2).new_state(1)
    with pytest.raises(RulesError) as caught:
        state.apply("pass")  # seat 0 passes: the pot stays empty, both then have `pass` alone
    message = str(caught.value)
    assert "division by zero" in message
    assert "taking seat 0's only option 'pass'" in message
    assert "(seat 0 to move, option 'pass')" not in message
