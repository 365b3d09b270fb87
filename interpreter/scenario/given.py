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
from collections.abc import Collection
from typing import Any

from interpreter.diagnostics.suggest import did_you_mean
from interpreter.ruleset.nodes import Plain, Pos
from interpreter.ruleset.scenariosteps import SetupSpec
from interpreter.scenario.balance import _balance, _balance_stocks, _stocked, _totals
from interpreter.scenario.fields import FieldInfo, SetupError, field_info

__all__ = ["FieldInfo", "SetupError", "apply_setup", "field_info"]


def _hint(name: str, known: Collection[str]) -> str:
    guess = did_you_mean(name, list(known))
    return f"; did you mean '{guess}'?" if guess else ""


def _count(x: Plain, where: Pos, what: str) -> int:
    if isinstance(x, bool) or not isinstance(x, int):
        raise SetupError(f"{what} must be a whole number, not {x!r}", where)
    if x < 0:
        raise SetupError(f"{what} cannot be negative ({x})", where)
    return x


def _check_id(
    x: Plain, domain: tuple[str, ...] | None, info: FieldInfo, where: Pos, what: str
) -> str:
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
    item: Plain, domain: tuple[str, ...] | None, info: FieldInfo, where: Pos, what: str
) -> dict[str, Any]:
    given: dict[str, Plain]
    written: Plain
    if isinstance(item, str):
        written, given = item, {}
    elif isinstance(item, dict) and "type" in item:
        written, given = item["type"], {k: v for k, v in item.items() if k != "type"}
    else:
        raise SetupError(f"{what}: a piece is an id or a map with `type:`, not {item!r}", where)
    kind = _check_id(written, domain, info, where, what)
    piece = {"type": kind, **info.piece_fields.get(kind, {})}
    _patch_piece(piece, given, info, where, f"{what} {kind}")
    return piece


def _patch_piece(
    piece: dict[str, Any], given: dict[str, Plain], info: FieldInfo, where: Pos, what: str
) -> None:
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
    value: Plain,
    info: FieldInfo,
    where: Pos,
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


def apply_setup(s: Any, setup: SetupSpec, info: FieldInfo) -> list[str]:
    """Apply `setup` to state `s`; returns readable notes of what the reserves gave or took."""
    for name in setup.uncounted:
        if name not in info.global_kinds and name not in info.player_kinds:
            known = [*info.global_kinds, *info.player_kinds]
            raise SetupError(
                f"uncounted: there is no field '{name}'{_hint(name, known)}", setup.pos
            )
    before = _totals(s, info, setup.uncounted) if setup.check_totals else Counter()
    held = {stock: _stocked(s, holders) for stock, holders in info.stocks.items()}
    snapshot = {
        name: (list(v) if isinstance(v, list) else dict(v) if isinstance(v, dict) else v)
        for name, v in s.g.items()
    }
    named_global: set[str] = set()
    named_player: set[tuple[int, str]] = set()  # (seat, field) the set-up sets
    stacks: list[tuple[dict[str, Any], str, str, dict[str, Plain], Pos, str]] = []
    players = len(s.p)
    for one in setup.targets:
        target = one.target
        if target == "global":
            holders = [("global", s.g, info.global_kinds, "global")]
        elif target == "every":
            holders = [("player", pl, info.player_kinds, f"seat {i}") for i, pl in enumerate(s.p)]
        else:
            if not 0 <= int(target) < players:
                raise SetupError(
                    f"there is no seat {target} in a {players}-player game (seats 0-{players - 1})",
                    setup.pos,
                )
            holders = [("player", s.p[int(target)], info.player_kinds, f"seat {target}")]
        for set_field in one.fields:
            name, value, where = set_field.name, set_field.value, set_field.pos
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
    value: dict[str, Plain],
    domain: tuple[str, ...] | None,
    info: FieldInfo,
    where: Pos,
    what: str,
) -> None:
    """`{top: [a, b]}`: a and b, taken out of the pile itself, go on its top, a drawn first."""
    if set(value) != {"top"} or not isinstance(value["top"], list):
        raise SetupError(
            f"{what} is a pile: give a list of ids (bottom first) or {{top: [ids]}} (the first "
            f"drawn first), not {value!r}",
            where,
        )
    top = value["top"]
    wanted = list(top) if isinstance(top, list) else []
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
