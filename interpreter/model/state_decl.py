"""The `state:` declarations: each global and per-seat field's kind and start value, which
fields are hidden from the other seats, and which live only for a phase or a round (`scope:`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from interpreter.dsl.compiler import Env
from interpreter.dsl.runtime.support import initial_value
from interpreter.model.host import DslHost
from interpreter.model.values import hint, plain

FIELD_KINDS = ("counter", "value", "bag", "pile", "area")
# `scope: phase` / `scope: round`: the field goes back to its start value by itself when the
# phase (the outermost one: a phase run from inside another belongs to it) or the round starts
# and ends, and player views leave it out while none runs. Piles and areas hold pieces that a
# reset would destroy, so only counters, values and bags may be local (the schema says so).
LOCAL_SCOPES = ("phase", "round")

Reset = Callable[[Any], None]


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

        def reset(s: Any) -> None:
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


def declare_state(host: DslHost, env: Env, data: Any) -> StateFields:
    """Every declared field, also entered into `env` (global and player field kinds)."""
    sets = {str(k): [str(x) for x in v] for k, v in (data.get("sets") or {}).items()}
    catalogs = data.get("catalogs") or {}
    state_decl = data.get("state") or {}
    out = StateFields()
    for where, target, hidden, fields_out in (
        ("global", out.global_init, out.hidden_global, env.global_fields),
        ("player", out.player_init, out.hidden_player, env.player_fields),
    ):
        for fname, decl in (state_decl.get(where) or {}).items():
            fname = str(fname)
            fpath = ["state", where, fname]
            kind, start = _field_kind(decl)
            if kind in ("bag", "pile", "area"):
                over = str(decl[kind])
                if over not in sets and over not in catalogs:
                    host.error(
                        [*fpath, kind],
                        "R001",
                        f"unknown set or catalog '{over}'",
                        hint(over, [*sets, *catalogs]),
                    )
                    members: list[str] = []
                else:
                    members = sets.get(over) or [str(e) for e in catalogs[over].get("entries", {})]
                start = members if kind == "bag" else None
                out.collections[fname] = over
            if where == "global" and fname in env.constants:
                host.error(fpath, "R002", f"'{fname}' is already the name of a set, entry or table")
            if kind == "counter":
                lo, hi = plain(decl.get("min", 0)), plain(decl.get("max"))
                if lo is not None or hi is not None:
                    env.ranges[(where, fname)] = (lo, hi)
            target[fname] = (kind, start)
            scope = str(decl.get("scope", "game"))
            if scope in LOCAL_SCOPES:
                out.local[scope].append((where, fname))
            fields_out[fname] = kind
            if decl.get("hidden"):
                hidden.add(fname)
                if decl.get("hidden") == "all":
                    out.hidden_all.add(fname)
    _check_stocks(state_decl, env, host)
    out.remember = _remembered(state_decl, out, host)
    return out


def _remembered(state_decl: Any, out: StateFields, host: Any) -> tuple[str, ...]:
    """The fields named by `state: remember:`: each a declared pile (global or per seat), or
    a hidden per-seat counter or value whose every change all seats see."""
    names = state_decl.get("remember") or []
    piles = [
        n
        for init in (out.global_init, out.player_init)
        for n, (kind, _start) in init.items()
        if kind == "pile"
    ]
    hidden = out.hidden_player
    counted = [n for n, (kind, _s) in out.player_init.items() if kind != "pile" and n in hidden]
    found: list[str] = []
    for i, name in enumerate(names):
        name = str(name)
        if name not in piles and name not in counted:
            kind = out.global_init.get(name, out.player_init.get(name, (None,)))[0]
            what = (
                f"'{name}' is a {kind}, neither a pile nor a hidden player field"
                if kind
                else f"unknown field '{name}'"
            )
            host.error(
                ["state", "remember", i], "R001", f"remember: {what}", hint(name, piles + counted)
            )
        elif name not in found:
            found.append(name)
    return tuple(found)


def _check_stocks(state_decl: Any, env: Any, host: Any) -> None:
    """A counter's `stock:` must name a global counter (not itself)."""
    counters = [k for k, kind in env.global_fields.items() if kind == "counter"]
    for where in ("global", "player"):
        for fname, decl in (state_decl.get(where) or {}).items():
            stock = decl.get("stock") if hasattr(decl, "get") else None
            if stock is None:
                continue
            if str(stock) not in counters or (where, str(fname)) == ("global", str(stock)):
                host.error(
                    ["state", where, str(fname), "stock"],
                    "R001",
                    f"a counter's stock must be another global counter, not '{stock}'",
                    hint(str(stock), counters),
                )


def _field_kind(decl: Any) -> tuple[str, Any]:
    for kind in FIELD_KINDS:
        if kind in decl:
            return kind, plain(decl[kind]) if kind in ("counter", "value") else None
    return "value", None
