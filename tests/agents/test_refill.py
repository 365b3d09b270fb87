"""The encoder's in-place refills (agents/refill.py): a changed bag or list of flat pieces is
moved by its changed entries and its copy changed in place. At every step of random games of
several compositions, every seat's vector equals the features of its whole view, the refills
were taken, and a refill that forgets one entry is caught (so the comparison can fail)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from interpreter.agents import (
    refill as refill_module,
    walk as walk_module,
)
from interpreter.agents.owners import Owners
from interpreter.agents.spaces import spaces_for

COMPOSITIONS = [
    ("puerto-rico", 4, ()),
    ("puerto-rico", 3, ("nobles", "new-buildings")),
    ("san-juan", 3, ()),
    ("san-juan", 4, ("new-buildings",)),
]


def _counted(enc, counts: dict[str, int]) -> None:
    """Count each refill the encoder takes that succeeds (the fast path, not the walk)."""

    def wrap(fn):
        def counted(*args):
            done = fn(*args)
            counts[fn.__name__] = counts.get(fn.__name__, 0) + bool(done)
            return done

        return counted

    for snap in [enc.g_snap, *enc.p_snap]:
        snap.kind_of = {name: wrap(fn) for name, fn in snap.kind_of.items()}
        snap.kinds = [snap.kind_of.get(name) for name in snap.keys]


def _play(
    game: str,
    players: int,
    overlays: tuple[str, ...],
    seed: int,
    enc=None,
    check=True,
    journal=False,
):
    """A random game encoded at every step for the seat to move (every seat every 4th step),
    each vector checked against the whole view's; returns the encoder and the steps. Without
    ``journal`` the state keeps none (dsl/emit/journal.py): every field is compared, and a changed
    one refilled, each step."""
    spaces = spaces_for(game, players, overlays, ())
    obs = spaces.observations
    enc = enc or obs.encoder(spaces.game)
    s = spaces.game.new_state(seed)
    if not journal:
        s.tj = None
    rng = random.Random(seed)
    steps = 0
    while not s.is_over and steps < 400:
        seats = range(players) if steps % 4 == 0 else [s.to_move]
        for seat in seats:
            got = enc.encode(s, seat)
            if check:
                np.testing.assert_array_equal(got, obs.encode(s.view(seat)))
        s.apply(rng.choice(s.legal_options()))
        steps += 1
    return enc, steps


@pytest.mark.parametrize(("game", "players", "overlays"), COMPOSITIONS)
def test_refilled_in_place_equals_the_whole_view(game, players, overlays):
    spaces = spaces_for(game, players, overlays, ())
    enc = spaces.observations.encoder(spaces.game)
    counts: dict[str, int] = {}
    enc.encode(spaces.game.new_state(1), 0)  # binds the snapshots' fields
    _counted(enc, counts)
    _play(game, players, overlays, seed=11, enc=enc)
    assert counts.get("refill_bag", 0) + counts.get("refill_area", 0) > 20, counts


class _Following(Owners):
    """The encoder's map (owners.py), counting the notes it applied by a record as it read
    them (``move_entry``, ``shift_pile``: neither returned as an entry nor left to a walk of
    their field), by field name and key (a pile's by the way the id moved: -1, 1, 0)."""

    def __init__(self, rules, taken: dict) -> None:
        super().__init__(rules)
        self.taken = taken

    def fields(self, notes, gone=frozenset()):
        where = [(self.of.get(id(box)), key) for box, key in notes if type(box) is not int]
        got = super().fields(notes, gone)
        if got is not None:
            walked, entries = got
            left = {(id(e[3]), e[4] if type(e[4]) is not tuple else e[4][0]) for e in entries}
            for at, key in where:
                if at is None or key is None or at[:2] in walked:
                    continue
                way = key[0] if type(key) is tuple else key
                if (id(at[3]), way) not in left:
                    counted = (at[1], way)
                    self.taken[counted] = self.taken.get(counted, 0) + 1
        return got


@pytest.mark.parametrize(("game", "players", "overlays"), COMPOSITIONS)
def test_entries_a_journal_names_brought_in_place_equal_the_whole_view(game, players, overlays):
    """A journal build's state: a piece's field or a bag's count it notes is moved on its own
    (Encoder._entry the first time, then by the box's record as the notes are read:
    owners.move_entry), and every vector still equals its whole view's."""
    spaces = spaces_for(game, players, overlays, ())
    enc = spaces.observations.encoder(spaces.game)
    first = {"first": 0}
    by_record: dict = {}
    entry = enc._entry

    def counted(*args):
        done = entry(*args)
        first["first"] += done
        return done

    enc._entry = counted
    enc.noted = _Following(spaces.game.rules, by_record)
    _play(game, players, overlays, seed=11, enc=enc, journal=True)
    entries = sum(n for (_name, way), n in by_record.items() if way not in (-1, 0, 1))
    assert first["first"] > 20 and entries > 20, (first, by_record)


@pytest.mark.parametrize(("game", "players", "overlays"), COMPOSITIONS[2:])
def test_ids_a_journal_notes_drawn_pushed_or_removed_are_followed_one_by_one(
    game, players, overlays
):
    """A journal build's state: an id drawn from a pile, pushed onto one or removed from one
    (a San Juan card: the deck, the hands, the discard pile, hidden from some seats) moves the
    pile's copy and features by that one id (Encoder._pile the first time, then the pile's
    record: owners.shift_pile), and every vector still equals its whole view's."""
    spaces = spaces_for(game, players, overlays, ())
    enc = spaces.observations.encoder(spaces.game)
    taken: dict = {}
    enc.noted = _Following(spaces.game.rules, taken)
    _play(game, players, overlays, seed=11, enc=enc, journal=True)
    for followed in [("deck", -1), ("hand", 1), ("hand", 0), ("discard", 1)]:
        assert taken.get(followed, 0) > 5, taken


def test_a_pile_followed_without_its_features_is_caught(monkeypatch):
    """The comparison with the whole view can fail: a follower that moves the copy but not
    the vector is caught."""
    spaces = spaces_for("san-juan", 3, (), ())
    enc = spaces.observations.encoder(spaces.game)

    def stale(s, j, name, box, key, gone):
        snap = enc.g_snap if j < 0 else enc.p_snap[j]
        i = snap.at.get(name)
        if i is None or type(snap.vals[i]) is not list or type(key[1]) is not str:
            return False
        snap.vals[i][:] = box  # the copy follows, the features do not
        return True

    enc._pile = stale
    with pytest.raises(AssertionError):
        _play("san-juan", 3, (), seed=11, enc=enc, journal=True)


def test_a_refill_that_forgets_an_entry_is_caught(monkeypatch):
    def forgetful(node, was, new, vec, vec2):
        """Moves the copy but not the vector: the features go stale."""
        if type(new) is not dict or len(was) != len(new):
            return False
        if was.keys() != new.keys():
            return False
        was.update(new)
        return True

    monkeypatch.setattr(refill_module, "refill_bag", forgetful)
    spaces = spaces_for("puerto-rico", 4, (), ())
    enc = spaces.observations.encoder(spaces.game)  # its bags refilled by the forgetful one
    assert forgetful in enc.g_snap.kind_of.values()
    with pytest.raises(AssertionError):
        _play("puerto-rico", 4, (), seed=11, enc=enc)


def test_pieces_and_bags_changed_by_hand_fall_back_to_the_walk():
    spaces = spaces_for("puerto-rico", 3, ("nobles", "new-buildings"), ())
    obs = spaces.observations
    enc = obs.encoder(spaces.game)
    s = spaces.game.new_state(4)
    rng = random.Random(4)
    for _ in range(200):
        s.apply(rng.choice(s.legal_options()))
    enc.encode(s, 0)
    s.tj = None  # changed by hand below: no journal notes it, every field is compared
    area = next(k for k, v in s.p[1].items() if type(v) is list and len(v) > 2)
    bag = next(k for k, v in s.p[1].items() if type(v) is dict and len(v) > 1)
    pieces, counts = s.p[1][area], s.p[1][bag]
    key = next(iter(counts))
    number = next(k for k, v in pieces[0].items() if type(v) is int)
    edits = [
        lambda: pieces[0].__setitem__(number, pieces[0][number] + 2),  # a number: in place
        lambda: counts.__setitem__(key, counts[key] + 3),
        lambda: pieces[1].__setitem__("type", pieces[2]["type"]),  # a piece changes type
        lambda: pieces[0].__setitem__(number, 1.5),  # a fraction: the walk
        lambda: counts.__setitem__(key, 0.25),
        lambda: pieces[0].__setitem__(number, 2),
        lambda: counts.__setitem__(key, 1),
        lambda: pieces[2].__setitem__("extra", 3),  # a field no piece had
        lambda: counts.__setitem__("no-such-key", 1),  # another key
    ]
    for edit in edits:
        edit()
        for seat in range(3):
            np.testing.assert_array_equal(enc.encode(s, seat), obs.encode(s.view(seat)))


@pytest.mark.parametrize("grown", [True, False])
def test_a_list_that_gained_pieces_keeps_the_records_of_its_pieces(grown, monkeypatch):
    """A piece placed at the end of a list of flat pieces (a plantation, a building) extends
    the list's copy in place (walk._grown): the pieces already there keep their copies and
    records, so a piece is brought to its copy the slow way (Encoder._entry, which makes its
    record) at one step of the game, not again after each piece placed beside it (a list
    walked again for another change, a ship's load, makes new copies: a few pieces); every
    vector still equals its whole view's. Without the extension (the copy made anew) most
    are not kept: the count can fail."""
    if not grown:
        monkeypatch.setattr(walk_module, "_grown", lambda *args: False)
    spaces = spaces_for("puerto-rico", 4, (), ())
    enc = spaces.observations.encoder(spaces.game)
    # id(piece) -> [the piece (held: its id stays its own), the steps it was brought slowly]
    slow: dict[int, list] = {}
    entry = enc._entry
    steps = [0]

    def counted(j, name, at, box, key, gone):
        if at >= 0:
            slow.setdefault(id(box), [box, set()])[1].add(steps[0])
        return entry(j, name, at, box, key, gone)

    def stepped(s, seat):
        steps[0] += 1
        return encode(s, seat)

    enc._entry = counted
    encode, enc.encode = enc.encode, stepped
    _play("puerto-rico", 4, (), seed=11, enc=enc, journal=True)
    again = sum(len(at) > 1 for _box, at in slow.values())
    assert len(slow) > 40
    assert (again < len(slow) / 10) is grown, (again, len(slow))
