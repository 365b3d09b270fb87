"""What one seat may see of a state: hidden piles (global, or another seat's) show only a count;
other seats' other hidden fields are omitted; fields hidden as ``all`` show not even a count;
fields local to a phase (a round) are omitted while no phase (round) runs."""

from __future__ import annotations

from typing import Any, TypedDict

from interpreter.engine.frame import Frame
from interpreter.model.rules import Rules

_NONE_OUT: frozenset[tuple[str, str]] = frozenset()  # a ruleset without local fields


def _same(x: Any) -> Any:
    return x


def copy_tree(x: Any) -> Any:
    """Copy nested lists/dicts of plain values (much faster than copy.deepcopy)."""
    t = type(x)
    if t is dict:
        return {k: (copy_tree(v) if type(v) in (dict, list) else v) for k, v in x.items()}
    if t is list:
        return [(copy_tree(v) if type(v) in (dict, list) else v) for v in x]
    return x


# what a seat is shown of a state (seat_view): its seat, the round, the seat to move (None: the
# game is over), the global fields and each seat's fields, hidden ones as their hidden form
View = TypedDict(
    "View",
    {
        "seat": int,
        "round": int,
        "to_move": int | None,
        "global": dict[str, Any],
        "players": list[dict[str, Any]],
    },
)


def seat_view(
    rules: Rules, s: Frame, seat: int, shared: bool = False, every_seat: bool = False
) -> View:
    """The JSON-able view of `s` for `seat` (what a bot or a human player is shown).

    ``shared``: the shown values are the state's own, not copies (a bot playing out a throwaway
    state reads it many times a second and changes nothing); what is hidden stays hidden.
    ``every_seat``: every seat's own hidden fields are shown as to their owner (the replay of a
    game that has ended, where nothing is anybody's secret any more); hidden shared piles stay
    hidden."""
    copy = _same if shared else copy_tree
    g: dict[str, Any] = {}
    hidden_global, hidden = secret_fields(rules)
    gone = out_of_scope(rules, s)
    for name, value in s.g.items():
        if ("global", name) in gone:
            continue
        if name in hidden_global:
            g[name] = hidden_form(rules, "global", name, value)
        else:
            g[name] = copy(value)
    players = []
    for pl in s.p:
        own = every_seat or pl["seat"] == seat
        shown: dict[str, Any] = {}
        for k, v in pl.items():
            if ("player", k) in gone:
                continue
            if own or k not in hidden:
                shown[k] = copy(v)
            else:
                form = hidden_form(rules, "player", k, v)
                if form is not None:
                    shown[k] = form
        players.append(shown)
    return {
        "seat": seat,
        "round": s.round,
        "to_move": s.to_move,
        "global": g,
        "players": players,
    }


def own_fields(rules: Rules, s: Frame, seat: int) -> dict[str, Any]:
    """``seat``'s own entry of its :func:`seat_view` with ``shared`` (the state's values, not
    copies), without the rest of the view."""
    gone = out_of_scope(rules, s)
    mine = s.p[seat]
    if not gone:
        return dict(mine)
    return {k: v for k, v in mine.items() if ("player", k) not in gone}


def secret_fields(rules: Rules) -> tuple[set[str], set[str]]:
    """The global fields hidden from every seat, and the player fields hidden from every seat
    but their owner: what ``seat_view`` and the agents' feature encoder both ask."""
    return rules.hidden_global, rules.hidden_player


def hidden_form(rules: Rules, scope: str, name: str, value: Any) -> dict[str, Any] | None:
    """What a seat is shown of a field hidden from it (``scope``: global or player): a pile's
    size unless it is hidden as ``all``; a hidden global is still marked as there, another
    seat's hidden field that is no pile is not shown at all (None)."""
    if type(value) is list and name not in rules.hidden_all:
        return {"hidden": True, "count": len(value)}
    return {"hidden": True} if scope == "global" else None


def out_of_scope(rules: Rules, s: Frame) -> frozenset[tuple[str, str]]:
    """The local fields whose phase or round is not running now (a phase runs while the flow
    stands inside one: a return address is on the stack)."""
    local = rules.local
    if not local:
        return _NONE_OUT
    key = (bool(s.over or not s.calls), bool(s.over or s.round < 1))
    gone = rules.out_of_view.get(key)
    if gone is None:
        phase = local.get("phase", ()) if key[0] else ()
        round_ = local.get("round", ()) if key[1] else ()
        gone = rules.out_of_view[key] = frozenset([*phase, *round_])
    return gone
