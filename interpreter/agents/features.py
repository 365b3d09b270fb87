"""A seat's view as a fixed-length feature vector, and the encoder that fills it at engine speed.

**What a feature is.** A seat's view (``state.view(seat)``) flattened into named numbers:
numbers as they are, text as one-hot ``path=value``, lists of ids as counts per id, lists of
pieces as counts per piece type plus each numeric field summed per type, hidden piles as their
shown size. Seats are named from the observer on (``p+0`` is the observer, ``p+1`` the next seat
in turn order). :func:`view_features` is that definition, on a whole view.

**The layout.** The vector is the round and the seat to move (relative to the observer), then
the global fields' features, then one block per seat from the observer on. Every seat's block
lists the same features (each player field's features seen for any seat in the probe games),
so a seat's block is filled once and placed wherever an observer's turn order puts it.

**The encoder.** :class:`Encoder` keeps the blocks between calls, with a copy of each field's
value as it last encoded it: the global block, and for each seat its block as the seat sees it
and as the others do (they differ in its hidden fields). A call compares the state's fields
with those copies (the global fields and each seat's fields first as a whole, one C-level
comparison, then field by field), walks again only the fields that changed, and joins the
blocks for the observing seat. What a seat may see of a field comes from the engine's own view
code (``secret_fields``, ``hidden_form``, ``out_of_scope`` in engine/view.py), so the vector
equals the one :meth:`Layout.encode` makes of ``state.view(seat)`` (tests/agents/
test_features.py checks that on many random states of the games under rulesets/).
"""

from __future__ import annotations

from array import array
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from interpreter.engine.copier import copy_value, field_copies
from interpreter.engine.view import hidden_form, out_of_scope, secret_fields

__all__ = ["Encoder", "Layout", "group_features", "view_features", "walk"]

Group = tuple  # ("round",), ("to_move",), ("g", field) or ("p", relative seat, field)
_MISSING = object()  # a field never encoded yet
_GONE = object()  # a field not in the view (out of scope, or hidden without a count)


def view_features(view: dict[str, Any]) -> list[tuple[str, float]]:
    """The view as (feature name, value) pairs, seats counted from the viewer on."""
    return [pair for _group, pairs in group_features(view) for pair in pairs]


def group_features(view: dict[str, Any]) -> list[tuple[Group, list[tuple[str, float]]]]:
    """The view's features, group by group."""
    out: list[tuple[Group, list[tuple[str, float]]]] = [
        (("round",), [("round", float(view.get("round") or 0))])
    ]
    seat = view["seat"]
    players = view["players"]
    n = len(players)
    to_move = view.get("to_move")
    if to_move is not None:
        out.append((("to_move",), [(f"to_move=+{(to_move - seat) % n}", 1.0)]))
    for name, value in view["global"].items():
        pairs: list[tuple[str, float]] = []
        walk(f"g.{name}", value, pairs)
        out.append((("g", name), pairs))
    for pl in players:
        rel = (pl["seat"] - seat) % n
        for name, value in pl.items():
            if name != "seat":
                pairs = []
                walk(f"p+{rel}.{name}", value, pairs)
                out.append((("p", rel, name), pairs))
    return out


def walk(path: str, value: Any, out: list[tuple[str, float]]) -> None:
    """Append the features of one shown value under ``path``."""
    t = type(value)
    if t is bool or t is int or t is float:
        out.append((path, float(value)))
    elif t is str:
        out.append((f"{path}={value}", 1.0))
    elif t is dict:
        if value.get("hidden") is True:
            out.append((f"{path}#", float(value.get("count", 0))))
            return
        for key, item in value.items():
            walk(f"{path}.{key}", item, out)
    elif t is list:
        out.append((f"{path}#", float(len(value))))
        for i, item in enumerate(value):
            if type(item) is dict:
                kind = item.get("type", i)
                out.append((f"{path}[{kind}]", 1.0))
                for key, field_value in item.items():
                    if key != "type":
                        walk(f"{path}[{kind}].{key}", field_value, out)
            elif type(item) is str:
                out.append((f"{path}:{item}", 1.0))
            else:
                walk(f"{path}[{i}]", item, out)
    else:
        plain = _plain(value)
        if plain is not None:
            walk(path, plain, out)


def _plain(value: Any) -> Any:
    """A number, text, dict or list of a subclass (a number read from the rule file keeps its
    YAML type until a rule writes it) as the plain type; None for anything else."""
    for plain in (bool, int, float, str, dict, list):
        if isinstance(value, plain):
            return plain(value)
    return None


def _slices(names_by_field: dict[str, set[str]]) -> tuple[list[str], dict[str, tuple[int, int]]]:
    """Names field by field (fields by name, names sorted) and each field's slice of them."""
    out: list[str] = []
    slices: dict[str, tuple[int, int]] = {}
    for name in sorted(names_by_field):
        names = sorted(names_by_field[name])
        if names:
            slices[name] = (len(out), len(out) + len(names))
            out.extend(names)
    return out, slices


@dataclass
class Layout:
    """The features of one configuration: the head (round, seat to move), the global fields',
    then ``players`` blocks of the same player features, one per seat from the observer on."""

    head: list[str]
    globals: list[str]  # the global features, field by field
    player: list[str]  # one seat's block, names without their ``p+R.`` prefix, field by field
    players: int
    global_slices: dict[str, tuple[int, int]] = field(default_factory=dict)
    player_slices: dict[str, tuple[int, int]] = field(default_factory=dict)

    @classmethod
    def of(cls, seen: dict[Group, set[str]], players: int) -> Layout:
        """The layout of the features seen, group by group (the probe games' views)."""
        head = sorted(seen.get(("round",), set())) + sorted(seen.get(("to_move",), set()))
        by_global = {g[1]: names for g, names in seen.items() if g[0] == "g"}
        by_player: dict[str, set[str]] = {}
        for group, names in seen.items():
            if group[0] == "p":
                cut = len(f"p+{group[1]}.")
                by_player.setdefault(group[2], set()).update(n[cut:] for n in names)
        glob, global_slices = _slices(by_global)
        player, player_slices = _slices(by_player)
        return cls(head, glob, player, players, global_slices, player_slices)

    def __post_init__(self) -> None:
        self.features = [
            *self.head,
            *self.globals,
            *(f"p+{r}.{n}" for r in range(self.players) for n in self.player),
        ]
        self.index = {n: i for i, n in enumerate(self.features)}

    @property
    def size(self) -> int:
        return len(self.features)

    def encode(self, view: dict[str, Any]) -> np.ndarray:
        """The vector of a whole view: the definition the encoder must equal."""
        acc: dict[int, float] = {}
        index = self.index
        for name, value in view_features(view):
            at = index.get(name)
            if at is not None:
                acc[at] = acc.get(at, 0.0) + value
        vec = np.zeros(len(self.features), dtype=np.float32)
        for at, value in acc.items():
            # summed in double precision, then rounded once; the encoder adds in single
            # precision: the two agree on the whole numbers states hold (below 2**24)
            vec[at] = value
        return vec


class _Node:
    """One path of the walk, with the block positions of the features it writes, found by name
    the first time each is met (None: a feature not in the layout, dropped as ``Layout.encode``
    drops it). What ``walk`` does with names, ``_write`` does with these positions."""

    __slots__ = ("path", "num", "count", "text", "kids", "kinds", "ids", "items", "index")

    def __init__(self, path: str, index: dict[str, int]) -> None:
        self.path = path
        self.index = index
        self.num = index.get(path)  # the value of a number
        self.count = index.get(f"{path}#")  # a list's length, a hidden pile's size
        self.text: dict[str, int | None] = {}  # a text value -> its one-hot position
        self.kids: dict[Any, _Node] = {}  # a dict's keys
        self.kinds: dict[Any, tuple[int | None, _Node]] = {}  # a list's pieces, by type
        self.ids: dict[str, int | None] = {}  # a list's ids
        self.items: dict[int, _Node] = {}  # a list's other items, by position

    def kid(self, key: Any) -> _Node:
        node = self.kids.get(key)
        if node is None:
            node = self.kids[key] = _Node(f"{self.path}.{key}", self.index)
        return node


def _write(node: _Node, value: Any, vec: array, sign: int = 1) -> None:
    """Add the features of ``value`` at ``node`` into ``vec`` (``sign`` -1: take them off):
    ``walk`` over positions instead of names (a number inside a dict or a piece is written in
    the loop, not by a call)."""
    t = type(value)
    if t is int or t is float or t is bool:
        at = node.num
        if at is not None:
            vec[at] += sign * value
    elif t is str:
        at = node.text.get(value, -1)
        if at == -1:
            at = node.text[value] = node.index.get(f"{node.path}={value}")
        if at is not None:
            vec[at] += sign
    elif t is dict:
        if value.get("hidden") is True:
            at = node.count
            if at is not None:
                vec[at] += sign * value.get("count", 0)
            return
        kids = node.kids
        for key, item in value.items():
            child = kids.get(key) or node.kid(key)
            ti = type(item)
            if ti is int or ti is float or ti is bool:
                at = child.num
                if at is not None:
                    vec[at] += sign * item
            else:
                _write(child, item, vec, sign)
    elif t is list:
        at = node.count
        if at is not None:
            vec[at] += sign * len(value)
        _items(node, value, 0, vec, sign)
    elif value is not None:
        plain = _plain(value)
        if plain is not None:
            _write(node, plain, vec, sign)


def _items(node: _Node, items: list[Any], start: int, vec: array, sign: int) -> None:
    """Add (``sign`` -1: take off) the features of a list's items, the first at position
    ``start``, less the list's length."""
    for i, item in enumerate(items, start):
        ti = type(item)
        if ti is dict:
            kind = item.get("type", i)
            found = node.kinds.get(kind)
            if found is None:
                name = f"{node.path}[{kind}]"
                found = node.kinds[kind] = (node.index.get(name), _Node(name, node.index))
            at, sub = found
            if at is not None:
                vec[at] += sign
            kids = sub.kids
            for key, field_value in item.items():
                if key == "type":
                    continue
                child = kids.get(key) or sub.kid(key)
                tf = type(field_value)
                if tf is int or tf is float or tf is bool:
                    at = child.num
                    if at is not None:
                        vec[at] += sign * field_value
                elif field_value is not None:
                    _write(child, field_value, vec, sign)
        elif ti is str:
            at = node.ids.get(item, -1)
            if at == -1:
                at = node.ids[item] = node.index.get(f"{node.path}:{item}")
            if at is not None:
                vec[at] += sign
        elif item is not None:
            sub = node.items.get(i)
            if sub is None:
                sub = node.items[i] = _Node(f"{node.path}[{i}]", node.index)
            _write(sub, item, vec, sign)


def _delta(node: _Node, old: Any, new: Any, vec: array) -> bool:
    """Change ``vec`` from the features of ``old`` to those of ``new`` by what differs (a
    changed entry of a dict, the items a list gained or lost, a number's difference). False
    where that is not exact (a fraction, a list of position-named items changing length): the
    caller then walks the whole value again."""
    to, tn = type(old), type(new)
    if to is int and tn is int:
        at = node.num
        if at is not None:
            vec[at] += new - old
        return True
    if (
        to is dict
        and tn is dict
        and old.get("hidden") is not True
        and new.get("hidden") is not True
    ):
        if old.keys() != new.keys():
            return False
        kids = node.kids
        for key, value in new.items():
            was = old[key]
            if was != value and not _delta(kids.get(key) or node.kid(key), was, value, vec):
                return False
        return True
    if to is list and tn is list:
        n_old, n_new = len(old), len(new)
        i = 0
        while i < n_old and i < n_new and old[i] == new[i]:
            i += 1
        j_old, j_new = n_old, n_new
        while j_old > i and j_new > i and old[j_old - 1] == new[j_new - 1]:
            j_old -= 1
            j_new -= 1
        gone, came = old[i:j_old], new[i:j_new]
        if n_old != n_new:
            for item in gone + came:
                ti = type(item)
                if ti is not dict and ti is not str:
                    return False  # named by position: every later position moves
        for item in gone:
            ti = type(item)
            if ti is float or (ti is dict and any(type(x) is float for x in item.values())):
                return False  # a fraction taken off may not give back the sum exactly
        _items(node, gone, i, vec, -1)
        _items(node, came, i, vec, 1)
        if n_old != n_new and node.count is not None:
            vec[node.count] += n_new - n_old
        return True
    if (to is str or old is None or to is bool) and (tn is str or new is None or tn is bool):
        _write(node, old, vec, -1)
        _write(node, new, vec)
        return True
    return False


class _Block:
    """One block of the vector (the global fields, or one seat's fields as seen by the seat or
    by the others) and the walk of each of its fields."""

    def __init__(self, names: list[str], slices: dict[str, tuple[int, int]], prefix: str) -> None:
        self.vec = array("f", bytes(4 * len(names)))
        self.zeros = array("f", bytes(4 * len(names)))
        self.slices = slices
        self.index = {n: i for i, n in enumerate(names)}
        self.prefix = prefix
        self.nodes: dict[str, _Node] = {}

    def fill(self, name: str, shown: Any, was: Any = _MISSING) -> None:
        """Refill field ``name``'s slice from its shown value (_GONE: not in the view); ``was``,
        the value it was filled from when shown as it is, lets it change only what differs."""
        where = self.slices.get(name)
        if where is None:
            return  # no feature of this field was ever seen: nothing of it is in the vector
        node = self.nodes.get(name)
        if node is None:
            node = self.nodes[name] = _Node(self.prefix + name, self.index)
        vec = self.vec
        if was is not _MISSING and was is not _GONE and shown is not _GONE:
            if _delta(node, was, shown, vec):
                return
        a, b = where
        vec[a:b] = self.zeros[a:b]
        if shown is not _GONE:
            _write(node, shown, vec)

    def take(self, name: str, block: _Block) -> None:
        """Field ``name``'s slice as ``block`` has it (a field every seat sees alike)."""
        where = self.slices.get(name)
        if where is not None:
            a, b = where
            self.vec[a:b] = block.vec[a:b]


class Encoder:
    """The feature vectors of every seat of one game, kept between calls and refilled where
    the state changed (make one per environment; it works on any state of its game)."""

    def __init__(self, layout: Layout, rules: Any) -> None:
        self.layout = layout
        self.rules = rules
        n = self.players = layout.players
        self.head_index = {name: i for i, name in enumerate(layout.head)}
        self.head_zeros = array("f", bytes(4 * len(layout.head)))
        self.round_at = self.head_index.get("round")
        self.to_move_at = [self.head_index.get(f"to_move=+{r}") for r in range(n)]
        self.glob = _Block(layout.globals, layout.global_slices, "g.")
        self.own = [_Block(layout.player, layout.player_slices, "") for _ in range(n)]
        self.other = [_Block(layout.player, layout.player_slices, "") for _ in range(n)]
        self.gone: set[tuple[str, str]] = set()  # the fields out of the view at the last call
        self.g_seen: dict[str, Any] = {}  # field -> a copy of the value last encoded
        self.p_seen: list[dict[str, Any]] = [{} for _ in range(n)]
        self.g_copy, self.p_copy = field_copies(rules)  # each field copied by its kind

    def encode(self, s: Any, seat: int) -> np.ndarray:
        """The vector of what ``seat`` sees of state ``s`` (a new array)."""
        self.sync(s)
        n = self.players
        head = self.head_zeros[:]
        if self.round_at is not None:
            head[self.round_at] = float(s.round or 0)
        to_move = s.to_move
        if to_move is not None:
            at = self.to_move_at[(to_move - seat) % n]
            if at is not None:
                head[at] = 1.0
        out = head + self.glob.vec + self.own[seat].vec
        other = self.other
        for r in range(1, n):
            out += other[(seat + r) % n].vec
        return np.frombuffer(out, dtype=np.float32)

    def sync(self, s: Any) -> None:
        """Bring every block up to state ``s``: walk again each field that changed."""
        rules = self.rules
        gone = out_of_scope(rules, s)
        if gone != self.gone:
            self._rescope(s, gone)
        hidden_global, hidden_player = secret_fields(rules)
        seen = self.g_seen
        if s.g != seen:
            glob = self.glob
            get = seen.get
            for name, value in [(k, v) for k, v in s.g.items() if get(k, _MISSING) != v]:
                if not (gone and ("global", name) in gone):  # else out of the view: empty
                    if name in hidden_global:
                        glob.fill(name, hidden_form(rules, "global", name, value))
                    else:
                        glob.fill(name, value, seen.get(name, _MISSING))
                seen[name] = self.g_copy.get(name, copy_value)(value)
        for pl in s.p:
            j = pl["seat"]
            seen = self.p_seen[j]
            if pl == seen:
                continue
            own, other = self.own[j], self.other[j]
            get = seen.get
            for name, value in [(k, v) for k, v in pl.items() if get(k, _MISSING) != v]:
                if name != "seat" and not (gone and ("player", name) in gone):
                    own.fill(name, value, seen.get(name, _MISSING))
                    if name in hidden_player:
                        form = hidden_form(rules, "player", name, value)
                        other.fill(name, _GONE if form is None else form)
                    else:
                        other.take(name, own)  # shown alike to every seat
                seen[name] = self.p_copy.get(name, copy_value)(value)

    def _rescope(self, s: Any, gone: set[tuple[str, str]]) -> None:
        """Fields leave the view (a phase's or a round's own fields while it does not run):
        their slices are emptied; fields back in it are filled again from their values."""
        for scope, name in self.gone ^ gone:
            if scope == "global":
                if name in s.g:
                    self.glob.fill(name, _GONE)
                    self.g_seen.pop(name, None)  # compared, copied and filled at once
                continue
            for pl in s.p:
                if name in pl:
                    j = pl["seat"]
                    self.own[j].fill(name, _GONE)
                    self.other[j].fill(name, _GONE)
                    self.p_seen[j].pop(name, None)
        self.gone = gone
