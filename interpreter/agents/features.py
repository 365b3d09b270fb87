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

**The encoder.** encoder.py fills the same vector at engine speed, refilling only the fields
that changed since its last call; :meth:`Layout.encode` of ``state.view(seat)`` is the
definition it must equal (tests/agents/test_features.py checks that on many random states).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

__all__ = [
    "Layout",
    "field_values",
    "group_features",
    "head_features",
    "view_features",
    "walk",
]

Group = tuple  # ("round",), ("to_move",), ("g", field) or ("p", relative seat, field)


def view_features(view: dict[str, Any]) -> list[tuple[str, float]]:
    """The view as (feature name, value) pairs, seats counted from the viewer on."""
    return [pair for _group, pairs in group_features(view) for pair in pairs]


def group_features(view: dict[str, Any]) -> list[tuple[Group, list[tuple[str, float]]]]:
    """The view's features, group by group."""
    out = head_features(view)
    for group, path, value in field_values(view):
        pairs: list[tuple[str, float]] = []
        walk(path, value, pairs)
        out.append((group, pairs))
    return out


def head_features(view: Mapping[str, Any]) -> list[tuple[Group, list[tuple[str, float]]]]:
    """The round and the seat to move (relative to the viewer), each its own group."""
    out: list[tuple[Group, list[tuple[str, float]]]] = [
        (("round",), [("round", float(view.get("round") or 0))])
    ]
    to_move = view.get("to_move")
    if to_move is not None:
        n = len(view["players"])
        out.append((("to_move",), [(f"to_move=+{(to_move - view['seat']) % n}", 1.0)]))
    return out


def field_values(view: Mapping[str, Any]) -> Iterator[tuple[Group, str, Any]]:
    """Each shown field of the view: its group, the path its features are named under (seats
    counted from the viewer on) and its value."""
    seat = view["seat"]
    players = view["players"]
    n = len(players)
    for name, value in view["global"].items():
        yield ("g", name), f"g.{name}", value
    for pl in players:
        rel = (pl["seat"] - seat) % n
        for name, value in pl.items():
            if name != "seat":
                yield ("p", rel, name), f"p+{rel}.{name}", value


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
    plain: Any
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
