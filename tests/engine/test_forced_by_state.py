"""Issue 48 item 7: ask only what can differ, state by state.

A decision whose options may depend on a hidden field is asked even with one legal option, so
that no seat learns the secret from its being taken (tests/engine/test_forced_hidden.py). That
mark is a step's, found at load; in a given state what every seat sees may settle the options
all the same: a San Juan seat with no card in hand (every seat sees the hand's size) can only
pass; a Puerto Rico seat with no black market pays with no hidden VP chip. So can a San Juan
seat with one card and no discount, whichever card it is (every card is tried in its place).
There the engine takes
the one option (infoset/forced.py), and goes on asking wherever the others cannot know.
Saves of format 3, made when every such decision was asked, are converted when read and
replay to the same game.
"""

from __future__ import annotations

import json
import random

import pytest

from interpreter import load_game
from interpreter.cli.main import main
from interpreter.engine.savefile import FORMAT, FORMAT_BY_STEP, SaveGame, read_save
from interpreter.infoset import forced
from tests.engine.old_policies import asking_hidden_lone_decisions


def san_juan_builder(hand: list[str], by_step: bool = False):
    """San Juan (3 players, seed 1): seat 1 holds `hand`; seat 0 takes the builder and passes
    (`by_step`: each decision that may depend on a hidden field asked, as in format 3)."""
    game = load_game("san-juan", 3)
    state = (asking_hidden_lone_decisions(game) if by_step else game).new_state(1)
    state.p[1]["hand"] = list(hand)
    state.apply("role:builder")
    state.apply("pass")
    return state


def test_a_san_juan_seat_with_no_card_is_not_asked_to_pass():
    state = san_juan_builder([])
    # every seat sees that seat 1's hand is empty: its lone pass is taken, seat 2 is next
    assert state.to_move == 2
    assert state.log[-1] == (state.round, 1, "seat 1: Pass (build) (the only choice)")
    assert state.history == ["role:builder", "pass"]
    # as every such decision was asked before (a format 3 save's games)
    by_step = san_juan_builder([], by_step=True)
    assert (by_step.to_move, by_step.legal_options()) == (1, ["pass"])


@pytest.mark.parametrize("hand", [["palace", "palace"], ["palace", "palace", "palace"]])
def test_a_san_juan_seat_holding_cards_it_cannot_build_is_still_asked(hand):
    # the others see two cards (or three), not which: an indigo plant and one card to pay
    # would build; a pass taken at once would tell them there is none
    state = san_juan_builder(hand)
    assert (state.to_move, state.legal_options()) == (1, ["pass"])
    assert not any("only choice" in text for _r, _s, text in state.log)


@pytest.mark.parametrize("card", ["palace", "indigo-plant"])
def test_a_san_juan_seat_with_one_card_and_no_discount_is_not_asked_to_pass(card):
    # whichever card it is, nothing costs nothing to a seat that is not the builder: every
    # seat can work out the pass from the hand's size alone
    state = san_juan_builder([card])
    assert state.to_move == 2
    assert state.log[-1] == (state.round, 1, "seat 1: Pass (build) (the only choice)")
    # the builder (its privilege takes 1 off the indigo plant) is asked with one card
    builder = load_game("san-juan", 3).new_state(1)
    builder.p[0]["hand"] = ["palace"]
    builder.apply("role:builder")
    assert (builder.to_move, builder.legal_options()) == (0, ["pass"])


def puerto_rico_builder(by_step: bool = False):
    """Puerto Rico with The New Buildings (3 players, fixed selection, seed 1): seat 1 has no
    doubloon and no black market; seat 0 takes the builder and passes."""
    game = load_game(
        "puerto-rico", 3, overlays=("new-buildings",), options={"building-selection": "all-new"}
    )
    state = (asking_hidden_lone_decisions(game) if by_step else game).new_state(1)
    state.p[1]["doubloons"] = 0
    state.apply("role:builder")
    state.apply("pass")
    return state


def test_a_puerto_rico_seat_without_a_black_market_is_not_asked_to_pass():
    state = puerto_rico_builder()
    assert state.to_move == 2 and "pass" in state.legal_options()
    assert state.log[-1] == (state.round, 1, "seat 1: Pass (build) (the only choice)")
    by_step = puerto_rico_builder(by_step=True)
    assert (by_step.to_move, by_step.legal_options()) == (1, ["pass"])


# A toy game: each seat may spend a hidden chip; `remember:` says whether every seat sees the
# chips change (and so knows them), as Puerto Rico says of its VP chips.
CHIPS = """\
ruleset: chips
players: {min: 2, max: 2}
state:
  player:
    chips: {counter: 0, hidden: true}
    spent: {counter: 0}
REMEMBER
flow:
  round:
    - each-player:
        steps:
          - choose:
              who: actor
              label: spend a chip
              options:
                - id: spend
                  if: actor.chips > 0
                  do: |
                    actor.chips -= 1
                    actor.spent += 1
                - id: pass
  end-after-round-if: round >= 1
scoring:
  components:
    - {name: spent, value: p.spent}
"""


@pytest.mark.parametrize("remembered", [False, True])
def test_a_hidden_counter_decides_unless_every_seat_sees_it_change(tmp_path, remembered):
    path = tmp_path / "chips.yaml"
    remember = "  remember: [chips]" if remembered else ""
    path.write_text(CHIPS.replace("REMEMBER", remember), encoding="utf-8")
    state = load_game(str(path), 2).new_state(1)
    if remembered:  # every seat knows seat 0 has no chip: its lone pass is taken
        assert state.is_over
        assert (1, 0, "seat 0: Pass (spend a chip) (the only choice)") in state.log
    else:  # the others cannot know: seat 0 is asked
        assert (state.to_move, state.legal_options()) == (0, ["pass"])


def test_the_public_copy_keeps_only_what_every_seat_sees():
    state = load_game("san-juan", 3).new_state(1)
    state.p[2]["hand"] = []
    public = forced.public_state(state)
    assert len(public.p[0]["hand"]) == len(state.p[0]["hand"]) > 0  # its size is shown
    with pytest.raises(forced.UnseenRead):
        list(public.p[0]["hand"])  # which cards is not
    with pytest.raises(forced.UnseenRead):
        _ = "palace" in public.g["deck"]
    with pytest.raises(forced.UnseenRead):
        public.rng.random()  # nor what the generator gives next
    assert public.p[2]["hand"] == []  # an empty hand is empty in every world
    assert public.p[0]["city"] == state.p[0]["city"]  # what is shown is as it is
    # a copy: the true state keeps its hand, its log and its generator
    assert type(state.p[0]["hand"]) is list and state.p[0]["hand"]
    assert state.log and public.log is None
    state.rng.random()


def play_random(state, seed: int):
    rng = random.Random(seed)
    while not state.is_over:
        state.apply(rng.choice(state.legal_options()))
    return state


def _format_3_save(seed: int, choices: list[str]) -> SaveGame:
    return SaveGame(
        game="san-juan",
        players=2,
        overlays=[],
        options={},
        seed=seed,
        seats=["random", "random"],
        choices=choices,
        result=None,
        format=FORMAT_BY_STEP,
    )


def test_a_format_3_save_is_converted_and_replays_to_the_same_game(tmp_path, capsys):
    game = load_game("san-juan", 2)
    seed = 2  # a game where what every seat saw settled some of the passes format 3 asked
    old = play_random(asking_hidden_lone_decisions(load_game("san-juan", 2)).new_state(seed), seed)
    data = _format_3_save(seed, list(old.history)).to_json()
    assert data["format"] == FORMAT_BY_STEP == "rulebook-save/3"
    path = tmp_path / "old.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    loaded = read_save(path)
    assert loaded.format == FORMAT_BY_STEP
    replayed = loaded.new_state(game)
    assert loaded.format == FORMAT and len(loaded.choices) < len(old.history)
    for choice in loaded.choices:
        replayed.apply(choice)
    assert replayed.is_over and (replayed.g, replayed.p) == (old.g, old.p)
    assert replayed.result().scores == old.result().scores
    assert main(["replay", str(path), "-q"]) == 0
    capsys.readouterr()


def test_a_game_resumed_from_a_format_3_save_is_saved_as_format_4(tmp_path, capsys):
    seed = 2
    old = play_random(asking_hidden_lone_decisions(load_game("san-juan", 2)).new_state(seed), seed)
    path, again = tmp_path / "old.json", tmp_path / "new.json"
    data = _format_3_save(seed, list(old.history[:120])).to_json()
    path.write_text(json.dumps(data), encoding="utf-8")
    assert main(["play", "--resume", str(path), "--save", str(again), "-q"]) == 0
    saved = json.loads(again.read_text(encoding="utf-8"))
    assert saved["format"] == FORMAT
    assert main(["replay", str(again), "-q"]) == 0
    capsys.readouterr()


def test_a_game_played_now_is_saved_as_format_4_and_replays(tmp_path, capsys):
    path = tmp_path / "game.json"
    args = ["play", "san-juan", "-p", "2", "--seed", "3", "--save", str(path), "-q"]
    assert main(args) == 0
    saved = json.loads(path.read_text(encoding="utf-8"))
    assert saved["format"] == FORMAT == "rulebook-save/4"
    assert len(saved["choices"]) == saved["result"]["decisions"]
    assert main(["replay", str(path), "-q", "--json"]) == 0
    replayed = json.loads(capsys.readouterr().out.splitlines()[-1])
    assert replayed["scores"] == saved["result"]["scores"]


def _hidden_as_declared(rules, name, value, owner):
    """What the public copy holds for hidden field `name` (of seat `owner`, None: a global
    one) whose true value is `value`, by the module's rule, field by field: a pile whose size
    is shown by its size (an empty one kept); a seat's value every seat sees change as it is;
    anything else unseen."""
    if type(value) is list and name not in rules.hidden_all:
        return value if not value else ("pile", len(value), (owner, name))
    if type(value) is not list and owner is not None and name in rules.remember:
        return value
    return "unseen"


def _as_compared(value):
    if isinstance(value, forced._UnseenPile):
        return ("pile", len(value), value.where)
    if isinstance(value, forced._StandIn):
        return "unseen"
    return value


@pytest.mark.parametrize(
    ("game", "players", "overlays"),
    [("san-juan", 3, []), ("puerto-rico", 4, []), ("examples/games/canal-town", 3, [])],
)
def test_the_public_copy_hides_each_field_as_its_declaration_says(game, players, overlays):
    """The public copy replaces each hidden field as the field-by-field rule says, in states
    along a random game (the copy works the rule out once per ruleset, by groups of fields)."""
    loaded = load_game(game, players, overlays)
    rules = loaded.rules
    state = loaded.new_state(4)
    rng = random.Random(4)
    for _ in range(12):
        for _ in range(15):
            if state.is_over:
                return
            state.apply(rng.choice(state.legal_options()))
        public = forced.public_state(state)
        for name, value in state.g.items():
            wanted = value
            if name in rules.hidden_global:
                wanted = _hidden_as_declared(rules, name, value, None)
            assert _as_compared(public.g[name]) == wanted, name
        for seat, (mine, shown) in enumerate(zip(state.p, public.p, strict=True)):
            assert shown.keys() == mine.keys()
            for name, value in mine.items():
                wanted = value
                if name in rules.hidden_player:
                    wanted = _hidden_as_declared(rules, name, value, seat)
                assert _as_compared(shown[name]) == wanted, (seat, name)
