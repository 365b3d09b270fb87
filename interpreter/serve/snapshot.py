"""A table's position carried from the worker process that plays it to the server's event loop.

A worker applies a move (rule code: the uploader's to write) and sends back what changed, as
plain data that pickles: every field of the state but the game, with the pending options named
by their option line's place in the choose step (rule code and the compiled options do not
pickle), and of the log and the history only the entries the server does not have yet. The
server then holds a :class:`State` of its own to read (views, the log, legal options, the
result) without running a rule.
"""

import random
from typing import Any, NotRequired, TypedDict, cast

from interpreter.dsl.runtime.runtime_state import LogEntry
from interpreter.engine.frame import Result
from interpreter.engine.game import Game
from interpreter.engine.state import State

__all__ = ["Changed", "Snapshot", "restore", "snapshot"]

# a field set of a snapshot sent as the fields that changed: (sent whole, the fields)
Changed = tuple[bool, dict[str, Any]]


# the state's fields as the snapshot carries them: each field of State's own, but the ones
# kept apart; `g` and `p` whole, or `changed`: those of the global fields and of each seat's
# that differ from the state the receiver holds; `pending`: each option's line and values;
# `rng`: the generator's state, left out while the receiver holds that generator. (Written
# as a call: some of State's fields start with an underscore. No ``from __future__ import
# annotations`` in this module: the ``NotRequired`` keys are read at run time only from
# annotations that are not strings.)
class Snapshot(TypedDict):
    g: NotRequired[dict[str, Any]]
    p: NotRequired[list[dict[str, Any]]]
    changed: NotRequired[tuple[Changed, list[Changed]]]
    v: dict[str, Any]
    seed: int
    pc: int
    calls: list[int]
    who: int | None
    round: int
    decisions: int
    over: bool
    t: dict[str, Any]
    ab: dict[int, dict[str, int]]
    _result: Result | None
    _rng_shared: bool
    _rng_seed: int | None
    only_choices: list[tuple[int | None, str]] | None
    undo_run: tuple[int, int] | None
    take_forced: bool
    pending: dict[str, tuple[int, tuple]] | None
    rng: NotRequired[tuple[Any, ...] | None]
    log: list[LogEntry] | None
    history: list[str]


# what is not sent: the game (each side has its own), what only the player of the game needs
# (a recorder, a journal, the undo watch: its `undo_run` is sent), and what is sent otherwise
# (pending, the generator, the log, the history)
_KEPT_APART = ("game", "pending", "_rng", "rec", "tj", "undo_watch", "log", "history")
# what the receiver reads of a snapshot on its own, not as a field of the state it makes
_READ_APART = ("changed", "rng", "pending", "log", "history")


def snapshot(
    state: State,
    log_from: int = 0,
    history_from: int = 0,
    known_rng: random.Random | None = None,
    known: State | None = None,
) -> Snapshot:
    """The state as plain data; its log and history from entry ``log_from`` and
    ``history_from`` on (the receiver has those before). ``known_rng``: the generator whose
    state the receiver holds (sent with an earlier snapshot): while the state still holds it,
    it is not sent again (about half the bytes of a position: docs/performance.md). A
    generator once sent is marked shared, so that whoever draws from it next clones it first
    (``State.rng``): one that is still the known one has not drawn since. ``known``: the
    state the receiver holds (the one the last snapshot described): of the global and the
    seats' fields only those that differ from it are sent (a move changes a few; the fields
    are nine tenths of a position's bytes)."""
    # the state's own fields, as they are (Snapshot names them)
    fields = cast(Snapshot, {k: v for k, v in state.__dict__.items() if k not in _KEPT_APART})
    if known is not None and len(known.p) == len(state.p):
        del fields["g"], fields["p"]
        fields["changed"] = (
            _changed(state.g, known.g),
            [_changed(now, before) for now, before in zip(state.p, known.p, strict=True)],
        )
    pending = state.pending
    if pending is not None:
        spec = state.game.rules.program.code[state.pc][1]
        lines = {id(opt): n for n, opt in enumerate(spec.options)}
        fields["pending"] = {
            option: (lines[id(opt)], values) for option, (_spec, opt, values) in pending.items()
        }
    else:
        fields["pending"] = None
    rng = state._rng
    if rng is None or rng is not known_rng:
        fields["rng"] = None if rng is None else rng.getstate()
    if rng is not None:
        state._rng_shared = True
    fields["_rng_shared"] = False  # the receiver's generator is its own
    log = state.log
    fields["log"] = None if log is None else log[log_from:]
    fields["history"] = state.history[history_from:]
    return fields


def _changed(now: dict[str, Any], before: dict[str, Any]) -> Changed:
    """``(False, the fields of now that differ from before)``, or ``(True, now)`` where the
    two do not hold the same names in the same order (sent whole)."""
    if list(now) != list(before):
        return True, now
    return False, {
        name: value
        for name, value in now.items()
        if type(value) is not type(old := before[name]) or value != old
    }


def _updated(before: dict[str, Any], changed: Changed) -> dict[str, Any]:
    whole, values = changed
    return values if whole else {**before, **values}


def restore(game: Game, snap: Snapshot, before: State | None = None) -> State:
    """The state that ``snap`` describes, of ``game`` (the same rules the worker played);
    ``before``: the state the snapshot's log and history continue (None: they are whole),
    and, for a snapshot of the fields that changed, the state they changed from (the new
    state shares the others with it: neither is ever changed in place on the server)."""
    import random

    # the state's own fields, each but those read here on their own
    fields: dict[str, object] = dict(snap)
    for name in _READ_APART:
        fields.pop(name, None)
    if "changed" in snap:
        if before is None:
            raise ValueError("a snapshot of changed fields needs the state they changed from")
        g, seats = snap["changed"]
        fields["g"] = _updated(before.g, g)
        fields["p"] = [_updated(old, new) for old, new in zip(before.p, seats, strict=True)]
    drew = "rng" in snap
    rng_state = snap["rng"] if "rng" in snap else None
    pending = snap["pending"]
    log = snap["log"]
    history = snap["history"]
    state = State.__new__(State)
    state.__dict__.update(fields)
    state.game = game
    state.rec = None
    state.tj = None
    state.undo_watch = None
    if not drew and before is not None:  # the generator did not change: the one held goes on
        state._rng = before._rng
        state._rng_shared = before._rng_shared = before._rng is not None
    elif rng_state is None:
        state._rng = None
    else:
        rng = random.Random()
        rng.setstate(rng_state)
        state._rng = rng
    if before is not None:
        state.history = before.history + history
        state.log = None if log is None else (before.log or []) + log
    else:
        state.history = history
        state.log = log
    if pending is None:
        state.pending = None
    else:
        spec = game.rules.program.code[state.pc][1]
        state.pending = {
            option: (spec, spec.options[line], values) for option, (line, values) in pending.items()
        }
    return state
