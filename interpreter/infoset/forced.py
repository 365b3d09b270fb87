"""Whether a decision with one legal option may be taken without asking, in this state.

The engine takes a decision's only option itself (machine.take_only), and that tells every seat
that nothing else was legal: by the words "(the only choice)" and by the seat not being asked.
Where which options are legal may depend on what a seat hides (a `choose` step marked
``hidden_dependent`` at load: infoset/secrecy.py), that would tell the others a secret; such a
decision is taken only where the state itself shows that its options are the same in every
world the other seats cannot tell from it, and asked everywhere else, so that its timing says
nothing.

The test lists the options again on a *public copy* of the state: every value some seat may
not see is replaced by a stand-in that fails when the listing reads it (compares it, adds it,
iterates it, looks it up, prints it):

* a field declared ``hidden: true`` or ``hidden: all`` (a global one, or any seat's, the
  deciding seat's own included: the others do not see it), except
  - a hidden pile whose size every seat is shown (``hidden: true``): its stand-in answers
    ``len`` and fails on anything else, and an empty one is kept as it is (every world the
    others cannot tell apart holds it empty too);
  - a seat's hidden counter or value named in ``state: remember:``, whose every change every
    seat sees (infoset/worlds.py keeps its true value in every drawn world; the leak check
    verifies the claim, L006);
* a flow variable some text sets from a secret (``Rules.secret_vars``; every one when that is
  not known), and every scratch name a hook bound (the copy has none: reading one fails);
* the game's generator (what it gives next is nobody's to know).

If that listing finishes with the same one option, it read only what every seat sees, through
the same steps as the true listing (each step before a read of a stand-in is the same on both
copies, and none was read): so every world that agrees on what is shown gives the same one
option, and taking it tells nothing.

Where it reads a hidden pile whose size is shown (a hand of one card), the listing is run
again with that pile holding, in turn, every content of that size its collection's ids make
(each of the catalog's entries for a pile of one; the ids of its catalog, a superset of what
the pile can hold), each of them a public copy too, and so on for the next such pile it reads,
up to :data:`WORLDS` listings in all: the decision is taken only if every one of them finishes
with the same one option (a seat with one card that no building costs little enough to build
with is not asked to pass). Which contents are tried depends only on the pile's size and
catalog, both shown, so it too is a function of what every seat sees. If a listing fails
otherwise, or the worlds are more than that, the decision is asked, its one option like any
other. Whether it is asked is thereby itself a function of what every seat sees,
which ``rulebook validate --secrets`` checks game by game (L003). It is sound, not complete:
a listing that reads a hidden value it could do without (``p.chips > 0 and has-stall(p)``
where ``has-stall(p)`` is false) is asked; writing the shown test first lets it be taken.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations_with_replacement
from math import comb
from typing import Any, NoReturn, TypeVar
from weakref import WeakKeyDictionary, ref

from interpreter.infoset.position import Listed, Position, SecretRules, started_without

__all__ = ["WORLDS", "UnseenRead", "decided_in_public", "public_state"]

# the most listings one lone decision may take to show that every content of the hidden piles
# it reads gives the same one option (a pile of one card: one listing per entry of its catalog)
WORLDS = 64

# each listing's pile content that last gave another answer than its decision's lone option,
# tried first next time: a decision asked is then told after one listing more, not a dozen.
# Which content comes first changes no answer (every one must agree for a decision to be taken,
# and the listings spent in all are the same), so no seat can learn anything from it.
_DIFFERED: WeakKeyDictionary[Callable[..., Any], tuple[str, ...]] = WeakKeyDictionary()

F = TypeVar("F", bound=Position)  # a state, whose public copy is of its own class


class UnseenRead(Exception):
    """A listing read a value that some seat may not see (a stand-in of the public copy); its
    argument, where there is one, is the stand-in read."""


def _read(self: Any, *args: Any) -> NoReturn:
    raise UnseenRead(self)


class _StandIn:
    """A value some seat may not see: every use of it (but its identity, and its size where
    a subclass says) fails."""

    __slots__ = ()

    __eq__ = __ne__ = __lt__ = __le__ = __gt__ = __ge__ = _read
    __hash__ = __bool__ = __iter__ = __reversed__ = __contains__ = _read
    __getitem__ = __setitem__ = __delitem__ = __call__ = _read
    __str__ = __repr__ = __format__ = __int__ = __float__ = __index__ = __round__ = _read
    __neg__ = __pos__ = __abs__ = __invert__ = _read
    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = _read
    __truediv__ = __rtruediv__ = __floordiv__ = __rfloordiv__ = __mod__ = __rmod__ = _read
    __pow__ = __rpow__ = __and__ = __rand__ = __or__ = __ror__ = __xor__ = __rxor__ = _read

    def __getattr__(self, name: str) -> NoReturn:  # a list's or a generator's methods
        if name.startswith("__"):  # a tool's look for a protocol (doctest's `__wrapped__`)
            raise AttributeError(name)
        raise UnseenRead(self)


class _Unseen(_StandIn):
    """A hidden value whose size, if it has one, is not shown either."""

    __slots__ = ()

    __len__ = _read


class _UnseenPile(_StandIn):
    """A hidden pile whose size every seat is shown: its size, and nothing else; ``where``:
    the seat whose field it is (None: a global field) and the field's name."""

    __slots__ = ("size", "where")

    def __init__(self, size: int, where: tuple[int | None, str]) -> None:
        self.size = size
        self.where = where

    def __len__(self) -> int:
        return self.size


_UNSEEN = _Unseen()


class _Shape:
    """What the public copies of one ruleset's states replace, worked out once from its
    declarations (a state's fields change, never which of them are hidden): the hidden global
    fields, whose size is shown or not; each seat's hidden fields in four groups, by whether
    their size is shown and whether every seat sees their every change (``remember``); the
    flow variables that may hold a secret (None: any may); each pile's catalog ids."""

    __slots__ = (
        "global_sized",
        "global_whole",
        "sized_remembered",
        "sized",
        "whole_remembered",
        "whole",
        "secret_vars",
        "catalogs",
    )

    def __init__(self, rules: SecretRules) -> None:
        hidden_all, remembered = rules.hidden_all, set(rules.remember)
        self.global_sized = tuple(sorted(rules.hidden_global - hidden_all))
        self.global_whole = tuple(sorted(rules.hidden_global & hidden_all))
        names = sorted(rules.hidden_player)
        self.sized_remembered = tuple(n for n in names if n not in hidden_all and n in remembered)
        self.sized = tuple(n for n in names if n not in hidden_all and n not in remembered)
        self.whole_remembered = tuple(n for n in names if n in hidden_all and n in remembered)
        self.whole = tuple(n for n in names if n in hidden_all and n not in remembered)
        self.secret_vars = rules.secret_vars
        # the ids a hidden pile's content is made of, by the pile's field name
        self.catalogs: dict[str, tuple[str, ...]] = {}
        for name, catalog in rules.collections.items():
            self.catalogs[name] = tuple(rules.catalog_ids.get(catalog, ()))


# each ruleset's shape, by the compiled rules' identity (Rules is a dataclass, not hashable),
# beside a weak reference to the rules: an id taken over by other rules is told apart
_SHAPES: dict[int, tuple[ref[Any], _Shape]] = {}


def _shape(rules: SecretRules) -> _Shape:
    kept = _SHAPES.get(id(rules))
    if kept is None or kept[0]() is not rules:
        if len(_SHAPES) >= 64:  # a few rulesets live at once; a test run compiles hundreds
            _SHAPES.clear()
        kept = _SHAPES[id(rules)] = (ref(rules), _Shape(rules))
    return kept[1]


def public_state(s: F) -> F:
    """A copy of `s` holding only what every seat sees (the module's docstring): a stand-in
    for the rest, no log, no records, no scratch names. Its fields are one level deep: the
    values shown are the state's own (listing options changes nothing, and the true listing
    has just read them)."""
    shape = _shape(s.game.rules)
    g = s.g.copy()
    _hide(g, shape.global_sized, shape.global_whole, None)
    sized_remembered, sized = shape.sized_remembered, shape.sized
    whole_remembered, whole = shape.whole_remembered, shape.whole
    p = []
    for index, seat in enumerate(s.p):
        pl = seat.copy()
        _hide(pl, sized, whole, index)
        # what every seat sees change: a pile is shown by its size (an empty one kept) or
        # not at all; any other value as it is
        for name in sized_remembered:
            value = pl.get(name)
            if type(value) is list and value:
                pl[name] = _UnseenPile(len(value), (index, name))
        for name in whole_remembered:
            if type(pl.get(name)) is list:
                pl[name] = _UNSEEN
        p.append(pl)
    secret = shape.secret_vars
    if secret is None:
        v = dict.fromkeys(s.v, _UNSEEN)
    else:
        v = s.v.copy()
        for name in secret:
            if name in v:
                v[name] = _UNSEEN
    fields = s.__dict__.copy()
    fields.update(
        started_without(),
        g=g,
        p=p,
        v=v,
        calls=s.calls.copy(),
        pending=None,
        history=[],
        _rng=_UNSEEN,
        _rng_shared=False,
    )
    public = type(s).__new__(type(s))
    public.__dict__ = fields
    return public


def _hide(
    fields: dict[str, Any], sized: tuple[str, ...], whole: tuple[str, ...], owner: int | None
) -> None:
    """Replace, in a public copy's `fields` (of seat `owner`; None: the global ones), each
    hidden field of `sized`, whose size is shown (view.py), by its size where it is a pile (an
    empty one is kept: it is empty in every world) and by a stand-in where it is any other
    value; and each of `whole` by a stand-in."""
    for name in sized:
        value = fields.get(name, _UNSEEN)
        if type(value) is list:
            if value:
                fields[name] = _UnseenPile(len(value), (owner, name))
        elif value is not _UNSEEN:
            fields[name] = _UNSEEN
    for name in whole:
        if name in fields:
            fields[name] = _UNSEEN


def decided_in_public(s: Position, spec: Listed, options: dict[str, tuple]) -> bool:
    """Whether `options`, the one legal option of decision `spec` in `s`, is the only option in
    every world the other seats cannot tell from `s`: the listing on ``public_state(s)``
    finishes with it (the module's docstring). False asks it."""
    listing = spec.enumerator
    if listing is None:
        return False
    return _alone(listing.fn, public_state(s), options, [WORLDS])


def _alone(listing: Any, public: Any, options: dict[str, tuple], left: list[int]) -> bool:
    """Whether ``listing`` on the public copy ``public`` finishes with exactly ``options``, no
    stand-in among their values; where it reads a hidden pile of shown size, whether every
    content of it does (``left``: the listings still allowed, shared by the whole search)."""
    try:
        listed = listing(public)
    except UnseenRead as read:
        pile = read.args[0] if read.args else None
        if type(pile) is not _UnseenPile:
            return False
        return _every_content(listing, public, options, left, pile)
    except Exception:  # noqa: BLE001 - a stand-in read, however it fails: not decided in public
        return False
    return _only(listed, options)


def _only(listed: dict[str, tuple], options: dict[str, tuple]) -> bool:
    """Whether a listing on a public copy, ``listed``, is exactly ``options``, no stand-in
    among their values."""
    if listed.keys() != options.keys():
        return False
    for _spec, _opt, values in listed.values():
        for value in values:
            if isinstance(value, _StandIn):
                return False
    return True


def _every_content(
    listing: Any, public: Any, options: dict[str, tuple], left: list[int], pile: _UnseenPile
) -> bool:
    """Whether ``listing`` finishes with exactly ``options`` with ``pile`` holding, in turn,
    every content :func:`_contents` gives (each a fresh list), the one that last gave another
    answer first; the public copy's own dict holds each in turn, and the pile again after."""
    contents = _contents(public, pile)
    if contents is None or len(contents) > left[0]:
        return False
    left[0] -= len(contents)
    first = _DIFFERED.get(listing)
    if first is not None and first in contents:  # the content that differed last, tried first
        at = contents.index(first)
        contents = (first, *contents[:at], *contents[at + 1 :])
    seat, name = pile.where
    holder = public.g if seat is None else public.p[seat]  # the public copy's own dict
    try:
        for content in contents:
            holder[name] = list(content)
            if not _alone(listing, public, options, left):
                _DIFFERED[listing] = content
                return False
    finally:
        holder[name] = pile
    return True


# every content of a pile of a size made of a catalog's ids, by (ids, size): the same for
# every state, so made once
_CONTENTS: dict[tuple[tuple[str, ...], int], tuple[tuple[str, ...], ...] | None] = {}


def _contents(public: Any, pile: _UnseenPile) -> tuple[tuple[str, ...], ...] | None:
    """Every content of ``pile``'s size made of its collection's ids (the entries of its
    catalog), in sorted order, or None when its collection is not known or the contents are
    more than :data:`WORLDS`."""
    ids = _shape(public.game.rules).catalogs.get(pile.where[1], ())
    key = (ids, pile.size)
    if key in _CONTENTS:
        return _CONTENTS[key]
    found = None
    if ids and comb(len(ids) + pile.size - 1, pile.size) <= WORLDS:
        found = tuple(combinations_with_replacement(ids, pile.size))
    if len(_CONTENTS) >= 256:
        _CONTENTS.clear()
    _CONTENTS[key] = found
    return found
