"""Expectations: each checks the running state and raises :class:`Failed` with what it expected
and what it found. Rule expressions are compiled with the game's own DSL compiler against the
game's names (so `player(0).<counter>`, `<pool>[<item>]`, `<function>(player(1), <item>)` mean
what they mean in the ruleset), with the flow variables of the moment in scope.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NoReturn

from interpreter.diagnostics.suggest import did_you_mean
from interpreter.dsl.compiler import RuntimeRuleError
from interpreter.dsl.runtime.runtime_state import Fn
from interpreter.engine.frame import Result
from interpreter.engine.game import Game
from interpreter.engine.state import State
from interpreter.model.expressions import MUTATING, ExpressionFault, compile_look
from interpreter.ruleset.nodes import Plain
from interpreter.scenario.format import (
    ANY_ORDER,
    Expectation,
    Where,
    _flow,
    parse_move,
    parse_option_step,
)
from interpreter.scenario.given import FieldInfo
from interpreter.scenario.seen import check_seen

__all__ = ["Failed", "BadScenario", "check", "compile_expression", "MUTATING"]


class Failed(Exception):
    """An expectation does not hold (the scenario fails)."""

    def __init__(self, message: str, where: Where) -> None:
        super().__init__(message)
        self.message = message
        self.where = where


class BadScenario(Exception):
    """The scenario itself is wrong (an expression that does not compile, a bad seat)."""

    def __init__(self, message: str, where: Where) -> None:
        super().__init__(message)
        self.message = message
        self.where = where


def _none(x: Plain) -> Plain:
    return None if x == "none" else x


def _show(actual: object) -> str:
    """A value of the state as a failure shows it (a bag by its non-zero counts)."""
    if (
        isinstance(actual, dict)
        and "type" not in actual
        and all(isinstance(v, int) for v in actual.values())
    ):
        return _flow({k: v for k, v in actual.items() if v}) if any(actual.values()) else "{}"
    return _flow(actual)


def _text_where(where: Where, e: ExpressionFault) -> Where:
    if where.line is None or where.column is None:
        return where
    if e.line == 1:
        return Where(where.file, where.line, where.column + e.column - 1)
    return Where(where.file, where.line + e.line - 1, e.column)


def compile_expression(
    game: Game, s: State, text: str, where: Where
) -> tuple[Fn, Fn | None, str | None]:
    """(whole, left, op): `left`/`op` are set when the text is one comparison, to report it;
    the flow variables of the moment in scope (model/expressions.py, as `rulebook validate`)."""
    names = [k for k in s.v if isinstance(k, str)]
    try:
        return compile_look(game.env, names, text)
    except ExpressionFault as e:
        message = f"in the expression `{text}`: {e.message}"
        raise BadScenario(message, _text_where(where, e)) from None


def _eval(fn: Fn, s: State, text: str, where: Where) -> object:
    try:
        return fn(s)
    except RuntimeRuleError as e:
        raise Failed(f"expected {text}\n    but it could not be evaluated: {e}", where) from None
    except (KeyError, IndexError, TypeError, ValueError, ZeroDivisionError) as e:
        raise Failed(
            f"expected {text}\n    but it could not be evaluated: {type(e).__name__}: {e}", where
        ) from None


def _expr(game: Game, s: State, e: Expectation) -> None:
    text = e.expression
    whole, left, op = compile_expression(game, s, text, e.where)
    ok = _eval(whole, s, text, e.where)
    if ok is True or (ok and not isinstance(ok, bool)):
        return
    if left is not None:
        actual = _eval(left, s, text, e.where)
        lhs = text.split(op, 1)[0].strip() if op else text
        raise Failed(f"expected {text}\n    actual: {lhs} = {_show(actual)}", e.where)
    raise Failed(f"expected {text}\n    actual: {_show(ok)}", e.where)


def _seat(s: State, seat: object, where: Where) -> int:
    n = len(s.p)
    if not isinstance(seat, int) or not 0 <= seat < n:
        raise BadScenario(f"there is no seat {seat} in a {n}-player game", where)
    return seat


def _compare_field(kind: str, actual: Any, expected: Plain) -> bool:
    """Whether a field's value as the state holds it (``actual``: any value, of the shape the
    field's ``kind`` gives it: a number, a bag's counts, a pile's ids, an area's pieces) is the
    one the scenario wrote."""
    if kind in ("counter", "value"):
        return actual == _none(expected)
    if kind == "bag":
        if not isinstance(expected, dict):
            return False
        counts: dict[str, Plain] = {k: 0 for k in actual}
        counts.update(expected)
        return actual == counts
    unordered = _any_order(expected)
    if unordered is not None:
        have = [p["type"] for p in actual] if kind == "area" else list(actual)
        return sorted(have) == sorted(unordered)
    if kind == "pile":
        return list(actual) == _items(expected)
    # area
    if isinstance(expected, dict):
        for kind_id, fields in expected.items():
            found = [p for p in actual if p["type"] == kind_id]
            if len(found) != 1:
                return False
            given = fields if isinstance(fields, dict) else {}
            if any(found[0].get(k) != _none(v) for k, v in given.items()):
                return False
        return True
    if not isinstance(expected, list) or len(expected) != len(actual):
        return False
    for want, have in zip(expected, actual, strict=True):
        if isinstance(want, str):
            if have["type"] != want:
                return False
        elif not isinstance(want, dict):
            return False
        elif any(have.get(k) != _none(v) for k, v in want.items()):
            return False
    return True


def _items(value: Plain) -> list[Plain]:
    """The items of a list as written (none for no value; a text's letters, a map's keys)."""
    return list(value) if isinstance(value, list | str | dict) else []


def _any_order(expected: Plain) -> list[str] | None:
    """`{any order: [a, b]}`: the ids of a pile or area compared as a multiset."""
    if isinstance(expected, dict) and set(expected) == {ANY_ORDER}:
        return [str(x) for x in _items(expected[ANY_ORDER])]
    return None


def _area_show(actual: list[Any], expected: Plain) -> list[Any]:
    if _any_order(expected) is not None:
        return [p["type"] for p in actual]
    detailed = isinstance(expected, dict) or any(isinstance(w, dict) for w in _items(expected))
    if not detailed:
        return [p["type"] for p in actual]
    return actual


def _fields(s: State, e: Expectation, info: FieldInfo) -> None:
    if e.seat == "global":
        holder, kinds, label = s.g, info.global_kinds, "global"
    else:
        seat = _seat(s, e.seat, e.where)
        holder, kinds, label = s.p[seat], info.player_kinds, f"seat {seat}"
    fields = e.value if isinstance(e.value, dict) else {}
    for name, expected in fields.items():
        where = e.field_where.get(name, e.where)
        if name not in kinds:
            guess = did_you_mean(name, kinds)
            hint = f"; did you mean '{guess}'?" if guess else ""
            raise BadScenario(f"{label} has no field '{name}'{hint}", where)
        kind = kinds[name]
        actual = holder[name]
        if not _compare_field(kind, actual, expected):
            shown = _area_show(actual, expected) if kind == "area" else actual
            raise Failed(
                f"expected {label} {name}: {_flow(expected)}\n    actual: {_show(shown)}", where
            )


def _legal_for(s: State, seat: int) -> list[str] | None:
    if s.is_over or s.to_move != seat:
        return None
    return s.legal_options()


def _may(s: State, e: Expectation) -> None:
    seat = _seat(s, e.seat, e.where)
    want = e.texts
    legal = _legal_for(s, seat)
    if e.kind == "may not":
        if legal is None:
            _not_deciding(s, seat, e.text(), e.where)
        bad = [o for o in want if o in legal]
        if bad:
            raise Failed(
                f"expected seat {seat} may not: {_flow(want)}\n"
                f"    but {_flow(bad)} {'is' if len(bad) == 1 else 'are'} legal "
                f"(legal: {_flow(legal)})",
                e.where,
            )
        return
    if legal is None:
        who = "nobody (the game is over)" if s.is_over else f"seat {s.to_move}"
        raise Failed(
            f"expected seat {seat} {e.kind}: {_flow(want)}\n    but {who} is to decide", e.where
        )
    missing = [o for o in want if o not in legal]
    extra = [o for o in legal if o not in want] if e.kind == "may" else []
    if missing or extra:
        parts = []
        if missing:
            parts.append(f"not legal: {_flow(missing)}")
        if extra:
            parts.append(f"also legal: {_flow(extra)}")
        raise Failed(
            f"expected seat {seat} {e.kind}: {_flow(want)}\n    actual: {_flow(legal)} "
            f"({'; '.join(parts)})",
            e.where,
        )


def _not_deciding(s: State, seat: int | None, text: str, where: Where) -> NoReturn:
    """A check of what a seat may not do, made when that seat does not decide, would pass
    whatever the rules say: the scenario is wrong, not the rules."""
    who = "the game is over" if s.is_over else f"seat {s.to_move} is to decide"
    subject = "nobody" if seat is None else f"seat {seat}"
    raise BadScenario(
        f"`{text}` checks what {subject} may do, but {who}: it would pass whatever the rules "
        f"say; put it where {subject} decides",
        where,
    )


def _refused(s: State, e: Expectation) -> None:
    for text in e.texts:
        seat, option = parse_option_step(text)
        if s.is_over or (seat is not None and s.to_move != seat):
            _not_deciding(s, s.to_move if seat is None else seat, f"refused: {text}", e.where)
        if option in s.legal_options():
            raise Failed(
                f"expected refused: {text}\n    but it is legal for seat {s.to_move}", e.where
            )


def public_lines(s: State) -> list[str]:
    """The log's lines as everybody reads them (a line with an own text: its public text)."""
    return [str(text) for (_r, _seat, text) in (s.log or [])]


def _lines_for(s: State, e: Expectation) -> tuple[list[str], list[str]]:
    """(the lines to search, as shown): lowered when the check says `any case: true`."""
    shown = public_lines(s)
    return ([x.lower() for x in shown] if e.any_case else shown), shown


def _needle(e: Expectation, text: str) -> str:
    return text.lower() if e.any_case else text


def _log(s: State, e: Expectation) -> None:
    lines, shown = _lines_for(s, e)
    for text in e.texts:
        needle = _needle(e, text)
        hit = any(needle in line for line in lines)
        if e.kind == "log contains" and not hit:
            near = did_you_mean(text, shown)
            extra = f"; nearest line: {near!r}" if near else ""
            raise Failed(f"expected the log to contain {text!r}\n    it does not{extra}", e.where)
        if e.kind == "log lacks" and hit:
            line = next(x for x, low in zip(shown, lines, strict=True) if needle in low)
            raise Failed(f"expected the log to lack {text!r}\n    found: {line!r}", e.where)


def _log_order(s: State, e: Expectation) -> None:
    """Each text is in some line of the log after the line the text before it was found in."""
    lines, shown = _lines_for(s, e)
    at, after = -1, None
    for text in e.texts:
        needle = _needle(e, text)
        hit = next((i for i in range(at + 1, len(lines)) if needle in lines[i]), None)
        if hit is None:
            earlier = next((i for i in range(at + 1) if needle in lines[i]), None)
            if earlier is None:
                why = "it is in no line of the log"
            else:
                why = f"it is only before, in line {earlier + 1}: {shown[earlier]!r}"
            since = f" after line {at + 1}: {after!r}" if after is not None else ""
            raise Failed(
                f"expected the log in the order {_flow(e.texts)}\n"
                f"    but {text!r} does not follow{since}; {why}",
                e.where,
            )
        at, after = hit, shown[hit]


def _moved(s: State, e: Expectation, moves: Sequence[tuple[int | None, str]]) -> None:
    """`moved:` / `not moved:`: a move taken so far, by its option id (a step's, an `auto` or
    `optional:` answer, or the engine's own when it was the only choice), of that seat."""
    for text in e.texts:
        seat, option = parse_move(text)
        if seat is not None:
            _seat(s, seat, e.where)
        hits = [(who, o) for who, o in moves if o == option and seat in (None, who)]
        if e.kind == "moved" and not hits:
            same = [f"seat {who}: {o}" for who, o in moves if o == option]
            taken = [f"seat {who}: {o}" for who, o in moves]
            near = did_you_mean(option, [o for _who, o in moves])
            if same:
                why = f"it was taken by another seat ({', '.join(same)})"
            elif near:
                why = f"no move took it; did you mean '{near}'?"
            else:
                why = "no move took it"
            last = f" (the last moves: {', '.join(taken[-6:])})" if taken else ""
            raise Failed(f"expected moved: {text}\n    but {why}{last}", e.where)
        if e.kind == "not moved" and hits:
            who = hits[0][0]
            raise Failed(f"expected not moved: {text}\n    but seat {who} took {option}", e.where)


def _result(s: State, e: Expectation) -> Result:
    if not s.is_over:
        raise Failed(
            f"expected {e.text()}\n    but the game is not over (seat {s.to_move} to decide)",
            e.where,
        )
    return s.result()


def _scores(game: Game, s: State, e: Expectation) -> None:
    """`scores:` the game's result; `scores so far:` the score table of the game still running,
    as if it ended now (the state itself is left as it is)."""
    if e.kind == "scores so far":
        from interpreter.engine.standings import standings

        rows = standings(game.rules, s) if not s.is_over else s.result().scores
    else:
        rows = _result(s, e).scores
    table = e.value if isinstance(e.value, dict) else {}
    for key, want in table.items():
        seat = _seat(s, int(key), e.where)
        row = rows[seat]
        have = {"total": row["total"], **row["components"], "tiebreak": row["tiebreak"]}
        parts: dict[str, Plain] = {"total": want} if isinstance(want, int) else {}
        if isinstance(want, dict):
            parts = want
        for k, v in parts.items():
            if k not in have:
                guess = did_you_mean(k, have)
                hint = f"; did you mean '{guess}'?" if guess else ""
                raise BadScenario(
                    f"scores have no part '{k}'{hint} (parts: {_flow(list(have))})", e.where
                )
            if have[k] != v:
                so_far = " so far" if e.kind == "scores so far" else ""
                raise Failed(
                    f"expected seat {seat} {k} score {v}{so_far}\n    actual: {have[k]} "
                    f"(seat {seat}: {_flow(have)})",
                    e.where,
                )


def check(
    game: Game,
    s: State,
    e: Expectation,
    info: FieldInfo,
    moves: Sequence[tuple[int | None, str]] = (),
) -> None:
    """Raise Failed (or BadScenario) unless expectation `e` holds in state `s`; `moves`: the
    moves taken so far, (seat, option id), for `moved:`."""
    kind = e.kind
    if kind in ("moved", "not moved"):
        _moved(s, e, moves)
    elif kind == "expr":
        _expr(game, s, e)
    elif kind == "fields":
        _fields(s, e, info)
    elif kind in ("may", "may include", "may not"):
        _may(s, e)
    elif kind == "refused":
        _refused(s, e)
    elif kind in ("log contains", "log lacks"):
        _log(s, e)
    elif kind == "log order":
        _log_order(s, e)
    elif kind in ("sees", "does not see"):
        check_seen(s, e, Failed, BadScenario)
    elif kind == "to move":
        if s.to_move != e.value:
            raise Failed(f"expected seat {e.value} to move\n    actual: seat {s.to_move}", e.where)
    elif kind == "over":
        if bool(s.is_over) != bool(e.value):
            actual = _flow(s.is_over)
            raise Failed(f"expected over: {_flow(e.value)}\n    actual: {actual}", e.where)
    elif kind == "winner":
        res = _result(s, e)
        want = e.value
        have = res.winners if isinstance(want, list) else res.winner
        if have != want:
            totals = {r["seat"]: r["total"] for r in res.scores}
            raise Failed(
                f"expected winner: {_flow(want)}\n"
                f"    actual: {_flow(have)} (totals: {_flow(totals)})",
                e.where,
            )
    elif kind == "trigger":
        res = _result(s, e)
        if res.trigger != _none(e.value):
            raise Failed(f"expected trigger: {e.value}\n    actual: {res.trigger}", e.where)
    elif kind in ("scores", "scores so far"):
        _scores(game, s, e)
    else:  # pragma: no cover - the schema allows only the kinds above
        raise BadScenario(f"unknown expectation '{kind}'", e.where)
