"""Keeping a set-up's totals: every id counted over every bag, pile and area stays what it
was, the difference taken from (or given back to) its reserve, or from where a unique id is
now; counters stocked from a global counter keep their total with it (scenario/given.py says
what is checked and refused)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from interpreter.engine.state import State
from interpreter.ruleset.scenariosteps import SetupSpec
from interpreter.scenario.fields import FieldInfo, SetupError

__all__: list[str] = []


def _totals(s: State, info: FieldInfo, uncounted: tuple[str, ...] = ()) -> Counter:
    """Every id's count over every bag, pile and area of the state (but `uncounted` ones)."""
    c: Counter = Counter()

    def add(holder: dict[str, Any], kinds: dict[str, str]) -> None:
        for name, kind in kinds.items():
            if name in uncounted:
                continue
            v: Any = holder.get(name)
            if kind == "bag":
                for k, n in v.items():
                    if n:
                        c[k] += n
            elif kind == "pile":
                c.update(x for x in v if isinstance(x, str))
            elif kind == "area":
                c.update(p["type"] for p in v)

    add(s.g, info.global_kinds)
    for pl in s.p:
        add(pl, info.player_kinds)
    return c


def _holds(s: State, name: str, kind: str, x: str) -> int:
    v = s.g[name]
    if kind == "bag":
        return int(v.get(x, 0))
    if kind == "pile":
        return v.count(x)
    return 0


def _balance(
    s: State,
    setup: SetupSpec,
    info: FieldInfo,
    before: Counter,
    snapshot: dict[str, Any],
    named: set[str],
    named_player: set[tuple[int, str]] = frozenset(),  # type: ignore[assignment]
) -> list[str]:
    after = _totals(s, info, setup.uncounted)
    free = [
        (name, kind)
        for name, kind in info.global_kinds.items()
        if kind in ("bag", "pile") and name not in named and name not in setup.uncounted
    ]
    notes: list[str] = []
    for x in sorted(set(before) | set(after)):
        if after[x] != before[x] and before[x] != 0:
            # (an id no bag, pile or area held before: its stock is a plain counter, unchecked)
            notes += _balance_id(
                s, setup, info, x, (before[x], after[x]), snapshot, named_player, free
            )
    return notes


def _balance_id(
    s: State,
    setup: SetupSpec,
    info: FieldInfo,
    x: str,
    counts: tuple[int, int],
    snapshot: dict[str, Any],
    named_player: set[tuple[int, str]],
    free: list[tuple[str, str]],
) -> list[str]:
    """Bring id ``x`` back to its count before the set-up (``counts``: before, after) from a
    reserve the set-up leaves alone, or from a seat; the notes say what moved where."""
    delta = counts[1] - counts[0]
    reserves = [(_holds_snapshot(snapshot, name, kind, x), name, kind) for name, kind in free]
    reserves = [r for r in reserves if r[0] > 0]
    held_globally = any(
        _holds_snapshot(snapshot, name, kind, x)
        for name, kind in info.global_kinds.items()
        if kind in ("bag", "pile")
    )
    notes: list[str] = []
    if not reserves and delta < 0 and not held_globally:
        # taken off a seat (a hand or city replaced) and out of the game: back to the
        # biggest global bag or pile of its set, as if never dealt
        home = _home(s, info, x, free)
        if home is not None:
            _move(s.g, home[0], home[1], x, -delta)
            return [f"put {-delta} {x} back in {home[0]}"]
    if delta > 0:
        # what no reserve holds enough of is taken from a seat that holds it now
        short = delta - sum(r[0] for r in reserves)
        if short > 0:
            taken = _from_seats(s, info, x, short, named_player, setup, free)
            if taken is not None:
                notes += taken
                delta -= short
                if delta == 0:
                    return notes
    if not reserves:
        raise _unbalanced(s, setup, info, x, counts, delta, snapshot)
    reserves.sort(key=lambda r: -r[0])
    _have, name, kind = reserves[0]
    if delta > 0 and _holds(s, name, kind, x) < delta:
        raise SetupError(
            f"the set-up puts {delta} more '{x}' into play than its reserve '{name}' "
            f"holds ({_holds(s, name, kind, x)}); there are only {counts[0]} '{x}' in all",
            setup.pos,
        )
    _move(s.g, name, kind, x, -delta)
    notes.append(
        f"took {delta} {x} from {name}" if delta > 0 else f"put {-delta} {x} back in {name}"
    )
    return notes


def _unbalanced(
    s: State,
    setup: SetupSpec,
    info: FieldInfo,
    x: str,
    counts: tuple[int, int],
    delta: int,
    snapshot: dict[str, Any],
) -> SetupError:
    """The set-up changed how many ``x`` there are and no reserve can make up the difference."""
    was = _zones_holding(s, info, x, snapshot)
    now = _seats_holding(s, info, x)
    verb = "more" if delta > 0 else "fewer"
    seats = " nor enough in seats' fields it does not set" if delta > 0 else ""
    where = []
    if was:
        where.append(
            f"it was in: {', '.join(was)}, which the set-up sets; a bag is set to "
            "exactly the counts given, the rest 0"
        )
    if now:
        where.append(f"it is now in: {', '.join(now)}")
    return SetupError(
        f"'{x}': the set-up leaves {counts[1]} in the game, {abs(delta)} {verb} than the "
        f"{counts[0]} there are, and no global bag or pile it leaves alone holds '{x}'"
        f"{seats} to balance that{' (' + '; '.join(where) + ')' if where else ''}. "
        "Put them somewhere, or add `check-totals: false`",
        setup.pos,
    )


def _stocked(s: State, holders: list[tuple[str, str]]) -> int:
    """What the counters stocked from one stock hold together."""
    total = 0
    for scope, name in holders:
        for holder in [s.g] if scope == "global" else s.p:
            total += int(holder.get(name) or 0)
    return total


def _balance_stocks(
    s: State, setup: SetupSpec, info: FieldInfo, held: dict[str, int], named: set[str]
) -> list[str]:
    """Counters stocked from a global counter: what a set-up adds comes out of the stock."""
    notes: list[str] = []
    for stock, holders in sorted(info.stocks.items()):
        delta = _stocked(s, holders) - held[stock]
        if delta == 0:
            continue
        what = ", ".join(name for _scope, name in holders)
        if stock in named:
            notes.append(f"left {stock} as set ({delta:+} {what} not balanced against it)")
            continue
        have = int(s.g.get(stock) or 0)
        if delta > have:
            raise SetupError(
                f"the set-up hands out {delta} more {what} than there were, and their stock "
                f"'{stock}' holds only {have}; give fewer, or set `global: {{{stock}: ...}}` "
                "too (then it is taken as given)",
                setup.pos,
            )
        s.g[stock] = have - delta
        notes.append(
            f"took {delta} {what} from {stock}"
            if delta > 0
            else f"put {-delta} {what} back in {stock}"
        )
    return notes


def _holds_snapshot(snapshot: dict[str, Any], name: str, kind: str, x: str) -> int:
    v = snapshot[name]
    if kind == "bag":
        return int(v.get(x, 0))
    return v.count(x)


def _zones_holding(s: State, info: FieldInfo, x: str, snapshot: dict[str, Any]) -> list[str]:
    out = []
    for name, kind in info.global_kinds.items():
        if kind in ("bag", "pile") and _holds_snapshot(snapshot, name, kind, x):
            out.append(f"global {name}")
    return out


def _home(s: State, info: FieldInfo, x: str, free: list[tuple[str, str]]) -> tuple[str, str] | None:
    """The global bag or pile (of those a set-up leaves alone) whose set holds `x` and which
    holds the most: where an id left out of the game goes back (a deck, a supply)."""
    homes = [(name, kind) for name, kind in free if x in info.domains.get(("global", name), ())]
    if not homes:
        return None
    return max(homes, key=lambda h: _size(s.g[h[0]]))


def _size(v: Any) -> int:
    return sum(v.values()) if isinstance(v, dict) else len(v)


def _from_seats(
    s: State,
    info: FieldInfo,
    x: str,
    n: int,
    named_player: set[tuple[int, str]],
    setup: SetupSpec,
    free: list[tuple[str, str]],
) -> list[str] | None:
    """Take `n` of `x` from the seats' fields the set-up does not set (in seat order), notes of
    what was taken; None (nothing taken) when they do not hold `n`. A pile (a hand) gets the
    top of the biggest global pile of its set in place of each card, so it keeps its size."""
    found: list[tuple[int, str, str]] = []
    for pl in s.p:
        for name, kind in info.player_kinds.items():
            if (pl["seat"], name) in named_player or name in setup.uncounted:
                continue
            have = _holds_player(pl, name, kind, x)
            found.extend((pl["seat"], name, kind) for _ in range(have))
    if len(found) < n:
        return None
    notes = []
    for seat, name, kind in found[:n]:
        v = s.p[seat][name]
        if kind == "bag":
            v[x] -= 1
        elif kind == "pile":
            at = v.index(x)
            piles = [(g, k) for g, k in free if k == "pile" and s.g[g]]
            stock = max(
                (p for p in piles if x in info.domains.get(("global", p[0]), ())),
                key=lambda p: len(s.g[p[0]]),
                default=None,
            )
            if stock is not None:
                v[at] = s.g[stock[0]].pop()
                notes.append(
                    f"took 1 {x} from seat {seat} {name}, which got {v[at]} from {stock[0]} "
                    "in its place"
                )
                continue
            del v[at]
        else:
            v.remove(next(p for p in v if p["type"] == x))
        notes.append(f"took 1 {x} from seat {seat} {name}")
    return notes


def _holds_player(pl: dict[str, Any], name: str, kind: str, x: str) -> int:
    v: Any = pl.get(name)
    if kind == "bag":
        return int(v.get(x, 0))
    if kind == "pile":
        return v.count(x)
    if kind == "area":
        return sum(1 for p in v if p["type"] == x)
    return 0


def _seats_holding(s: State, info: FieldInfo, x: str) -> list[str]:
    out = []
    for pl in s.p:
        for name, kind in info.player_kinds.items():
            if _holds_player(pl, name, kind, x):
                out.append(f"seat {pl['seat']} {name}")
    return out


def _move(g: dict[str, Any], name: str, kind: str, x: str, n: int) -> None:
    """Add n (or take -n) of x to the global bag or pile `name`."""
    if kind == "bag":
        g[name][x] = g[name].get(x, 0) + n
        return
    pile = g[name]
    if n > 0:
        # returned pieces go to the bottom, so the next ones drawn stay the same
        pile[:0] = [x] * n
        return
    for _ in range(-n):
        pile.remove(x)  # the lowest first, for the same reason
