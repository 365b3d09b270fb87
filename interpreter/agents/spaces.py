"""Fixed-size action and observation spaces for any ruleset and configuration.

Learning libraries want a stable ``Discrete`` action space and a fixed-length observation
vector; a ruleset only offers option ids that change from decision to decision. Both spaces
are built once per (ruleset, players, overlays, options) from the ruleset itself and a few
seeded probe games (a deterministic sample, so the spaces are the same on every machine). The
probes play the configuration with its overlays in name order, so the spaces do not depend on
the order ``--with`` gives them in.

**Actions.** Every ``options:`` line of every ``choose`` step is an option line; the lines of
steps with the same label that write the same id text from their ``for`` parts (the id text
with each part left open, such as ``build:{0}``) are one option *family*, and the parts are its
arguments: a ``pass`` in one step is another action than a ``pass`` in another. Each
argument's domain is the smallest declared collection (a set or a catalog's entries) that
holds every value the argument took in the probe games, widened to the union of the
collections that hold any of them when no single one does; an argument never seen in the
probes takes the collections its ``for`` text names, else every collection. The space is the
concatenation of each family's argument product (mixed radix, families by step label and id
text): action ``i`` is one (family, arguments) pair, and a legal option id maps to its action
through the engine's own record of the line and arguments that made it.

**Observations.** The seat's view as named features (features.py): the names are those the
probe games' views gave, grouped by field; a feature never seen there is dropped, so the
length is fixed.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from interpreter.agents.encoder import Encoder
from interpreter.agents.features import Group, Layout, field_values, head_features, walk
from interpreter.engine.game import Game
from interpreter.engine.loader import load_game
from interpreter.engine.state import State
from interpreter.engine.view import View, seat_view
from interpreter.model.flow import ChooseSpec, OptionSpec

__all__ = ["ActionSpace", "ObservationSpace", "Spaces", "spaces_for"]

PROBE_GAMES = 4
PROBE_SEED = 7919


@dataclass
class ActionSpace:
    """The option families and their argument domains; action = offset + mixed-radix index."""

    families: list[str]  # each family's step label and open id text ("build: build:{0}")
    domains: list[list[tuple[Any, ...]]]  # per family, per argument: the values
    offsets: list[int]
    size: int
    names: list[str] = field(default_factory=list)
    _family: dict[int, int] = field(default_factory=dict)  # id(option line) -> family
    _index: list[list[dict[Any, int]]] = field(default_factory=list)
    # id(option line) -> its values -> action (two dicts: no key tuple made per option)
    _known: dict[int, dict[tuple, int | None]] = field(default_factory=dict)
    # option id -> (option line, values, action) of the last option of that id: one lookup
    # by the id's cached hash and two comparisons, where `_known` hashes the values each time
    _by_id: dict[str, tuple[OptionSpec, tuple, int]] = field(default_factory=dict)
    _game: Game | None = None  # the game whose option lines `_family` maps (held: ids stay unique)

    def bound_to(self, game: Game) -> ActionSpace:
        """The same space for another load of this configuration (another process, another
        ``Game`` object): the game's option lines matched to the families by their keys."""
        at = {key: i for i, key in enumerate(self.families)}
        bound = ActionSpace(self.families, self.domains, self.offsets, self.size, self.names)
        bound._index = self._index
        bound._family = {
            id(opt): at[key] for key, opts in _families(game).items() if key in at for opt in opts
        }
        bound._game = game
        return bound

    def __getstate__(self) -> dict[str, Any]:
        # the caches hold option lines (rule code does not pickle) and their ids (another
        # process's): they are left out and filled again
        return {**self.__dict__, "_known": {}, "_by_id": {}}

    def action_of(self, entry: tuple) -> int | None:
        """The action of a pending entry ``(spec, option line, values)``; None if outside."""
        _spec, opt, values = entry
        known = self._known.setdefault(id(opt), {})
        try:
            return known[values]
        except KeyError:
            action = known[values] = self._action_of(opt, values)
            return action
        except TypeError:  # an argument value that does not hash: worked out every time
            return self._action_of(opt, values)

    def _action_of(self, opt: OptionSpec, values: tuple) -> int | None:
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

    def legal_actions(self, state: State) -> dict[int, str]:
        """Legal action -> option id, for the decision pending in ``state``."""
        out: dict[int, str] = {}
        by_id = self._by_id
        for option_id, entry in (state.pending or {}).items():
            # the same id may come from another line or with other values (a step's own
            # `pass`, say): the line is checked by identity and the values by equality
            last = by_id.get(option_id)
            if last is not None and last[0] is entry[1] and last[1] == entry[2]:
                out[last[2]] = option_id
                continue
            action = self.action_of(entry)
            if action is None:
                raise ValueError(
                    f"option {option_id!r} lies outside the action space built for this "
                    "configuration (an argument value no probe game or declaration showed)"
                )
            by_id[option_id] = (entry[1], entry[2], action)
            out[action] = option_id
        return out


class ObservationSpace(Layout):
    """The feature layout of one configuration (features.py): ``encoder`` makes the fast,
    stateful encoder of a game's seats; ``encode`` is the reference, on a whole view."""

    def encoder(self, game: Game) -> Encoder:
        return Encoder(self, game.rules)


@dataclass
class Spaces:
    """Both spaces and the compiled game they were built on (actions map its option lines)."""

    game: Game
    actions: ActionSpace
    observations: ObservationSpace

    def __deepcopy__(self, memo: dict) -> Spaces:
        return self  # immutable and shared: actions map the option lines of this very game

    def __reduce__(self) -> tuple[Any, ...]:
        # the game pickles as its recipe (Game.__reduce__) and may come back as another load:
        # the actions are bound again to its option lines
        return (_spaces_again, (self.game, self.actions, self.observations))


def _spaces_again(game: Game, actions: ActionSpace, observations: ObservationSpace) -> Spaces:
    """Spaces unpickled (Spaces.__reduce__): the actions bound to the game as loaded."""
    return Spaces(game, actions.bound_to(game), observations)


def _lines(game: Game) -> list[tuple[str, OptionSpec]]:
    """Every option line of the game's choose steps with its step's label, in rule-file order."""
    seen: dict[int, tuple[str, OptionSpec]] = {}
    for ins in game.rules.program.code:
        for part in ins:
            if isinstance(part, ChooseSpec):
                for opt in part.options:
                    seen.setdefault(id(opt), (part.label, opt))
    return list(seen.values())


def _family_key(opt: OptionSpec, state: State) -> str:
    """The id text an option line writes with its ``for`` parts left open (``build:{0}``)."""
    marks = [f"\x00{i}\x00" for i in range(len(opt.slots))]
    for slot, mark in zip(opt.slots, marks, strict=True):
        state.t[slot] = mark
    try:
        text = str(opt.template.fn(state))
    except Exception:  # noqa: BLE001 - a template that does more than write its parts
        code = getattr(opt.template.fn, "__code__", None)
        text = f"{code.co_filename if code else opt.template.fn!r}/{len(marks)}"
    for i, mark in enumerate(marks):
        text = text.replace(mark, f"{{{i}}}")
    return text


def _families(game: Game) -> dict[str, list[OptionSpec]]:
    """Family key (the choose step's label and the open id text) -> its option lines."""
    state = game.new_state(0)
    out: dict[str, list[OptionSpec]] = {}
    for label, opt in _lines(game):
        out.setdefault(f"{label}: {_family_key(opt, state)}", []).append(opt)
    return out


def _collections(game: Game) -> dict[str, frozenset[str]]:
    out = {}
    for name, value in game.env.constants.items():
        if isinstance(value, tuple) and value and all(isinstance(x, str) for x in value):
            out[name] = frozenset(value)
    return out


def _domain(
    observed: set[Any], text: str, collections: dict[str, frozenset[str]], game: Game
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
    named: set[str] = set()
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
    """The action and observation spaces of one configuration (built once, then cached); the
    same for every order of ``overlays``."""
    # a journal build: the encoder reads what each step wrote instead of comparing fields
    game = load_game(game_name, players, list(overlays), dict(options), journal=True)
    canon = tuple(sorted(overlays))
    probe = (
        game
        if canon == tuple(overlays)
        else load_game(game_name, players, list(canon), dict(options))
    )
    families = _families(probe)
    keys = sorted(families)
    fam_of = {id(opt): i for i, key in enumerate(keys) for opt in families[key]}
    arity = [len(families[key][0].slots) for key in keys]
    observed: list[list[set[Any]]] = [[set() for _ in range(k)] for k in arity]
    seen: dict[Group, set[str]] = {}
    walked: set[tuple[Group, str]] = set()
    for g in range(PROBE_GAMES):
        state = probe.new_state(PROBE_SEED + g)
        state.log = None
        rng = random.Random(PROBE_SEED + g)
        while True:
            for seat in range(players):
                _note_features(seat_view(probe.rules, state, seat, shared=True), seen, walked)
            if state.is_over:
                break
            for _spec, opt, values in (state.pending or {}).values():
                for slot, value in zip(observed[fam_of[id(opt)]], values, strict=True):
                    slot.add(value)
            state.apply(rng.choice(sorted(state.legal_options())))
    collections = _collections(probe)
    domains: list[list[tuple[Any, ...]]] = []
    offsets: list[int] = []
    size = 0
    for key, seen_values in zip(keys, observed, strict=True):
        texts = [_domain_text(families[key], i) for i in range(len(seen_values))]
        doms = [
            _domain(values, text, collections, probe)
            for values, text in zip(seen_values, texts, strict=True)
        ]
        domains.append(doms)
        offsets.append(size)
        count = 1
        for d in doms:
            count *= len(d)
        size += count
    actions = ActionSpace(keys, domains, offsets, size)
    actions._index = [[{v: i for i, v in enumerate(d)} for d in doms] for doms in domains]
    actions.names = _action_names(probe, [families[k][0] for k in keys], domains)
    # the option lines of the game played (its overlays in the order given) map by their key
    played = families if probe is game else _families(game)
    at = {key: i for i, key in enumerate(keys)}
    actions._family = {id(opt): at[k] for k, opts in played.items() if k in at for opt in opts}
    layout = Layout.of(seen, players)
    observations = ObservationSpace(
        layout.head,
        layout.globals,
        layout.player,
        players,
        layout.global_slices,
        layout.player_slices,
    )
    return Spaces(game, actions, observations)


def _note_features(view: View, seen: dict[Group, set[str]], walked: set[tuple[Group, str]]) -> None:
    """Add the view's feature names to ``seen``, group by group. A field's names follow from its
    path and value alone, so a value its group has shown before (the same ``repr``: the view
    holds plain JSON-able values, whose ``repr`` tells their type and contents) is not walked
    again: from one decision to the next most fields are unchanged."""
    for group, head in head_features(view):
        seen.setdefault(group, set()).update(name for name, _ in head)
    for group, path, value in field_values(view):
        key = (group, repr(value))
        if key in walked:
            continue
        walked.add(key)
        pairs: list[tuple[str, float]] = []
        walk(path, value, pairs)
        seen.setdefault(group, set()).update(name for name, _ in pairs)


def _domain_text(lines: list[Any], i: int) -> str:
    """The ``for`` texts of argument ``i`` of a family's lines (they name collections)."""
    texts = []
    for opt in lines:
        code = getattr(opt.domains[i].fn, "__code__", None)
        texts.append(code.co_filename if code else "")
    return " ".join(texts)


def _action_names(game: Game, lines: list[Any], domains: list[list[tuple]]) -> list[str]:
    """Each action's option id as the ruleset would write it (for people and logs)."""
    import itertools

    state = game.new_state(0)
    names = []
    for opt, doms in zip(lines, domains, strict=True):
        for values in itertools.product(*doms):
            for slot, value in zip(opt.slots, values, strict=True):
                state.t[slot] = value
            try:
                names.append(str(opt.template.fn(state)))
            except Exception:  # noqa: BLE001 - a template reading more than its slots
                names.append(":".join(["?", *map(str, values)]))
    return names
