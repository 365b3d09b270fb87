"""Issue 26 finding 6: a decision with one legal option tells no seat what a hidden hand holds.

The engine takes a decision with one legal option itself and logs it "(the only choice)";
where which options are legal depends on a field hidden from some seat (San Juan: what a seat
can build depends on its hand), taking it would tell every seat what the hand holds, by the
words and by the seat not being asked at all. Such a decision is asked like any other; a
decision that reads only what every seat sees is still taken. Format 2 saves (every forced
decision taken) are converted when read and replay to the same game. (Where what every seat
sees settles such a decision's options in a given state, it is taken:
tests/engine/test_forced_by_state.py.)
"""

from __future__ import annotations

import json
import random

import pytest

from interpreter import load_game
from interpreter.cli.main import main
from interpreter.diagnostics.errors import IllegalOptionError, RulesError
from interpreter.engine.savefile import FORMAT, FORMAT_TAKEN, SaveGame, read_save
from interpreter.model.flow import CHOOSE
from tests.engine.old_policies import taking_every_lone_decision


def decisions(game) -> dict[str, bool]:
    """Each `choose` step of a game by its label -> whether it depends on a hidden field."""
    return {
        ins[1].label: ins[1].hidden_dependent for ins in game.rules.program.code if ins[0] == CHOOSE
    }


def builder_turn(hand: list[str], game=None):
    """San Juan (3 players, seed 1): seat 1 holds `hand`; seat 0 takes the builder and passes."""
    state = (game or load_game("san-juan", 3)).new_state(1)
    state.p[1]["hand"] = list(hand)
    state.apply("role:builder")
    state.apply("pass")
    return state


def test_san_juan_decisions_that_read_a_hand_are_marked_and_the_others_not():
    marks = decisions(load_game("san-juan", 3))
    for label in ("build", "pay a card", "build over a building (crane)?", "keep a card"):
        assert marks[label] is True, label
    # roles, production and trade read only what every seat sees (a hand's size included)
    for label in (
        "choose a role",
        "produce a good",
        "sell a good",
        "pay with a good (black market)?",
    ):
        assert marks[label] is False, label


def test_a_seat_that_can_afford_nothing_is_asked_like_one_that_can():
    broke = builder_turn(["palace", "palace"])  # 6 cards to pay, 1 left: pass is all it may do
    able = builder_turn(["indigo-plant", "hero"])
    # the same timing: seat 1 is asked in both, whatever its two cards are
    assert broke.to_move == able.to_move == 1
    assert broke.legal_options() == ["pass"]
    assert able.legal_options() == ["build:indigo-plant", "pass"]
    broke.apply("pass")
    able.apply("pass")
    # the same words for every seat: a chosen pass, and what it passed (the step's label)
    assert broke.log[-1] == able.log[-1] == (broke.round, 1, "Pass (build)")
    assert not any("only choice" in text for _r, _s, text in broke.log)
    assert broke.history[-1] == "pass" and broke.to_move == able.to_move == 2


def test_the_format_2_policy_takes_it_and_says_so():
    broke = builder_turn(["palace"], taking_every_lone_decision(load_game("san-juan", 3)))
    assert broke.to_move == 2  # seat 1 was not asked: everybody learns it could build nothing
    assert (broke.round, 1, "seat 1: Pass (build) (the only choice)") in broke.log
    assert broke.history == ["role:builder", "pass"]


def test_a_copy_keeps_the_policy():
    state = load_game("san-juan", 3).new_state(1, take_forced=False)
    assert state.take_forced is False and state.copy().take_forced is False


def play_random(state, seed: int):
    rng = random.Random(seed)
    while not state.is_over:
        state.apply(rng.choice(state.legal_options()))
    return state


def test_a_format_2_save_is_converted_and_replays_to_the_same_game(tmp_path, capsys):
    game = load_game("san-juan", 2)
    seed = 3
    old = play_random(taking_every_lone_decision(load_game("san-juan", 2)).new_state(seed), seed)
    # the old policy took forced passes that this engine asks (a hand that affords nothing)
    assert any(text.endswith(": Pass (build) (the only choice)") for _r, _s, text in old.log)
    save = SaveGame(
        game="san-juan",
        players=2,
        overlays=[],
        options=dict(game.options),
        seed=seed,
        seats=["random", "random"],
        choices=list(old.history),
        result=None,
        format=FORMAT_TAKEN,
    )
    data = save.to_json()
    assert data["format"] == FORMAT_TAKEN == "rulebook-save/2"
    path = tmp_path / "old.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    loaded = read_save(path)
    assert loaded.format == FORMAT_TAKEN
    replayed = loaded.new_state(game)  # the choices converted: the passes asked now are in
    assert loaded.format == FORMAT and len(loaded.choices) > len(old.history)
    for choice in loaded.choices:
        replayed.apply(choice)
    assert replayed.is_over
    assert replayed.result().scores == old.result().scores
    assert (replayed.g, replayed.p) == (old.g, old.p)
    # under this engine's policy the old choices do not fit: the converter is what replays them
    again = game.new_state(seed)
    try:
        for choice in old.history:
            again.apply(choice)
        fits = again.is_over and again.result().scores == old.result().scores
    except (IllegalOptionError, RulesError):
        fits = False
    assert not fits
    assert main(["replay", str(path), "-q"]) == 0
    capsys.readouterr()


def test_puerto_rico_decisions_read_only_public_fields_and_are_still_taken():
    game = load_game("puerto-rico", 3)
    # VP chips are hidden, but no base game decision's options read them
    assert not any(decisions(game).values())
    state = play_random(game.new_state(5), 5)
    assert any(text.endswith("(the only choice)") for _r, _s, text in state.log)


def test_puerto_rico_black_market_reads_the_hidden_vp_chips():
    # The New Buildings' black market may pay with a VP chip: what a seat can build then
    # depends on its hidden chips, so those two decisions are asked
    marks = decisions(load_game("puerto-rico", 3, overlays=("new-buildings",)))
    assert marks["build"] is True and marks["black market: pay with"] is True
    assert marks["take a tile"] is False and marks["load goods"] is False


# A toy game: what each `choose` reads decides whether its lone option is asked.
TOY = """\
ruleset: secrets
players: {min: 2, max: 2}
state:
  global:
    deck: {pile: cards, hidden: true}
  player:
    hand: {pile: cards, hidden: true}
    coins: {counter: 0}
sets:
  cards: [low, high]
flow:
  variables: [best, flag]
  setup:
    - do: |
        push(player(0).hand, high)
        push(player(1).hand, low)
        push(deck, low)
  round:
    - each-player:
        from: 0
        steps:
          - do: best = "high" if any(c == high for c in actor.hand) else "low"
          - choose:
              who: actor
              label: by a variable the hand sets
              options:
                - id: bet
                  if: best == "high"
                - id: pass
          - do: flag = 0
          - if: CONDITION
            then:
              - do: flag = 1
          - choose:
              who: actor
              label: by a pile's size
              options:
                - id: raise
                  if: len(actor.hand) > 1 or flag == 1
                - id: pass
          - choose:
              who: actor
              label: by a shown counter
              options:
                - id: take
                  if: actor.coins < 1
                  do: actor.coins += 1
                - id: pass
  end-after-round-if: round >= 2
scoring:
  components:
    - {name: coins, value: p.coins}
"""


@pytest.mark.parametrize(
    "condition, by_size",
    [
        ("len(deck) > 5", False),  # a hidden pile's size is shown to every seat
        ("any(c == high for c in deck)", True),  # which cards it holds is not
    ],
)
def test_a_secret_is_followed_through_flow_variables_and_conditions(tmp_path, condition, by_size):
    path = tmp_path / "secrets.yaml"
    path.write_text(TOY.replace("CONDITION", condition), encoding="utf-8")
    game = load_game(str(path), 2)
    assert decisions(game) == {
        "by a variable the hand sets": True,  # `best` is set from the hand
        "by a pile's size": by_size,  # `flag` is set under the flow's `if`
        "by a shown counter": False,
    }
    state = game.new_state(1)
    # seat 0 holds the high card: it may bet; the shown counter's lone option is taken
    assert (state.to_move, state.legal_options()) == (0, ["bet", "pass"])
    state.apply("pass")
    if by_size:
        assert (state.to_move, state.legal_options()) == (0, ["pass"])
        state.apply("pass")
    assert state.legal_options() == ["take", "pass"]
    state.apply("take")
    # seat 1 holds the low card: its lone `pass` at the hand's decision is asked
    assert (state.to_move, state.legal_options()) == (1, ["pass"])
    assert not any("only choice" in text for _r, seat, text in state.log if seat == 1)
