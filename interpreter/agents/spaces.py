"""Fixed-size action and observation spaces for any ruleset and configuration.

Learning libraries want a stable ``Discrete`` action space and a fixed-length observation
vector; a ruleset only offers option ids that change from decision to decision. Both spaces
are built once per (ruleset, players, overlays, options) from the ruleset itself:

**Actions.** Every ``options:`` line of every ``choose`` step is an option *family*; its
``for`` parts are its arguments. Each argument's domain is the smallest declared collection
(a set or a catalog's entries) that holds every value the argument took in a few seeded probe
games (a deterministic sample, so the space is the same on every machine), widened to the
union of the collections that hold any of them when no single one does; an argument never
seen in the probes takes the collections its ``for`` text names, else every collection. The
space is the concatenation of each family's argument product (mixed radix, in rule-file
order): action ``i`` is one (family, arguments) pair, and a legal option id maps to its
action through the engine's own record of the family and arguments that made it.

**Observations.** A seat's view (``state.view(seat)``, so nothing hidden leaks) flattened
into named features: numbers as they are, text as one-hot ``path=value``, lists of ids as
counts per id, lists of pieces as counts per piece type plus each numeric field summed per
type, hidden piles as their shown size. Seats are listed from the observer on (own seat
first, then the next ones in turn order). The feature names are those seen in the probe
games' views, sorted: a feature never seen there is dropped, so the length is fixed.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import numpy as np

from interpreter.engine.loader import load_game
from interpreter.model.flow import ChooseSpec

__all__ = ["ActionSpace", "ObservationSpace", "Spaces", "spaces_for"]

PROBE_GAMES = 4
PROBE_SEED = 7919


@dataclass
class ActionSpace:
    """The option families and their argument domains; action = offset + mixed-radix index."""

    families: list[Any]  # OptionSpec per family, rule-file order
    domains: list[list[tuple[Any, ...]]]  # per family, per argument: the values
    offsets: list[int]
    size: int
    names: list[str] = field(default_factory=list)
    _family: dict[int, int] = field(default_factory=dict)
    _index: list[list[dict[Any, int]]] = field(default_factory=list)

    def action_of(self, entry: tuple) -> int | None:
        """The action of a pending entry ``(spec, option line, values)``; None if outside."""
        _spec, opt, values = entry
        fam = self._family.get(id(opt))
        if fam is None:
            return None
        code = 0
        for value, domain, index in zip(values, self.domains[fam], self._index[fam], strict=True):
            at = index.get(value)
            if at is None:
                return None
            code = code * len(domain) + at
        return self.offsets[fam] + code

    def legal_actions(self, state: Any) -> dict[int, str]:
        """Legal action -> option id, for the decision pending in ``state``."""
        out: dict[int, str] = {}
        for option_id, entry in (state.pending or {}).items():
            action = self.action_of(entry)
            if action is None:
                raise ValueError(
                    f"option {option_id!r} lies outside the action space built for this "
                    "configuration (an argument value no probe game or declaration showed)"
                )
            out[action] = option_id
        return out


@dataclass
class ObservationSpace:
    features: list[str]
    index: dict[str, int]

    @property
    def size(self) -> int:
        return len(self.features)

    def encode(self, view: dict[str, Any]) -> np.ndarray:
        vec = np.zeros(len(self.features), dtype=np.float32)
        index = self.index
        for name, value in view_features(view):
            at = index.get(name)
            if at is not None:
                vec[at] += value
        return vec


@dataclass
class Spaces:
    """Both spaces and the compiled game they were built on (actions map its option lines)."""

    game: Any
    actions: ActionSpace
    observations: ObservationSpace

    def __deepcopy__(self, memo: dict) -> Spaces:
        return self  # immutable and shared: actions map the option lines of this very game


def _families(game: Any) -> list[Any]:
    seen: dict[int, Any] = {}
    for ins in game.rules.program.code:
        for part in ins:
            if isinstance(part, ChooseSpec):
                for opt in part.options:
                    seen.setdefault(id(opt), opt)
    return list(seen.values())


def view_features(view: dict[str, Any]) -> list[tuple[str, float]]:
    """The view as (feature name, value) pairs, seats counted from the viewer on."""
    out: list[tuple[str, float]] = [("round", float(view.get("round") or 0))]
    seat = view["seat"]
    players = view["players"]
    n = len(players)
    to_move = view.get("to_move")
    if to_move is not None:
        out.append((f"to_move=+{(to_move - seat) % n}", 1.0))
    _walk("g", view["global"], out)
    for pl in players:
        rel = (pl["seat"] - seat) % n
        _walk(f"p+{rel}", {k: v for k, v in pl.items() if k != "seat"}, out)
    return out


def _walk(path: str, value: Any, out: list[tuple[str, float]]) -> None:
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
            _walk(f"{path}.{key}", item, out)
    elif t is list:
        out.append((f"{path}#", float(len(value))))
        for i, item in enumerate(value):
            if type(item) is dict:
                kind = item.get("type", i)
                out.append((f"{path}[{kind}]", 1.0))
                for key, field_value in item.items():
                    if key != "type":
                        _walk(f"{path}[{kind}].{key}", field_value, out)
            elif type(item) is str:
                out.append((f"{path}:{item}", 1.0))
            else:
                _walk(f"{path}[{i}]", item, out)


def _collections(game: Any) -> dict[str, frozenset[str]]:
    out = {}
    for name, value in game.env.constants.items():
        if isinstance(value, tuple) and value and all(isinstance(x, str) for x in value):
            out[name] = frozenset(value)
    return out


def _domain(
    observed: set[Any], text: str, collections: dict[str, frozenset[str]], game: Any
) -> tuple[Any, ...]:
    if observed and not all(isinstance(v, str) for v in observed):
        if all(isinstance(v, int) for v in observed):
            return tuple(range(max(game.players, 2 * max(observed) + 1)))
        return tuple(sorted(observed, key=repr))
    fitting = [(len(m), name) for name, m in collections.items() if observed <= m]
    if observed and fitting:
        return tuple(sorted(collections[min(fitting)[1]]))
    if observed:
        union = set().union(*(m for m in collections.values() if m & observed)) | observed
        return tuple(sorted(union))
    named = set()
    for word in re.findall(r"[a-z][a-z0-9-]*", text):
        over = game.rules.collections.get(word, word)
        if over in collections:
            named |= collections[over]
    pool = named or set().union(*collections.values())
    return tuple(sorted(pool))


@lru_cache(maxsize=32)
def spaces_for(
    game_name: str, players: int, overlays: tuple[str, ...], options: tuple[tuple[str, Any], ...]
) -> Spaces:
    """The action and observation spaces of one configuration (built once, then cached)."""
    game = load_game(game_name, players, list(overlays), dict(options))
    families = _families(game)
    fam_of = {id(opt): i for i, opt in enumerate(families)}
    observed: list[list[set[Any]]] = [[set() for _ in opt.slots] for opt in families]
    features: set[str] = set()
    for g in range(PROBE_GAMES):
        state = game.new_state(PROBE_SEED + g)
        state.log = None
        rng = random.Random(PROBE_SEED + g)
        while True:
            for seat in range(players):
                features.update(name for name, _ in view_features(state.view(seat)))
            if state.is_over:
                break
            for _spec, opt, values in state.pending.values():
                for slot, value in zip(observed[fam_of[id(opt)]], values, strict=True):
                    slot.add(value)
            state.apply(rng.choice(state.legal_options()))
    collections = _collections(game)
    domains: list[list[tuple[Any, ...]]] = []
    offsets: list[int] = []
    size = 0
    for opt, seen in zip(families, observed, strict=True):
        texts = [getattr(d, "__code__", None) for d in opt.domains]
        doms = [
            _domain(values, code.co_filename if code else "", collections, game)
            for values, code in zip(seen, texts, strict=True)
        ]
        domains.append(doms)
        offsets.append(size)
        count = 1
        for d in doms:
            count *= len(d)
        size += count
    actions = ActionSpace(families, domains, offsets, size)
    actions._family = fam_of
    actions._index = [[{v: i for i, v in enumerate(d)} for d in doms] for doms in domains]
    actions.names = _action_names(game, actions)
    names = sorted(features)
    observations = ObservationSpace(names, {n: i for i, n in enumerate(names)})
    return Spaces(game, actions, observations)


def _action_names(game: Any, actions: ActionSpace) -> list[str]:
    """Each action's option id as the ruleset would write it (for people and logs)."""
    import itertools

    state = game.new_state(0)
    names = []
    for opt, doms in zip(actions.families, actions.domains, strict=True):
        for values in itertools.product(*doms):
            for slot, value in zip(opt.slots, values, strict=True):
                state.t[slot] = value
            try:
                names.append(str(opt.template(state)))
            except Exception:  # noqa: BLE001 - a template reading more than its slots
                names.append(":".join(["?", *map(str, values)]))
    return names
