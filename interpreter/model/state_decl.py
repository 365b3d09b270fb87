"""The `state:` declarations: each global and per-seat field's kind and start value, which
fields are hidden from the other seats, and which live only for a phase or a round (`scope:`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from interpreter.dsl.compiler import Env
from interpreter.dsl.runtime.runtime_state import RunningState
from interpreter.dsl.runtime.support import initial_value
from interpreter.model.host import DslHost
from interpreter.model.values import hint
from interpreter.ruleset.definitions import Named
from interpreter.ruleset.ruleset import Ruleset
from interpreter.ruleset.sections import FieldDecl

# `scope: phase` / `scope: round`: the field goes back to its start value by itself when the
# phase (the outermost one: a phase run from inside another belongs to it) or the round starts
# and ends, and player views leave it out while none runs. Piles and areas hold pieces that a
# reset would destroy, so only counters, values and bags may be local (the schema says so).
LOCAL_SCOPES = ("phase", "round")

Reset = Callable[[RunningState], None]
# a counter's least and greatest value (None: no bound)
Bounds = tuple[int | None, int | None]


@dataclass
class StateFields:
    global_init: dict[str, tuple[str, Any]] = field(default_factory=dict)  # name -> (kind, start)
    player_init: dict[str, tuple[str, Any]] = field(default_factory=dict)
    hidden_global: set[str] = field(default_factory=set)
    hidden_player: set[str] = field(default_factory=set)
    hidden_all: set[str] = field(default_factory=set)  # not even a pile's size is shown
    # what each pile, bag or area holds (a set or catalog name): a seat's determinisation
    # resamples hidden piles from the unseen ids of the same collection
    collections: dict[str, str] = field(default_factory=dict)
    # scope -> the (global or player, field) pairs local to it
    local: dict[str, list[tuple[str, str]]] = field(
        default_factory=lambda: {scope: [] for scope in LOCAL_SCOPES}
    )
    # `remember: [field, ...]`: ids a seat sees leave one of these piles for a place it cannot
    # see are remembered there (infoset/knowledge.py); the search bot's sampler keeps them there.
    # A hidden per-seat counter or value named here changes in full sight (only its total is
    # kept face down): the sampler keeps its true value
    remember: tuple[str, ...] = ()

    def reset(self, scope: str) -> Reset | None:
        """What puts the fields local to `scope` back to their start values (None: there are
        none, so the flow emits nothing and games without local fields run as before)."""
        local = self.local[scope]
        if not local:
            return None
        globals_ = [(n, *self.global_init[n]) for where, n in local if where == "global"]
        players = [(n, *self.player_init[n]) for where, n in local if where == "player"]

        def reset(s: RunningState) -> None:
            g = s.g
            tj = s.tj  # a journal build's notes (dsl/emit/journal.py)
            for name, kind, start in globals_:
                g[name] = initial_value(kind, start)
                if tj is not None:
                    tj.append((-1, name))
            for pl in s.p:
                for name, kind, start in players:
                    pl[name] = initial_value(kind, start)
                    if tj is not None:
                        tj.append((pl["seat"], name))

        return reset


def declare_state(
    host: DslHost, env: Env, ruleset: Ruleset, declared: Sequence[FieldDecl]
) -> StateFields:
    """Every declared field (`declared`: the ruleset's, with those the engine adds), also
    entered into `env` (global and player field kinds)."""
    sets = {name: [str(x) for x in s.items] for name, s in ruleset.definitions.sets.items()}
    catalogs = ruleset.catalogs
    out = StateFields()
    for where, target, hidden, fields_out in (
        ("global", out.global_init, out.hidden_global, env.global_fields),
        ("player", out.player_init, out.hidden_player, env.player_fields),
    ):
        for decl in declared:
            if decl.scope != where:
                continue
            fname, fpath = decl.name, list(decl.path)
            kind = decl.kind or "value"
            start: object = decl.start
            if kind in ("bag", "pile", "area"):
                over = str(decl.holds)
                if over not in sets and over not in catalogs:
                    host.error(
                        [*fpath, kind],
                        "R001",
                        f"unknown set or catalog '{over}'",
                        hint(over, [*sets, *catalogs]),
                    )
                    members: list[str] = []
                else:
                    members = sets.get(over) or list(catalogs[over].entries)
                start = members if kind == "bag" else None
                out.collections[fname] = over
            if where == "global" and fname in env.constants:
                host.error(fpath, "R002", f"'{fname}' is already the name of a set, entry or table")
            if kind == "counter" and (decl.low is not None or decl.high is not None):
                # whole numbers or none, as the schema says
                env.ranges[(where, fname)] = cast(Bounds, (decl.low, decl.high))
            target[fname] = (kind, start)
            if decl.lasts in LOCAL_SCOPES:
                out.local[decl.lasts].append((where, fname))
            fields_out[fname] = kind
            if decl.hidden:
                hidden.add(fname)
                if decl.hidden_all:
                    out.hidden_all.add(fname)
    _check_stocks(declared, env, host)
    out.remember = _remembered(ruleset.remember, out, host)
    return out


def _remembered(names: Sequence[Named], out: StateFields, host: DslHost) -> tuple[str, ...]:
    """The fields named by `state: remember:`: each a declared pile (global or per seat), or
    a hidden per-seat counter or value whose every change all seats see."""
    piles = [
        n
        for init in (out.global_init, out.player_init)
        for n, (kind, _start) in init.items()
        if kind == "pile"
    ]
    hidden = out.hidden_player
    counted = [n for n, (kind, _s) in out.player_init.items() if kind != "pile" and n in hidden]
    found: list[str] = []
    for named in names:
        name = named.name
        if name not in piles and name not in counted:
            kind = out.global_init.get(name, out.player_init.get(name, (None,)))[0]
            what = (
                f"'{name}' is a {kind}, neither a pile nor a hidden player field"
                if kind
                else f"unknown field '{name}'"
            )
            host.error(list(named.path), "R001", f"remember: {what}", hint(name, piles + counted))
        elif name not in found:
            found.append(name)
    return tuple(found)


def _check_stocks(declared: Sequence[FieldDecl], env: Env, host: DslHost) -> None:
    """A counter's `stock:` must name a global counter (not itself)."""
    counters = [k for k, kind in env.global_fields.items() if kind == "counter"]
    for where in ("global", "player"):
        for decl in declared:
            stock = decl.stock
            if decl.scope != where or stock is None:
                continue
            if stock not in counters or (where, decl.name) == ("global", stock):
                host.error(
                    [*decl.path, "stock"],
                    "R001",
                    f"a counter's stock must be another global counter, not '{stock}'",
                    hint(stock, counters),
                )
