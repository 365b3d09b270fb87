"""The public entry point: load a ruleset into an immutable Game, then play States of it.

    game = load_game("my-game", players=4)      # a name under rulesets/, or a path to a file
    state = game.new_state(seed=7)             # set up, advanced to the first decision
    state.to_move                              # the seat that must decide
    state.legal_options()                      # every legal option id, e.g. ['pick:red', ...]
    state.apply("pick:red")                    # an illegal id raises; the state is unchanged

See docs/api.md for the whole surface.
"""

from __future__ import annotations

import random
from typing import Any

from interpreter.engine.state import RULE_FAILURES, Result, State, rule_failure, run
from interpreter.model.flow import ChooseSpec
from interpreter.model.rules import Rules

__all__ = ["Game"]


class Game:
    """One ruleset compiled for a player count, overlays and options. Immutable; share freely."""

    def __init__(
        self,
        rules: Rules,
        name: str,
        title: str,
        players: int,
        overlays: tuple[str, ...],
        options: dict[str, Any],
        sources: list[str],
    ) -> None:
        self.rules = rules
        self.env = rules.env
        self.program = rules.program
        self.name = name
        self.title = title
        self.players = players
        self.overlays = overlays
        self.options = options
        self.sources = sources
        self.env.runtime["fire"] = self.fire
        self.env.runtime["ability"] = self.ability
        self._areas = rules.player_areas
        self._hooks = rules.hooks
        self._active = rules.active
        self._abilities = rules.env.abilities

    def __repr__(self) -> str:
        extra = f" with {','.join(self.overlays)}" if self.overlays else ""
        return f"<Game {self.name} {self.players} players{extra}>"

    # -- states ---------------------------------------------------------------------------
    def new_state(self, seed: int = 0) -> State:
        """A fresh game, set up and advanced to its first decision."""
        g: dict[str, Any] = {}
        for name, (kind, start) in self.rules.global_init.items():
            g[name] = _initial(kind, start)
        p = []
        for seat in range(self.players):
            d: dict[str, Any] = {"seat": seat}
            for name, (kind, start) in self.rules.player_init.items():
                d[name] = _initial(kind, start)
            p.append(d)
        s = State(game=self, g=g, p=p, v={}, rng=random.Random(seed), seed=seed)
        self.advance(s)
        return s

    def advance(self, s: State) -> None:
        try:
            run(self, s)
        except RULE_FAILURES as e:
            raise rule_failure(e) from None

    # -- what the flow VM calls -------------------------------------------------------------
    def enumerate(self, s: State, spec: ChooseSpec) -> dict[str, tuple]:
        out: dict[str, tuple] = {}
        t = s.t
        for opt in spec.options:
            n = len(opt.slots)
            if n == 0:
                if opt.condition is None or opt.condition(s):
                    oid = opt.template(s)
                    if oid not in out:
                        out[oid] = (spec, opt, ())
            elif n == 1:
                key = opt.slots[0]
                cond = opt.condition
                for x in list(opt.domains[0](s)):
                    t[key] = x
                    if cond is None or cond(s):
                        oid = opt.template(s)
                        if oid not in out:
                            out[oid] = (spec, opt, (x,))
            else:
                self._nested(s, spec, opt, 0, (), out)
        return out

    def _nested(self, s: State, spec: ChooseSpec, opt: Any, depth: int, bound: tuple, out: dict):
        key = opt.slots[depth]
        last = depth == len(opt.slots) - 1
        for x in list(opt.domains[depth](s)):
            s.t[key] = x
            values = (*bound, x)
            if not last:
                self._nested(s, spec, opt, depth + 1, values, out)
                # restore this level's binding for the next iteration's domain evaluation
                s.t[key] = x
                continue
            if opt.condition is None or opt.condition(s):
                oid = opt.template(s)
                if oid not in out:
                    out[oid] = (spec, opt, values)

    def is_active(self, s: State, piece: dict) -> bool:
        entry = self._active.get(piece["type"])
        if entry is None:
            return True
        pred, key = entry
        s.t[key] = piece
        return bool(pred(s))

    def ability(self, s: State, who: Any, name: str) -> int:
        """Sum of what the active pieces of seat `who` grant for `name`."""
        cache = s.ab
        total = cache.get((who, name))
        if total is not None:
            return total
        grants = self._abilities[name]
        pl = s.p[who]
        total = 0
        for area in self._areas:
            for piece in pl[area]:
                amount = grants.get(piece["type"])
                if amount and self.is_active(s, piece):
                    total += amount
        cache[(who, name)] = total
        return total

    def fire(self, s: State, event: str, args: list) -> None:
        """Run the hooks of `event` on the active pieces of the seat named first in `args`."""
        hooks = self._hooks.get(event)
        if not hooks:
            return
        seat = args[0]
        pl = s.p[seat]
        t = s.t
        for area in self._areas:
            for piece in list(pl[area]):
                hook = hooks.get(piece["type"])
                if hook is None or not self.is_active(s, piece):
                    continue
                t[hook.self_key] = piece
                t[hook.owner_key] = seat
                for key, value in zip(hook.param_keys, args, strict=True):
                    t[key] = value
                hook.fn(s)

    def round_over(self, s: State) -> bool:
        return bool(self.rules.round_over(s))

    def finish(self, s: State) -> None:
        sc = self.rules.scoring
        if sc.before is not None:
            sc.before(s)
        scores = []
        for seat in range(self.players):
            s.t[sc.seat_key] = seat
            comps = {name: int(fn(s)) for name, fn in sc.components}
            tb = int(sc.tiebreak(s)) if sc.tiebreak is not None else 0
            scores.append(
                {"seat": seat, "total": sum(comps.values()), "components": comps, "tiebreak": tb}
            )
        best = max((x["total"], x["tiebreak"]) for x in scores)
        winners = [x["seat"] for x in scores if (x["total"], x["tiebreak"]) == best]
        trigger = self.rules.trigger(s) if self.rules.trigger is not None else None
        s._result = Result(
            scores=scores,
            winner=winners[0],
            winners=winners,
            rounds=s.round,
            decisions=s.decisions,
            trigger=None if trigger is None else str(trigger),
        )
        s.over = True
        s.pending = None
        s.who = None
        if s.log is not None:
            s.log.append((s.round, None, f"game over ({trigger})" if trigger else "game over"))

    def view(self, s: State, seat: int) -> dict[str, Any]:
        """What one seat may see: hidden piles (global, or another seat's) show only a count; other
        seats' other hidden fields are omitted; fields hidden as ``all`` show not even a count."""
        from interpreter.engine.state import _copy_tree

        g: dict[str, Any] = {}
        hidden_all = self.rules.hidden_all
        for name, value in s.g.items():
            if name in self.rules.hidden_global:
                g[name] = {"hidden": True}
                if name not in hidden_all and type(value) is list:
                    g[name]["count"] = len(value)
            else:
                g[name] = _copy_tree(value)
        players = []
        hidden = self.rules.hidden_player
        for pl in s.p:
            own = pl["seat"] == seat
            shown: dict[str, Any] = {}
            for k, v in pl.items():
                if own or k not in hidden:
                    shown[k] = _copy_tree(v)
                elif type(v) is list and k not in hidden_all:
                    # a hidden pile (a hand): others see how many, not which
                    shown[k] = {"hidden": True, "count": len(v)}
            players.append(shown)
        return {
            "seat": seat,
            "round": s.round,
            "to_move": s.to_move,
            "global": g,
            "players": players,
        }


def _initial(kind: str, start: Any) -> Any:
    if kind == "counter":
        return int(start or 0)
    if kind == "bag":
        return dict.fromkeys(start, 0)
    if kind in ("pile", "area"):
        return []
    return start
