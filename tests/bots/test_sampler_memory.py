"""Sampled worlds agree with what the seat saw and remembers, in every shipped game and in the
compositions the tests play.

A world drawn for a seat (``determinise``) *contradicts* the seat when

* its view differs from the seat's view of the true state, or the game's ids are not all
  there exactly once;
* an id sits where the seat's own observations rule it out: this file follows, from the true
  states alone (not through the engine's recorder), what docs/bots.md says a seat remembers:
  an id it saw leave a pile named in ``remember:`` for a place it cannot see is in that place
  until the place loses an id, and a hidden place whose size it is shown, once it saw it
  empty, holds only ids it saw go in from those piles until anything else goes in;
* it breaks what the recorder says the seat knows (``rec.memory``: each remembered id in one
  of its places; ``rec.known``: each place holding only ids it was recorded able to hold).

And the record itself must be true: the true state is always a world the seat cannot rule out,
so a record the true state breaks is a contradiction of what the seat saw, whatever the
sampler draws.

(A hidden counter or bag of another seat is a guess, not a memory: docs/bots.md says where that
falls back; tests/bots/test_sampler_consistency.py checks the shipped games' invariants.)
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from interpreter.engine.loader import load_game
from interpreter.infoset.worlds import determinise

RING = "tests/toy-ring-draft/ruleset.yaml"
DRAFT = "tests/toy-draft/ruleset.yaml"
TOY = "tests/toy/ruleset.yaml"
CANAL = "examples/games/canal-town/ruleset.yaml"
SEALED = "examples/games/canal-town/sealed-stores.yaml"


def _pile(state, place) -> list:
    holder, name = place
    return state.g[name] if holder == "g" else state.p[holder][name]


def _places(state) -> list[tuple]:
    rules = state.game.rules
    out = [("g", n) for n, (kind, _start) in rules.global_init.items() if kind == "pile"]
    for seat in range(len(state.p)):
        out += [(seat, n) for n, (kind, _start) in rules.player_init.items() if kind == "pile"]
    return out


def _unseen(state, seat: int) -> set[tuple]:
    rules = state.game.rules
    return {
        pl
        for pl in _places(state)
        if (pl[0] == "g" and pl[1] in rules.hidden_global)
        or (pl[0] != "g" and pl[0] != seat and pl[1] in rules.hidden_player)
    }


def _ids(state) -> Counter:
    out: Counter = Counter()
    for pl in _places(state):
        out.update(_pile(state, pl))
    return out


class _Seen:
    """What one seat saw of ids going out of its sight, followed from the true states."""

    def __init__(self, state, seat: int) -> None:
        rules = state.game.rules
        self.seat = seat
        self.unseen = _unseen(state, seat)
        self.remembered = {pl for pl in _places(state) if pl[1] in rules.remember}
        # hidden places whose size the seat is shown
        self.sized = {pl for pl in self.unseen if pl[1] not in rules.hidden_all}
        # (place, id) -> copies of the id the seat saw go into that hidden place
        self.went_in: Counter = Counter()
        # sized hidden place -> the ids it can hold, while the seat knows (else absent)
        self.only: dict[tuple, Counter] = {
            pl: Counter() for pl in self.sized if not _pile(state, pl)
        }

    def step(self, before: dict[tuple, Counter], after: dict[tuple, Counter]) -> None:
        lost = {pl: before[pl] - after[pl] for pl in before}
        got = {pl: after[pl] - before[pl] for pl in before}
        for pl in self.unseen:
            if lost[pl]:
                for key in [k for k in self.went_in if k[0] == pl]:
                    del self.went_in[key]
        # ids the seat saw leave its remembered piles, handed out to the hidden places they
        # reached (in one order, as the moves of a card game are made in the open)
        watched: Counter = Counter()
        for pl in self.remembered - self.unseen:
            watched += lost[pl]
        for pl in set(got) - self.unseen:
            watched -= got[pl]  # seen again (or another copy of it: the seat cannot tell)
        for pl in sorted(self.unseen, key=repr):
            came = got[pl]
            if not came:
                continue
            seen_in = came & watched
            watched -= seen_in
            for x, n in seen_in.items():
                self.went_in[pl, x] += n
            if pl in self.only:
                if came - seen_in:
                    del self.only[pl]  # something came in the seat did not see
                else:
                    self.only[pl] += seen_in
        for pl in self.sized:
            if not after[pl]:
                self.only[pl] = Counter()  # shown empty

    def broken_by(self, world) -> list[str]:
        out = []
        for (pl, x), n in self.went_in.items():
            if _pile(world, pl).count(x) < n:
                out.append(f"seat {self.seat} saw {x} go into {pl}, the world lacks it")
        for pl, can in self.only.items():
            if Counter(_pile(world, pl)) - can:
                out.append(f"{pl} holds {_pile(world, pl)}, the seat saw only {dict(can)} go in")
        return out


def _fits(memos, world) -> bool:
    """Whether every remembered id has a copy of its own in one of its places (a matching of
    the memos of each id to the copies there)."""
    by_id: dict = {}
    for x, region in memos:
        by_id.setdefault(x, []).append(sorted(region, key=repr))
    for x, regions in by_id.items():
        copies = [
            [(pl, c) for pl in region for c in range(_pile(world, pl).count(x))]
            for region in regions
        ]
        owner: dict = {}
        if not all(_match(i, copies, owner, set()) for i in range(len(copies))):
            return False
    return True


def _match(i: int, copies: list[list[tuple]], owner: dict, tried: set) -> bool:
    """Kuhn's augmenting path: give memo `i` a copy, moving other memos along if need be."""
    for copy in copies[i]:
        if copy in tried:
            continue
        tried.add(copy)
        if copy not in owner or _match(owner[copy], copies, owner, tried):
            owner[copy] = i
            return True
    return False


def _record_broken_by(rec, seat: int, world) -> list[str]:
    """What the recorder says `seat` knows that `world` breaks."""
    out = []
    for pl, can in rec.known(seat).items():
        if can is not None and Counter(_pile(world, pl)) - can:
            out.append(f"{pl} holds {_pile(world, pl)}, recorded able to hold only {dict(can)}")
    if not _fits(rec.memory(seat), world):
        out.append(f"remembered ids not where remembered: {rec.memory(seat)}")
    return out


def _contradictions(game, seed: int, seats, sample_every: int, samples: int, limit: int):
    """Play one random game; at every decision check, for each seat, the record against the
    true state, and at every `sample_every`-th decision draw `samples` worlds for each seat
    and check them. Returns (record contradictions, contradicting worlds, worlds drawn,
    facts followed), with the first few reasons."""
    state = game.new_state(seed)
    rec = state.remembered()
    seen = [_Seen(state, seat) for seat in seats]
    rng = random.Random(seed)
    wrong_record = bad = drawn = facts = 0
    reasons: list[str] = []
    places = _places(state)
    before = {pl: Counter(_pile(state, pl)) for pl in places}
    while not state.is_over and state.decisions < limit:
        for s in seen:
            facts += s.went_in.total() + sum(can.total() + 1 for can in s.only.values())
            why = _record_broken_by(rec, s.seat, state) if rec is not None else []
            why += s.broken_by(state)  # the follower is true of the true game
            if why:
                wrong_record += 1
                reasons += [f"record, decision {state.decisions}: {w}" for w in why]
            if state.decisions % sample_every:
                continue
            for k in range(samples):
                world = determinise(state, s.seat, random.Random(f"{seed}:{s.seat}:{k}"))
                drawn += 1
                why = s.broken_by(world)
                if rec is not None:
                    why += _record_broken_by(rec, s.seat, world)
                if world.view(s.seat) != state.view(s.seat):
                    why.append("the view differs")
                if _ids(world) != _ids(state):
                    why.append("ids lost or doubled")
                if why:
                    bad += 1
                    reasons += [f"world, decision {state.decisions}: {w}" for w in why]
        state.apply(rng.choice(state.legal_options()))
        after = {pl: Counter(_pile(state, pl)) for pl in places}
        for s in seen:
            s.step(before, after)
        before = after
    return wrong_record, bad, drawn, facts, reasons[:5]


def test_a_card_discarded_from_what_a_seat_kept_may_be_any_card_it_has_not_seen():
    # Ring Draft at 4 seats: seat 0 discards one of its kept cards face down onto the discard
    # pile, which was empty. It sees the card go but does not remember `kept`: the pile may
    # hold any card it has not seen, not nothing at all.
    game = load_game(RING, 4)
    state = game.new_state(3)
    rec = state.remembered()
    while not state.legal_options()[0].startswith("discard:"):
        state.apply(state.legal_options()[0])
    assert state.to_move == 0 and rec.known(0)[("g", "discard")] == Counter()
    state.apply(state.legal_options()[0])
    assert len(state.g["discard"]) == 1
    assert rec.known(0)[("g", "discard")] is None
    world = determinise(state, 0, random.Random(0))
    assert _record_broken_by(rec, 0, world) == [] == _record_broken_by(rec, 0, state)


def test_ring_draft_worlds_at_four_seats_agree_with_memory():
    game = load_game(RING, 4)
    totals = Counter()
    reasons: list[str] = []
    for seed in range(12):
        wrong, bad, drawn, facts, why = _contradictions(game, seed, range(4), 1, 4, 1000)
        totals.update(wrong=wrong, bad=bad, drawn=drawn, facts=facts)
        reasons += why
    assert totals["drawn"] > 1000 and totals["facts"] > 1000  # the seats did pass cards on
    assert (totals["wrong"], totals["bad"]) == (0, 0), reasons[:5]


# Every shipped game with its expansions alone and together, at its fewest and most seats, and
# the toy games the tests play (Canal Town, shipped as an example, with its hidden-wares rule).
COMPOSITIONS = [
    *(("puerto-rico", n, ov) for n in (2, 5) for ov in ([], ["new-buildings"], ["nobles"])),
    ("puerto-rico", 2, ["nobles", "new-buildings"]),
    ("puerto-rico", 5, ["nobles", "new-buildings"]),
    *(("san-juan", n, ov) for n in (2, 4) for ov in ([], ["setup-variation"], ["new-buildings"])),
    ("san-juan", 2, ["new-buildings", "setup-variation"]),
    ("san-juan", 4, ["new-buildings", "setup-variation"]),
    (TOY, 2, []),
    (TOY, 4, []),
    (DRAFT, 2, []),
    (RING, 2, []),
    (RING, 4, []),
    (CANAL, 2, []),
    (CANAL, 4, [SEALED]),
]


@pytest.mark.parametrize(("name", "players", "overlays"), COMPOSITIONS)
def test_worlds_agree_with_memory_in_every_composition(name, players, overlays):
    """One random game per composition: the record checked against the true state at every
    decision for every seat, a world drawn for every seat at every 10th decision (the draft
    toys, short, at every decision)."""
    game = load_game(name, players, overlays)
    every = 1 if name in (DRAFT, RING) else 10
    wrong, bad, drawn, _facts, reasons = _contradictions(game, 1, range(players), every, 1, 2000)
    assert drawn >= 2 * players
    assert (wrong, bad) == (0, 0), reasons


def _steps(game, seeds):
    """Every step of random games: (state after it, piles before, piles after, the record)."""
    for seed in seeds:
        state = game.new_state(seed)
        rec = state.remembered()
        rng = random.Random(seed)
        places = _places(state)
        before = {pl: Counter(_pile(state, pl)) for pl in places}
        while not state.is_over:
            memories = [list(rec.memory(seat)) for seat in range(len(state.p))]
            state.apply(rng.choice(state.legal_options()))
            after = {pl: Counter(_pile(state, pl)) for pl in places}
            yield state, before, after, rec, memories
            before = after


def test_a_copy_seen_again_is_not_followed_to_another_copy_moved_unseen():
    # San Juan has several copies of a card. A seat keeps a card of its councillor's draw
    # (`drawn`, remembered) into its hand while, in the same step, another seat draws a copy
    # of that card face down: the seat must not "remember" the other seat's copy, which it
    # never saw.
    game = load_game("san-juan", 4)
    found = 0
    for state, before, after, rec, memories in _steps(game, range(2)):
        lost = {pl: before[pl] - after[pl] for pl in before}
        got = {pl: after[pl] - before[pl] for pl in before}
        for seat in range(4):
            unseen = _unseen(state, seat)
            mine = sum(
                (lost[pl] for pl in before if pl not in unseen and pl[1] in game.rules.remember),
                Counter(),
            )
            back = sum((got[pl] for pl in before if pl not in unseen), Counter())
            moved_unseen = sum((lost[pl] for pl in unseen), Counter())
            for x in mine:
                dests = [pl for pl in unseen if got[pl][x]]
                if mine[x] == 1 and back[x] and moved_unseen[x] and dests:
                    found += 1
                    # no more memories of x than before (one already held may change places:
                    # a discard pile shuffled into the deck in the same step)
                    now = [m for m in rec.memory(seat) if m[0] == x]
                    held = [m for m in memories[seat] if m[0] == x]
                    assert len(now) <= len(held), (seat, x, dests, held, now)
    assert found  # the games had such a step


SHOW_AND_DISCARD = """
ruleset: show-and-discard
players: {min: 2, max: 2}
sets:
  cards: [a, b, c, d, e, f]
state:
  global:
    deck: {pile: cards, hidden: true}
    discard: {pile: cards, hidden: true}
    shown: {value: none}
  player:
    hand: {pile: cards, hidden: true}
  remember: [hand]
flow:
  setup:
    - do: |
        for c in [a, b, c]:
          push(player(0).hand, c)
        for c in [d, e]:
          push(player(1).hand, c)
        push(deck, f)
  round:
    - choose:
        who: 0
        label: give a card
        options:
          - id: "give:{c}"
            for: c in player(0).hand
            do: |
              remove(player(0).hand, c)
              push(player(1).hand, c)
    - choose:
        who: 1
        label: show one card, discard another face down
        options:
          - id: "show:{c}:{d}"
            for: [c in player(1).hand, d in player(1).hand]
            if: c != d
            log: "seat 1 shows {c} and discards a card"
            do: |
              remove(player(1).hand, c)
              shown = c
              remove(player(1).hand, d)
              push(discard, d)
  end-after-round-if: true
scoring:
  components:
    - name: cards
      value: len(p.hand)
"""


def test_a_remembered_card_that_leaves_the_piles_is_forgotten(tmp_path):
    # seat 0 gives `a` to seat 1, which shows it (into a value: no pile the recorder follows)
    # and discards another card face down in the same step: seat 0 may not go on remembering
    # `a` in seat 1's hand or on the discard pile, where it is not
    path = tmp_path / "ruleset.yaml"
    path.write_text(SHOW_AND_DISCARD)
    state = load_game(str(path), 2).new_state(0)
    rec = state.remembered()
    state.apply("give:a")
    assert rec.memory(0) == [("a", frozenset({(1, "hand")}))]
    state.apply("show:a:d")
    assert state.g["shown"] == "a" and state.g["discard"] == ["d"]
    assert rec.memory(0) == []
    assert _record_broken_by(rec, 0, state) == []
