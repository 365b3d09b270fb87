"""What a seat knows: `state.information_state(seat)` is its whole history (perfect recall), and
a ruleset's `state: remember:` says what it remembers when ids leave its sight."""

from __future__ import annotations

import random

import pytest

from interpreter.diagnostics.errors import RulesError
from interpreter.engine.loader import load_game

DRAFT = "tests/toy-draft/ruleset.yaml"


def _dealt(hand0: list[str], hand1: list[str], pool: list[str], record: bool = True):
    """A draft game at its first decision with these hands (the setup's deal replaced)."""
    game = load_game(DRAFT, 2)
    s = game.new_state(0, record=False)
    s.p[0]["hand"], s.p[1]["hand"], s.g["pool"] = list(hand0), list(hand1), list(pool)
    game.advance(s)  # the options of the seat to move, from the new hands
    if record:
        s.record()
    return s


def _play(s, choices: list[str]):
    """Apply `choices` in order; a decision with one option takes it (asked or not)."""
    for option_id in choices:
        while len(s.legal_options()) == 1 and option_id not in s.legal_options():
            s.apply(s.legal_options()[0])
        s.apply(option_id)
    while not s.is_over and len(s.legal_options()) == 1:
        s.apply(s.legal_options()[0])
    return s


def test_recording_is_asked_for_and_search_copies_drop_it():
    sj = load_game("san-juan", 3)
    assert sj.new_state(1).rec is None  # nothing is recorded unless asked for
    assert sj.new_state(1, record=True).rec.observations
    draft = load_game(DRAFT, 2).new_state(1, record=True)
    assert draft.copy().rec is None
    going_on = draft.copy(recording=True)
    going_on.apply(going_on.legal_options()[0])
    assert len(going_on.information_state(0)) == len(draft.information_state(0)) + 1


def test_memory_is_worked_out_by_replay_when_first_asked_for_and_kept():
    game = load_game("san-juan", 3)
    rng = random.Random(5)
    plain, recorded = game.new_state(7), game.new_state(7, record=True)
    for step in range(160):
        option_id = rng.choice(plain.legal_options())
        plain.apply(option_id)
        recorded.apply(option_id)
        if step == 90:
            rec = plain.remembered()  # made by replay, then kept and recording
            assert rec is not None and plain.rec is rec and not rec.observations
    assert any(recorded.rec.memory(seat) for seat in range(3))  # the seats remember cards
    for seat in range(3):
        assert plain.rec.memory(seat) == recorded.rec.memory(seat)
        assert plain.rec.known(seat) == recorded.rec.known(seat)
    # a game whose ruleset declares no memory has none to make
    bare = load_game(DRAFT, 2, ["tests/toy-draft/no-memory.yaml"]).new_state(1)
    assert bare.remembered() is None and bare.rec is None
    # a state edited by hand (the replay does not reproduce it) remembers from then on
    edited = game.new_state(7)
    edited.p[0]["hand"].reverse()
    edited.g["deck"].reverse()
    assert edited.remembered() is not None
    assert all(edited.rec.memory(seat) == [] for seat in range(3))


def test_a_state_that_does_not_record_replays_its_history():
    game = load_game("san-juan", 2)
    rng = random.Random(3)
    plain, recorded = game.new_state(4), game.new_state(4, record=True)
    for _ in range(40):
        option_id = rng.choice(plain.legal_options())
        plain.apply(option_id)
        recorded.apply(option_id)
    for seat in (0, 1):
        assert plain.information_state(seat) == recorded.information_state(seat)


def test_another_seats_secret_choice_never_enters_the_history():
    game = load_game(DRAFT, 2)
    for seed in range(20):
        rng = random.Random(seed)
        s = game.new_state(seed)
        while not s.is_over:
            s.apply(rng.choice(s.legal_options()))
        for seat in (0, 1):
            history = s.information_state(seat)
            theirs = [step for step in history if step["mover"] not in (None, seat)]
            mine = [step for step in history if step["mover"] == seat]
            assert theirs and all(step["chose"] is None for step in theirs)
            assert mine and all(step["chose"].startswith("keep:") for step in mine)
            text = repr(history)
            other_kept = s.p[1 - seat]["kept"]
            assert not any(f"keep:{gem}" in text for gem in other_kept if gem not in _mine(s, seat))


def _mine(s, seat: int) -> set[str]:
    """Gems this seat chose itself (its own option ids are in its history)."""
    return {step["chose"][5:] for step in s.information_state(seat) if step["chose"]}


def test_histories_a_seat_cannot_tell_apart_are_one_information_state():
    # seat 1 keeps coral first; in the twin, coral is the gem left out and seat 1 held and
    # kept garnet instead: seat 0 sees the same views and log lines at every step
    a = _play(
        _dealt(["amber", "beryl", "delft"], ["coral", "ebony", "flint"], ["garnet"]),
        ["keep:amber", "keep:coral", "keep:ebony", "keep:beryl"],
    )
    b = _play(
        _dealt(["amber", "beryl", "delft"], ["garnet", "ebony", "flint"], ["coral"]),
        ["keep:amber", "keep:garnet", "keep:ebony", "keep:beryl"],
    )
    assert a.g["pool"] != b.g["pool"]
    assert a.information_state(0) == b.information_state(0)
    assert a.information_state(1) != b.information_state(1)  # seat 1 saw its own hand


def test_one_view_reached_by_two_histories_gives_two_information_states():
    # seat 0 ends with the same gems and the same view both times, but was passed flint in
    # one game and garnet in the other: it knows which
    a = _play(
        _dealt(["amber", "beryl", "coral"], ["delft", "ebony", "flint"], ["garnet"]),
        ["keep:amber", "keep:delft", "keep:ebony", "keep:beryl"],
    )
    b = _play(
        _dealt(["amber", "beryl", "coral"], ["delft", "ebony", "garnet"], ["flint"]),
        ["keep:amber", "keep:delft", "keep:ebony", "keep:beryl"],
    )
    assert a.is_over and b.is_over
    assert a.view(0) == b.view(0)
    assert a.information_state(0) != b.information_state(0)


def test_the_draft_remembers_the_passed_gems():
    s = _play(
        _dealt(["amber", "beryl", "coral"], ["delft", "ebony", "flint"], ["garnet"]),
        ["keep:amber", "keep:delft"],
    )
    # after the pass: seat 0 knows beryl and coral are in seat 1's hand
    assert sorted(x for x, _ in s.rec.memory(0)) == ["beryl", "coral"]
    assert all(region == frozenset({(1, "hand")}) for _, region in s.rec.memory(0))
    assert s.rec.known(0)[(1, "hand")] == {"beryl": 1, "coral": 1}
    # seat 1 keeps coral, unseen, and passes beryl back: seat 0 sees beryl again, and knows
    # coral is in seat 1's hand or among its kept gems, and flint (passed now) in its hand
    s.apply("keep:ebony")
    s.apply("keep:coral")
    assert s.p[0]["hand"] == ["beryl"]
    regions = dict(s.rec.memory(0))
    assert regions == {
        "coral": frozenset({(1, "hand"), (1, "kept")}),
        "flint": frozenset({(1, "hand")}),
    }
    assert s.rec.known(0)[(1, "hand")] == {"flint": 1}


def test_san_juan_hand_order_is_no_history():
    # the other seats' hands in another order: seat 0 cannot tell, its history is the same
    game = load_game("san-juan", 3)
    a = game.new_state(6, record=True)
    b = game.new_state(6, record=False)
    for seat in (1, 2):
        b.p[seat]["hand"].reverse()
    b.record()
    rng = random.Random(6)
    for _ in range(60):
        option_id = rng.choice(a.legal_options())
        if option_id not in b.legal_options():
            break
        a.apply(option_id)
        b.apply(option_id)
    assert a.decisions > 10
    assert a.information_state(0) == b.information_state(0)


def test_san_juan_public_choices_are_history():
    game = load_game("san-juan", 3)
    s = game.new_state(2, record=True)
    first, second = s.legal_options()[:2]
    a, b = s.copy(recording=True), s.copy(recording=True)
    a.apply(first)
    b.apply(second)
    for seat in range(3):
        assert a.information_state(seat) != b.information_state(seat)
        assert a.information_state(seat)[:-1] == b.information_state(seat)[:-1]


@pytest.mark.parametrize(
    ("remember", "message"),
    [
        ("[hands]", "unknown field 'hands'"),
        # a global counter: every seat sees it, or (hidden) none does; nothing to remember
        ("[bonus]", "'bonus' is a counter, neither a pile nor a hidden player field"),
    ],
)
def test_remember_names_a_declared_pile_or_hidden_player_field(tmp_path, remember, message):
    text = open(DRAFT, encoding="utf-8").read().replace("remember: [hand]", f"remember: {remember}")
    path = tmp_path / "ruleset.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(RulesError) as err:
        load_game(str(path), 2)
    shown = str(err.value)
    line = text.splitlines().index(f"  remember: {remember}") + 1
    assert message in shown and f"ruleset.yaml:{line}:" in shown and "R001" in shown
    if remember == "[hands]":
        assert "did you mean 'hand'" in shown
