"""Apply a scenario's set-up to a running state, in the ruleset's own vocabulary, and refuse
set-ups that break what can be checked without knowing the game.

Checked: every field name (with did-you-mean), every id in a bag, pile or area (against the
set or catalog the ruleset declares for that field), every field of a piece, integer counts
that would be negative, and the *totals*: an id's count summed over every bag, pile and area
(global and per seat) must stay what it was before the set-up. When a set-up adds or removes
some, the difference is taken from (or given back to) the id's *reserve*: the global bag or
pile the set-up does not name that holds most of that id. An id no such reserve holds (a unique
card in a hand, a building already built) is taken from where it is now: a seat's field the
set-up does not set, a hand (a pile) getting the reserve's top card in its place so that it
keeps its size; and an id a set-up leaves out of the game goes back to the global bag or pile of
its set that holds most. If none of these can balance it, the set-up is refused. Counters are
balanced the same way when the ruleset says where they come from (``coins: {counter: 0, stock:
treasury}``): the stock plus every counter stocked from it keeps its total, so coins a set-up
hands a seat come out of the treasury (refused when it holds too few); a set-up that sets the
stock itself is taken as given, and says so in its notes. What cannot be checked generically
(a counter without a declared stock, a piece kind that the rules allow once per seat, a piece
field that holds an id plus a count) is documented in docs/scenarios.md.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from interpreter.diagnostics.suggest import did_you_mean
from interpreter.scenario.format import Setup, Where

__all__ = ["FieldInfo", "SetupError", "apply_setup", "field_info"]


class SetupError(Exception):
    def __init__(self, message: str, where: Where) -> None:
        super().__init__(message)
        self.message = message
        self.where = where


@dataclass
class FieldInfo:
    """What a game's state fields are: kind, and the ids a bag/pile/area may hold."""

    global_kinds: dict[str, str]
    player_kinds: dict[str, str]
    domains: dict[tuple[str, str], tuple[str, ...]]  # (global|player, field) -> ids
    piece_fields: dict[str, dict[str, Any]]  # piece id -> its dynamic fields with defaults
    ids: set[str]  # every id the ruleset declares
    stocks: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    # global counter -> the (global|player, field) counters stocked from it


def field_info(game: Any, data: Any) -> FieldInfo:
    """Built from a compiled game plus its composed rule data (for the `state:` declarations)."""
    env = game.env
    state = data.get("state") or {}
    domains: dict[tuple[str, str], tuple[str, ...]] = {}
    stocks: dict[str, list[tuple[str, str]]] = {}
    for where in ("global", "player"):
        for name, decl in (state.get(where) or {}).items():
            if "counter" in decl and decl.get("stock") is not None:
                stocks.setdefault(str(decl["stock"]), []).append((where, str(name)))
            for kind in ("bag", "pile", "area"):
                if kind in decl:
                    over = env.constants.get(str(decl[kind]))
                    if isinstance(over, tuple):
                        domains[(where, str(name))] = tuple(str(x) for x in over)
    ids: set[str] = set(env.attrs)
    for value in env.constants.values():
        if isinstance(value, str):
            ids.add(value)
    return FieldInfo(
        global_kinds=dict(env.global_fields),
        player_kinds={k: v for k, v in env.player_fields.items() if k != "seat"},
        domains=domains,
        piece_fields={k: dict(v) for k, v in env.piece_defaults.items()},
        ids=ids,
        stocks=stocks,
    )


def _hint(name: str, known: Any) -> str:
    guess = did_you_mean(name, list(known))
    return f"; did you mean '{guess}'?" if guess else ""


def _count(x: Any, where: Where, what: str) -> int:
    if isinstance(x, bool) or not isinstance(x, int):
        raise SetupError(f"{what} must be a whole number, not {x!r}", where)
    if x < 0:
        raise SetupError(f"{what} cannot be negative ({x})", where)
    return x


def _check_id(x: Any, domain: tuple[str, ...] | None, info: FieldInfo, where: Where, what: str):
    if not isinstance(x, str):
        raise SetupError(f"{what}: expected an id, got {x!r}", where)
    known = domain if domain is not None else info.ids
    if x not in known:
        looked = ""
        if domain is not None:
            looked = (
                f" ({what} holds the ids of its set, {len(domain)}: {', '.join(sorted(domain))})"
            )
        raise SetupError(f"{what}: unknown id '{x}'{_hint(x, known)}{looked}", where)
    return x


def _piece(
    item: Any, domain: tuple[str, ...] | None, info: FieldInfo, where: Where, what: str
) -> dict:
    if isinstance(item, str):
        kind, given = item, {}
    elif isinstance(item, dict) and "type" in item:
        kind, given = item["type"], {k: v for k, v in item.items() if k != "type"}
    else:
        raise SetupError(f"{what}: a piece is an id or a map with `type:`, not {item!r}", where)
    _check_id(kind, domain, info, where, what)
    piece = {"type": kind, **info.piece_fields.get(kind, {})}
    _patch_piece(piece, given, info, where, f"{what} {kind}")
    return piece


def _patch_piece(piece: dict, given: dict, info: FieldInfo, where: Where, what: str) -> None:
    fields = info.piece_fields.get(piece["type"], {})
    for name, value in given.items():
        if name not in fields:
            known = list(fields) or ["(none: this piece has no fields)"]
            raise SetupError(
                f"{what} has no field '{name}'{_hint(name, fields)} (fields: {', '.join(known)})",
                where,
            )
        if isinstance(value, int) and not isinstance(value, bool):
            _count(value, where, f"{what} {name}")
        elif isinstance(value, str):
            _check_id(value, None, info, where, f"{what} {name}")
        piece[name] = value


def _set_field(
    holder: dict[str, Any],
    scope: str,
    name: str,
    kind: str,
    value: Any,
    info: FieldInfo,
    where: Where,
    what: str,
) -> None:
    domain = info.domains.get((scope, name))
    if kind == "counter":
        holder[name] = _count(value, where, what)
    elif kind == "value":
        holder[name] = value
    elif kind == "bag":
        if not isinstance(value, dict):
            raise SetupError(f"{what} is a bag: give {{id: count}}, not {value!r}", where)
        bag = holder[name]
        keys = list(bag) if domain is None else list(domain)
        for k, n in value.items():
            _check_id(k, tuple(keys), info, where, what)
            _count(n, where, f"{what} {k}")
        for k in bag:
            bag[k] = 0
        for k, n in value.items():
            bag[k] = n
    elif kind == "pile":
        if not isinstance(value, list):
            raise SetupError(f"{what} is a pile: give a list of ids, not {value!r}", where)
        holder[name] = [_check_id(x, domain, info, where, what) for x in value]
    elif kind == "area":
        if isinstance(value, list):
            holder[name] = [_piece(x, domain, info, where, what) for x in value]
        elif isinstance(value, dict):
            area = holder[name]
            for kind_id, given in value.items():
                _check_id(kind_id, domain, info, where, what)
                found = [p for p in area if p["type"] == kind_id]
                if len(found) != 1:
                    have = sorted({p["type"] for p in area}) or ["nothing"]
                    many = "no" if not found else f"{len(found)} pieces of type"
                    raise SetupError(
                        f"{what} holds {many} '{kind_id}' (it holds: {', '.join(have)}); "
                        "give the whole list to replace it",
                        where,
                    )
                if not isinstance(given, dict):
                    raise SetupError(f"{what} {kind_id}: give {{field: value}}", where)
                _patch_piece(found[0], given, info, where, f"{what} {kind_id}")
        else:
            raise SetupError(f"{what} is an area: give a list of pieces or {{id: fields}}", where)


def _totals(s: Any, info: FieldInfo, uncounted: tuple[str, ...] = ()) -> Counter:
    """Every id's count over every bag, pile and area of the state (but `uncounted` ones)."""
    c: Counter = Counter()

    def add(holder: dict[str, Any], kinds: dict[str, str]) -> None:
        for name, kind in kinds.items():
            if name in uncounted:
                continue
            v = holder.get(name)
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


def _holds(s: Any, name: str, kind: str, x: str) -> int:
    v = s.g[name]
    if kind == "bag":
        return int(v.get(x, 0))
    if kind == "pile":
        return v.count(x)
    return 0


def apply_setup(s: Any, setup: Setup, info: FieldInfo) -> list[str]:
    """Apply `setup` to state `s`; returns readable notes of what the reserves gave or took."""
    for name in setup.uncounted:
        if name not in info.global_kinds and name not in info.player_kinds:
            known = [*info.global_kinds, *info.player_kinds]
            raise SetupError(
                f"uncounted: there is no field '{name}'{_hint(name, known)}", setup.where
            )
    before = _totals(s, info, setup.uncounted) if setup.check_totals else Counter()
    held = {stock: _stocked(s, holders) for stock, holders in info.stocks.items()}
    snapshot = {
        name: (list(v) if isinstance(v, list) else dict(v) if isinstance(v, dict) else v)
        for name, v in s.g.items()
    }
    named_global: set[str] = set()
    named_player: set[tuple[int, str]] = set()  # (seat, field) the set-up sets
    stacks: list[tuple[dict[str, Any], str, str, Any, Where, str]] = []
    players = len(s.p)
    for target, fields, wheres in setup.targets:
        if target == "global":
            holders = [("global", s.g, info.global_kinds, "global")]
        elif target == "every":
            holders = [("player", pl, info.player_kinds, f"seat {i}") for i, pl in enumerate(s.p)]
        else:
            if not 0 <= int(target) < players:
                raise SetupError(
                    f"there is no seat {target} in a {players}-player game (seats 0-{players - 1})",
                    setup.where,
                )
            holders = [("player", s.p[int(target)], info.player_kinds, f"seat {target}")]
        for name, value in fields.items():
            where = wheres.get(name, setup.where)
            for scope, holder, kinds, label in holders:
                if kinds.get(name) == "pile" and isinstance(value, dict):
                    # `{top: [...]}` stacks the pile after the totals are balanced, and leaves
                    # it a reserve meanwhile (the cards dealt to hands come out of it first)
                    stacks.append((holder, scope, name, value, where, f"{label} {name}"))
                    continue
                if name not in kinds:
                    other = info.player_kinds if scope == "global" else info.global_kinds
                    extra = ""
                    if name in other:
                        other_kind = "seat" if scope == "global" else "global"
                        extra = f" ('{name}' is a {other_kind} field)"
                    raise SetupError(
                        f"{label} has no field '{name}'{_hint(name, kinds)}{extra}", where
                    )
                _set_field(holder, scope, name, kinds[name], value, info, where, f"{label} {name}")
                if scope == "global":
                    named_global.add(name)
                else:
                    named_player.add((holder["seat"], name))
    s.ab.clear()
    notes = (
        _balance(s, setup, info, before, snapshot, named_global, named_player)
        if setup.check_totals
        else []
    )
    if setup.check_totals:
        notes += _balance_stocks(s, setup, info, held, named_global)
    for holder, scope, name, value, where, what in stacks:
        _stack(holder[name], value, info.domains.get((scope, name)), info, where, what)
    return notes


def _contents(pile: list[str]) -> str:
    """`it holds 98: a x3, b x3, ...`: what a pile holds, counted by id."""
    if not pile:
        return "it is empty"
    counts = Counter(pile)
    listed = ", ".join(f"{x} x{n}" if n > 1 else x for x, n in sorted(counts.items()))
    return f"it holds {len(pile)}: {listed}"


def _stack(
    pile: list[str],
    value: dict,
    domain: tuple[str, ...] | None,
    info: FieldInfo,
    where: Where,
    what: str,
) -> None:
    """`{top: [a, b]}`: a and b, taken out of the pile itself, go on its top, a drawn first."""
    if set(value) != {"top"} or not isinstance(value["top"], list):
        raise SetupError(
            f"{what} is a pile: give a list of ids (bottom first) or {{top: [ids]}} (the first "
            f"drawn first), not {value!r}",
            where,
        )
    wanted = list(value["top"])
    for x in wanted:
        known = domain if domain is not None else tuple(info.ids)
        if not isinstance(x, str) or x not in known:
            raise SetupError(
                f"{what} top: unknown id {x!r}{_hint(str(x), known)} (looked in {what}; "
                f"{_contents(pile)})",
                where,
            )
    taken: list[str] = []
    for x in wanted:
        if x not in pile:
            have = f"{len(taken)} put aside for the top; " if taken else ""
            raise SetupError(
                f"{what} top: no '{x}' left in {what} to put on top (looked in {what}: "
                f"{have}{_contents(pile)}); a card given elsewhere in the set-up comes out of it "
                "first",
                where,
            )
        # the highest copy: the cards under it keep their order
        del pile[len(pile) - 1 - pile[::-1].index(x)]
        taken.append(x)
    pile.extend(reversed(taken))


def _balance(
    s: Any,
    setup: Setup,
    info: FieldInfo,
    before: Counter,
    snapshot: dict[str, Any],
    named: set[str],
    named_player: set[tuple[int, str]] = frozenset(),  # type: ignore[assignment]
) -> list[str]:
    after = _totals(s, info, setup.uncounted)
    notes: list[str] = []
    for x in sorted(set(before) | set(after)):
        delta = after[x] - before[x]
        if delta == 0 or before[x] == 0:
            # an id no bag, pile or area held before (its stock is a plain counter): unchecked
            continue
        free = [
            (name, kind)
            for name, kind in info.global_kinds.items()
            if kind in ("bag", "pile") and name not in named and name not in setup.uncounted
        ]
        reserves = [(_holds_snapshot(snapshot, name, kind, x), name, kind) for name, kind in free]
        reserves = [r for r in reserves if r[0] > 0]
        held_globally = any(
            _holds_snapshot(snapshot, name, kind, x)
            for name, kind in info.global_kinds.items()
            if kind in ("bag", "pile")
        )
        if not reserves and delta < 0 and not held_globally:
            # taken off a seat (a hand or city replaced) and out of the game: back to the
            # biggest global bag or pile of its set, as if never dealt
            home = _home(s, info, x, free)
            if home is not None:
                _move(s.g, home[0], home[1], x, -delta)
                notes.append(f"put {-delta} {x} back in {home[0]}")
                continue
        if delta > 0:
            # what no reserve holds enough of is taken from a seat that holds it now
            short = delta - sum(r[0] for r in reserves)
            if short > 0:
                taken = _from_seats(s, info, x, short, named_player, setup, free)
                if taken is not None:
                    notes += taken
                    delta -= short
                    if delta == 0:
                        continue
        if not reserves:
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
            raise SetupError(
                f"'{x}': the set-up leaves {after[x]} in the game, {abs(delta)} {verb} than the "
                f"{before[x]} there are, and no global bag or pile it leaves alone holds '{x}'"
                f"{seats} to balance that{' (' + '; '.join(where) + ')' if where else ''}. "
                "Put them somewhere, or add `check-totals: false`",
                setup.where,
            )
        reserves.sort(key=lambda r: -r[0])
        have, name, kind = reserves[0]
        if delta > 0 and _holds(s, name, kind, x) < delta:
            raise SetupError(
                f"the set-up puts {delta} more '{x}' into play than its reserve '{name}' "
                f"holds ({_holds(s, name, kind, x)}); there are only {before[x]} '{x}' in all",
                setup.where,
            )
        _move(s.g, name, kind, x, -delta)
        notes.append(
            f"took {delta} {x} from {name}" if delta > 0 else f"put {-delta} {x} back in {name}"
        )
    return notes


def _stocked(s: Any, holders: list[tuple[str, str]]) -> int:
    """What the counters stocked from one stock hold together."""
    total = 0
    for scope, name in holders:
        for holder in [s.g] if scope == "global" else s.p:
            total += int(holder.get(name) or 0)
    return total


def _balance_stocks(
    s: Any, setup: Setup, info: FieldInfo, held: dict[str, int], named: set[str]
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
                setup.where,
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


def _zones_holding(s: Any, info: FieldInfo, x: str, snapshot: dict[str, Any]) -> list[str]:
    out = []
    for name, kind in info.global_kinds.items():
        if kind in ("bag", "pile") and _holds_snapshot(snapshot, name, kind, x):
            out.append(f"global {name}")
    return out


def _home(s: Any, info: FieldInfo, x: str, free: list[tuple[str, str]]) -> tuple[str, str] | None:
    """The global bag or pile (of those a set-up leaves alone) whose set holds `x` and which
    holds the most: where an id left out of the game goes back (a deck, a supply)."""
    homes = [(name, kind) for name, kind in free if x in info.domains.get(("global", name), ())]
    if not homes:
        return None
    return max(homes, key=lambda h: _size(s.g[h[0]]))


def _size(v: Any) -> int:
    return sum(v.values()) if isinstance(v, dict) else len(v)


def _from_seats(
    s: Any,
    info: FieldInfo,
    x: str,
    n: int,
    named_player: set[tuple[int, str]],
    setup: Setup,
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
    v = pl.get(name)
    if kind == "bag":
        return int(v.get(x, 0))
    if kind == "pile":
        return v.count(x)
    if kind == "area":
        return sum(1 for p in v if p["type"] == x)
    return 0


def _seats_holding(s: Any, info: FieldInfo, x: str) -> list[str]:
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
