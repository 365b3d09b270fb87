"""The search bot's sampler draws only worlds the seat cannot rule out.

On the toy secret draft (tests/toy-draft) the worlds a seat cannot rule out are enumerated
exactly: every deal of the cards it has not seen and every choice of the other seat whose
replay shows this seat the very same history (views, log lines, its own choices). Every
determinisation must be one of them. On the shipped games, whose rulesets declare no memory,
every determinisation must show the seat its current view, keep every id of the game exactly
once and break none of the ruleset's invariants.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from interpreter.engine.invariant_checks import broken_names
from interpreter.engine.loader import load_game
from interpreter.infoset.worlds import determinise

DRAFT = "tests/toy-draft/ruleset.yaml"


def _hidden_of(state, other: int) -> tuple:
    """What seat `other` holds and the pool, as sets (an order nobody has seen is no fact)."""
    pl = state.p[other]
    return frozenset(pl["hand"]), frozenset(pl["kept"]), frozenset(state.g["pool"])


def _worlds(game, seed: int, history: list[str], seat: int) -> set[tuple]:
    """Every (other seat's hand, its kept gems, the pool) that a game with this seat's
    history could have now: all deals of the gems it has not seen, all orders of the other
    hand, all choices of the other seat, kept when this seat's observations match."""
    truth = game.new_state(seed, record=True)
    for option_id in history:
        truth.apply(option_id)
    target = truth.rec.steps[seat]
    start = game.new_state(seed)
    other = 1 - seat
    mine = list(start.p[seat]["hand"])
    rest = [c for c in sorted(game.rules.env.constants["gems"]) if c not in mine]
    found: set[tuple] = set()
    for left_out in rest:
        others = [c for c in rest if c != left_out]
        for order in _orders(others):
            s = game.new_state(seed)
            s.p[other]["hand"] = list(order)
            s.g["pool"] = [left_out]
            game.advance(s)  # the options of the seat to move, from the dealt hands
            s.record()
            _walk(s, history, 0, seat, target, found, other)
    return found


def _orders(items: list[str]) -> list[list[str]]:
    if len(items) <= 1:
        return [list(items)]
    return [[x, *rest] for i, x in enumerate(items) for rest in _orders(items[:i] + items[i + 1 :])]


def _walk(s, history, i, seat, target, found, other) -> None:
    steps = s.rec.steps[seat]
    if steps != target[: len(steps)]:
        return  # this seat would have seen something else: ruled out
    if i == len(history):
        found.add(_hidden_of(s, other))
        return
    if s.to_move == seat:
        s.apply(history[i])
        _walk(s, history, i + 1, seat, target, found, other)
        return
    for option_id in s.legal_options():
        branch = s.copy(recording=True)
        branch.apply(option_id)
        _walk(branch, history, i + 1, seat, target, found, other)


def _draft_contradictions(memory: bool, games: int = 12, samples: int = 12) -> tuple[int, int]:
    """(contradictions, samples drawn) over random games of the draft, at every decision,
    for both seats; `memory` False draws from the current view alone (the same
    game whose seats remember nothing), as the sampler did before seats remembered."""
    game = load_game(DRAFT, 2)
    sampled = game if memory else load_game(DRAFT, 2, ["tests/toy-draft/no-memory.yaml"])
    bad = drawn = 0
    for seed in range(games):
        rng = random.Random(seed)
        state = game.new_state(seed)
        source = sampled.new_state(seed)
        while not state.is_over:
            for seat in (0, 1):
                worlds = _worlds(game, seed, state.history, seat)
                for k in range(samples):
                    d = determinise(source, seat, random.Random(f"{seed}:{seat}:{k}"))
                    drawn += 1
                    if d.view(seat) != state.view(seat) or _hidden_of(d, 1 - seat) not in worlds:
                        bad += 1
            option_id = rng.choice(state.legal_options())
            state.apply(option_id)
            source.apply(option_id)
    return bad, drawn


def test_draft_samples_are_worlds_the_seat_cannot_rule_out():
    bad, drawn = _draft_contradictions(memory=True)
    assert drawn > 500
    assert bad == 0


def test_draft_samples_from_the_view_alone_contradict_the_history():
    # what the test above guards against: a sampler that forgets the passed gems
    bad, drawn = _draft_contradictions(memory=False, games=6, samples=8)
    assert bad > drawn // 5


def test_a_hidden_global_counter_is_redrawn():
    game = load_game(DRAFT, 2)
    kept = 0
    values = Counter()
    for seed in range(40):
        state = game.new_state(seed)
        d = determinise(state, 0, random.Random(seed))
        values[d.g["bonus"]] += 1
        kept += d.g["bonus"] == state.g["bonus"]
    # drawn from the declared range 1..3, whatever the true value
    assert set(values) == {1, 2, 3}
    assert kept < 40
    # and two games differing only in it give the same draw
    a, b = game.new_state(5), game.new_state(5)
    b.g["bonus"] = 1 + b.g["bonus"] % 3
    da = determinise(a, 1, random.Random(9))
    db = determinise(b, 1, random.Random(9))
    assert (da.g, da.p) == (db.g, db.p)


def _ids(state) -> Counter:
    rules = state.game.rules
    out: Counter = Counter()
    for name, (kind, _start) in rules.global_init.items():
        if kind == "pile":
            out.update(state.g[name])
    for pl in state.p:
        for name, (kind, _start) in rules.player_init.items():
            if kind == "pile":
                out.update(pl[name])
    return out


@pytest.mark.parametrize(
    ("name", "players", "overlays"),
    [
        ("san-juan", 3, []),
        ("san-juan", 2, ["new-buildings", "setup-variation"]),
        ("puerto-rico", 3, []),
        ("puerto-rico", 4, ["nobles", "new-buildings"]),
        (DRAFT, 2, []),
    ],
)
def test_shipped_games_samples_keep_what_the_seat_knows(name, players, overlays):
    """Every sample shows the seat its current view, keeps every id of the game exactly once,
    breaks none of the ruleset's invariants, keeps every id the seat remembers in a place it
    may be in and every remembered counter (Puerto Rico's VP chips) at its true value."""
    game = load_game(name, players, overlays)
    assert game.rules.remember  # every shipped game says what its seats remember
    bad = drawn = 0
    for seed in range(2):
        rng = random.Random(seed)
        state = game.new_state(seed)
        while not state.is_over and state.decisions < 150:
            if state.decisions % 15 == 0:
                for seat in range(players):
                    d = determinise(state, seat, random.Random(state.decisions * 7 + seat))
                    drawn += 1
                    placed = all(
                        any(x in _pile(d, place) for place in region)
                        for x, region in state.rec.memory(seat)
                    )
                    counted = all(
                        d.p[k][name] == state.p[k][name]
                        for k in range(players)
                        for name in game.rules.remember
                        if name in game.rules.hidden_player and type(state.p[k][name]) is not list
                    )
                    if (
                        d.view(seat) != state.view(seat)
                        or _ids(d) != _ids(state)
                        or broken_names(d) - broken_names(state)
                        or not placed
                        or not counted
                    ):
                        bad += 1
            state.apply(rng.choice(state.legal_options()))
    assert drawn >= 2 * players
    assert bad == 0


class _SeenGoingDown:
    """What a San Juan seat saw of hidden cards, tracked here from the true states alone (not
    by the engine's recorder): the cards it saw go from its hand or its councillor's draw, or
    from the face-up turned-up cards, onto the face-down discard pile are there until the
    discard pile is shuffled into the deck; a turned-up card it saw a seat keep is in that
    seat's hand until that hand gives up a card."""

    def __init__(self, state, seat: int) -> None:
        self.seat = seat
        self.in_discard: Counter = Counter()
        self.in_hand: list[tuple[str, int]] = []
        self._before = self._piles(state)

    @staticmethod
    def _piles(state) -> dict:
        out = {("g", n): Counter(state.g[n]) for n in ("discard", "turned-up")}
        for k, pl in enumerate(state.p):
            out[(k, "hand")] = Counter(pl["hand"])
            out[(k, "drawn")] = Counter(pl["drawn"])
        return out

    def step(self, state) -> None:
        before, after = self._before, self._piles(state)
        self._before = after
        lost = {pl: before[pl] - after[pl] for pl in before}
        got = {pl: after[pl] - before[pl] for pl in before}
        if lost[("g", "discard")]:
            self.in_discard.clear()  # shuffled into the deck: the seat loses track
        seen = lost[(self.seat, "hand")] + lost[(self.seat, "drawn")] + lost[("g", "turned-up")]
        self.in_discard += seen & got[("g", "discard")]
        self.in_hand = [(x, k) for x, k in self.in_hand if not lost[(k, "hand")]]
        for k in range(len(state.p)):
            if k != self.seat:
                self.in_hand += [(x, k) for x in (lost[("g", "turned-up")] & got[(k, "hand")])]

    def contradicted_by(self, d) -> bool:
        return bool(self.in_discard - Counter(d.g["discard"])) or any(
            x not in d.p[k]["hand"] for x, k in self.in_hand
        )


@pytest.mark.parametrize(
    ("players", "overlays"), [(3, []), (4, []), (2, ["new-buildings", "setup-variation"])]
)
def test_san_juan_samples_agree_with_what_the_seat_saw_go_face_down(players, overlays):
    game = load_game("san-juan", players, overlays)
    bad = drawn = facts = 0
    for seed in range(3):
        rng = random.Random(seed)
        state = game.new_state(seed)
        seen = [_SeenGoingDown(state, seat) for seat in range(players)]
        while not state.is_over:
            if state.decisions % 9 == 0:
                for seat in range(players):
                    d = determinise(state, seat, random.Random(state.decisions * 7 + seat))
                    drawn += 1
                    facts += seen[seat].in_discard.total() + len(seen[seat].in_hand)
                    bad += seen[seat].contradicted_by(d)
            state.apply(rng.choice(state.legal_options()))
            for s in seen:
                s.step(state)
    assert drawn > 100 and facts > 1000  # the seats did see cards go face down
    assert bad == 0


def test_san_juan_samples_without_memory_would_contradict_it():
    # what the test above guards against: the same check on samples drawn from the view alone
    game = load_game("san-juan", 3, ["tests/bots/sj-no-memory.yaml"])
    bad = drawn = 0
    rng = random.Random(0)
    state = game.new_state(0)
    seen = [_SeenGoingDown(state, seat) for seat in range(3)]
    while not state.is_over:
        if state.decisions % 9 == 0:
            for seat in range(3):
                d = determinise(state, seat, random.Random(state.decisions * 7 + seat))
                drawn += 1
                bad += seen[seat].contradicted_by(d)
        state.apply(rng.choice(state.legal_options()))
        for s in seen:
            s.step(state)
    assert bad > drawn // 4


def _pile(state, place) -> list:
    holder, name = place
    return state.g[name] if holder == "g" else state.p[holder][name]


def test_a_spectators_world_redraws_every_seats_hidden_fields():
    # seat -1 (the leak checker's spectator) owns no seat: the last seat's hand is drawn too
    game = load_game("san-juan", 3)
    state = game.new_state(4)
    kept = Counter()
    for k in range(20):
        d = determinise(state, -1, random.Random(k))
        assert d.view(-1) == state.view(-1)
        for seat in range(3):
            kept[seat] += d.p[seat]["hand"] == state.p[seat]["hand"]
    assert max(kept.values()) < 5, kept
    # a seat's own hand stays its own
    assert determinise(state, 2, random.Random(0)).p[2]["hand"] == state.p[2]["hand"]
