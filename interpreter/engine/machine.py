"""The flow machine: pure functions over (compiled rules, state) that advance a state to its next
decision, list the options of a decision, and run what pieces do (hooks fired by events, what
active pieces grant). A State calls these; the generated rule code reaches `fire` and `ability`
through ``env.runtime``, bound to the rules by the Game."""

from __future__ import annotations

from collections.abc import Callable, Collection

from interpreter.diagnostics.errors import Diagnostic, RulesError
from interpreter.dsl.compiler import RuntimeRuleError
from interpreter.dsl.emit.emitter import RULE_FILE
from interpreter.dsl.runtime.loglines import OwnLine
from interpreter.engine.blocks import STOPS_AT, block_at
from interpreter.engine.frame import Frame
from interpreter.engine.options import option_listing
from interpreter.engine.standings import finish
from interpreter.infoset.forced import decided_in_public
from interpreter.model.catalogs import HeldHook
from interpreter.model.flow import CHOOSE, END_ROUND, FINISH, ChooseSpec
from interpreter.model.rules import Rules

# What a rule text can raise while running (a missing table entry, arithmetic on none, ...):
# turned into a diagnostic so no Python traceback reaches a user.
RULE_FAILURES = (
    RuntimeRuleError,
    LookupError,
    TypeError,
    ValueError,
    ArithmeticError,
    AttributeError,
)


def rule_failure(
    e: BaseException, rules: Rules, s: Frame, seat: int | None = None, option: str | None = None
) -> RulesError:
    """The E001 diagnostic for an exception raised by a rule while the game runs: at the
    file:line:col of the rule text whose generated code failed (the innermost one, when a rule
    fired another), naming the decision, the seat that took it and a readable cause."""
    origin = None
    label = None
    origins = rules.origins
    tb = e.__traceback__
    while tb is not None:
        code = tb.tb_frame.f_code
        found = origins.get(code, tb.tb_lineno) if origins is not None else None
        if found is not None:
            origin = found
        elif code.co_filename.startswith(RULE_FILE) and origin is None:
            label = code.co_filename[len(RULE_FILE) : -1]
        tb = tb.tb_next
    only = getattr(e, "rulebook_only_choice", None)
    if s.decisions == 0:
        when = "while setting up the game"
    elif only is not None or seat is None:
        when = f"after decision {s.decisions}"
    else:
        taken = f", option '{option}'" if option is not None else ""
        when = f"at decision {s.decisions} (seat {seat} to move{taken})"
    if only is not None:
        when += f", taking seat {only[0]}'s only option '{only[1]}'"
    message = f"a rule failed {when}: {cause(e)}"
    if origin is None:
        where = f" (in the rule {label})" if label else ""
        return RulesError(Diagnostic("E001", message + where))
    file, line, column, path = origin
    return RulesError(Diagnostic("E001", message, file, line, column, path))


def cause(e: BaseException) -> str:
    """What went wrong, in the words of a rule rather than of Python."""
    if isinstance(e, RuntimeRuleError):
        return str(e)
    if isinstance(e, KeyError):
        key = e.args[0] if e.args else None
        return f"no entry {show_key(key)} in the table, bag or catalog it reads"
    if isinstance(e, ZeroDivisionError):
        return "division by zero"
    if isinstance(e, IndexError):
        return "no such position (an empty pile or a position past its end)"
    text = " ".join(str(e).split()) or type(e).__name__
    text = text.replace("'NoneType'", "none").replace("NoneType", "none")
    if isinstance(e, TypeError):
        return f"a value of the wrong kind: {text}"
    return text


def show_key(key: object) -> str:
    return "none" if key is None else repr(key)


def advance(rules: Rules, s: Frame, seat: int | None = None, option: str | None = None) -> None:
    """:func:`run`, with a rule's failure turned into an E001 diagnostic."""
    try:
        run(rules, s)
    except RULE_FAILURES as e:
        raise rule_failure(e, rules, s, seat, option) from None


def run(rules: Rules, s: Frame, pc: int | None = None) -> None:
    """Advance until a decision with at least one option, or the end of the game; from
    `pc` when given (the state's position then is not read)."""
    program = rules.program
    code = program.code
    blocks = program.blocks
    # the position is a local while the machine runs (no rule reads it) and is written back
    # however the run ends; effects, branches, jumps and phase calls run in the functions
    # blocks.py writes, so this loop meets only decisions and the ends of rounds and games
    if pc is None:
        pc = s.pc
    try:
        while True:
            try:  # a subscript costs less than a call of `get`
                block = blocks[pc]
            except KeyError:
                block = block_at(program, pc, take_only)
            if block is not STOPS_AT:
                pc = block(s)
                if pc < 0:  # stopped at a decision to ask (its options and seat are set)
                    pc = -1 - pc
                    return
                continue
            ins = code[pc]
            op = ins[0]
            if op == CHOOSE:
                spec = ins[1]
                # every option: id -> (spec, option line, the values its `for` parts bound),
                # by the function written for this step the first time it is met (options.py)
                listing = spec.enumerator
                if listing is None:
                    listing = spec.enumerator = option_listing(spec)
                options = listing.fn(s)
                if options:
                    s.who = spec.who.fn(s)
                    if len(options) == 1 and s.take_forced and not asks_alone(s, spec, options):
                        take_only(s, options)
                        pc += 1
                        continue
                    s.pending = options
                    return
                pc += 1
            elif op == END_ROUND:
                if rules.round_over(s):
                    pc = ins[1]
                else:
                    if s.round >= rules.limits.rounds:
                        raise rules.limits.error("rounds", s.round, s.decisions)
                    s.round += 1
                    pc = program.round_start
            elif op == FINISH:
                finish(rules, s)
                return
            else:  # pragma: no cover - blocks.py runs every other code the compiler emits
                raise ValueError(f"bad instruction {ins!r}")
    finally:
        s.pc = pc


def asks_alone(s: Frame, spec: ChooseSpec, options: dict[str, tuple]) -> bool:
    """Whether decision ``spec``, whose one legal option is ``options``, is asked all the
    same: its step says so (``ask-when-only-one``), or its one option is perhaps owed to what
    a seat hides and what every seat sees does not decide it, so that the other seats see a
    decision like any other (ChooseSpec, infoset/forced.py)."""
    return spec.ask_when_only_one or (
        spec.hidden_dependent and not decided_in_public(s, spec, options)
    )


def take_only(s: Frame, options: dict[str, tuple]) -> None:
    """Take the one legal option of a decision without asking: the same effect as choosing it
    (its `for` values bound, the idle flags set), logged as the only choice; it is no decision,
    so it is neither counted nor kept in the history (a save's choices), and every driver (bots,
    people, replays, agents) sees only the decisions that are choices."""
    ((option_id, (spec, opt, values)),) = options.items()
    if values:  # one value for each slot (the listing made them together)
        if len(values) == 1:  # as State.apply
            s.t[opt.slots[0]] = values[0]
        else:
            s.t.update(zip(opt.slots, values))  # noqa: B905 - as State.apply
    for flag in spec.idle_flags:
        s.v[flag] = 1
    if s.log is not None:
        declined = spec.label if option_id == spec.decline else ""  # as State.apply
        text = opt.log(s) if opt.log is not None else s.game.rules.words.choice(option_id, declined)
        s.log.append((s.round, s.who, only_choice_line(s.who, text)))
    seat = s.who
    taken = s.only_choices
    if taken is not None:
        taken.append((seat, option_id))
    s.who = None
    try:
        opt.effect(s)
    except RULE_FAILURES as e:
        # reported as this option's failure, not the last asked decision's (rule_failure)
        e.rulebook_only_choice = (seat, option_id)  # type: ignore[union-attr]
        raise


def take_only_choice(rules: Rules, s: Frame) -> None:
    """Take the pending decision's one legal option as the engine takes such a decision by
    itself (:func:`take_only`: logged as the only choice, neither counted nor kept in the
    history), then run on to the next decision: for a driver that stopped there
    (``take_forced`` off) to look at the state before it."""
    options = s.pending
    if options is None or len(options) != 1:
        raise ValueError("the decision to take has not exactly one legal option")
    seat, (option_id,) = s.who, options
    s.pending = None
    try:
        take_only(s, options)
        run(rules, s, s.pc + 1)
    except RULE_FAILURES as e:
        raise rule_failure(e, rules, s, seat, option_id) from None


ONLY_CHOICE = " (the only choice)"


def only_choice_line(seat: int | None, text: str) -> str:
    """The log line of a forced move: ``seat 2: pass (the only choice)``, with the seat, so that
    it reads (and a scenario's ``log contains`` matches it) as every driver prints it; a text
    that already begins by naming its seat (an option's ``log:``) is not named twice. It says
    only what every seat sees: who was to decide, and the option's own text.

    >>> only_choice_line(2, "pass"), only_choice_line(1, "seat 1 sells a ware")
    ('seat 2: pass (the only choice)', 'seat 1 sells a ware (the only choice)')

    A line with an own text (dsl/runtime/loglines.py) keeps it, with the same words after it; an
    option that writes no line of its own (``log: ""``) is still logged, as ``seat 2 (the only
    choice)``: the forced move is seen, and the line a rule writes later says what it was.
    """
    if type(text) is OwnLine:
        return text.joined(only_choice_line(seat, str(text)), f"{text.own}{ONLY_CHOICE}")
    if not text:  # an option whose own line is written later (`log: ""`): who moved, still
        return f"seat {seat}{ONLY_CHOICE}" if seat is not None else ONLY_CHOICE.strip()
    if seat is None:
        return f"{text}{ONLY_CHOICE}"
    named = f"seat {seat}"
    if text.lower().startswith(named) and text[len(named) : len(named) + 1] in ("", " ", ":"):
        return f"{text}{ONLY_CHOICE}"
    return f"{named}: {text}{ONLY_CHOICE}"


def is_active(rules: Rules, s: Frame, piece: dict) -> bool:
    """Whether a placed piece counts (its catalog's `active` predicate; always, without one)."""
    entry = rules.active.get(piece["type"])
    if entry is None:
        return True
    pred, key = entry
    s.t[key] = piece
    return bool(pred(s))


def ability_reader(rules: Rules) -> Callable[[Frame, int, str], int]:
    """What the active pieces of a seat grant for one ability, as the rule code of `rules`
    reads it (`env.runtime["ability"]`).

    Each ability is summed on its first read and kept (in ``s.ab``) until a piece changes or
    the next decision is taken (State.apply), over only the areas that may hold a piece that
    grants it: an area declared to hold one catalog's pieces is left out for an ability that
    no entry of that catalog grants."""
    walks = ability_walks(rules)

    def read(s: Frame, who: int, name: str) -> int:
        totals = s.ab.get(who)
        if totals is None:
            totals = s.ab[who] = {}
        else:
            total = totals.get(name)
            if total is not None:
                return total
        total = 0
        t = s.t
        pl = s.p[who]
        for area, by_type in walks.get(name, ()):
            # a plain loop: an `active` test changes nothing, so the area stays as it is
            for piece in pl[area]:
                # most pieces grant nothing: `in` tells without a call
                if piece["type"] not in by_type:
                    continue
                amount, pred, key = by_type[piece["type"]]
                if pred is not None:  # is_active, written out
                    t[key] = piece
                    if not pred(s):
                        continue
                total += amount
        totals[name] = total
        return total

    return read


def ability_walks(rules: Rules) -> dict[str, tuple[tuple[str, dict[str, tuple]], ...]]:
    """Ability -> the areas to walk for it, each with the piece types there that grant it:
    {type: (amount, active predicate or None, the slot its `self` is read from)}."""
    walks: dict[str, tuple[tuple[str, dict[str, tuple]], ...]] = {}
    for name in rules.env.abilities:
        by_type = {
            kind: (amount, pred, key)
            for kind, (grants, pred, key) in rules.grants_by_type.items()
            for ability, amount in grants
            if ability == name
        }
        walks[name] = tuple((area, by_type) for area in areas_holding(rules, by_type))
    return walks


def event_firer(rules: Rules) -> Callable[[Frame, str, list], None]:
    """What `emit` runs, for the rule code of `rules` (`env.runtime["fire"]`): the hooks of
    an event on the active pieces of the seat named first in its arguments. Each event walks
    only the areas that may hold a piece with a hook for it (as ability_reader does)."""
    walks = {event: areas_holding(rules, hooks) for event, hooks in rules.hooks.items()}
    active = rules.active
    held_hooks = rules.held_hooks

    def fire_event(s: Frame, event: str, args: list) -> None:
        held = held_hooks.get(event)
        if held:  # entries no piece stands for (a `held-by:` catalog): their holder's hooks
            fire_held(s, held, args)
        areas = walks.get(event)
        if not areas:
            return
        hooks = rules.hooks[event]
        seat = args[0]
        pl = s.p[seat]
        t = s.t
        for area in areas:
            pieces = pl[area]
            for x in pieces:  # most areas hold no piece with a hook: a plain loop tells
                if x["type"] in hooks:
                    break
            else:
                continue
            # the pieces with a hook for this event, picked out in one comprehension: a list
            # of its own, so a hook may change the area it walks
            for piece in [x for x in pieces if x["type"] in hooks]:
                hook = hooks[piece["type"]]
                entry = active.get(piece["type"])
                if entry is not None:  # is_active, written out
                    pred, key = entry
                    t[key] = piece
                    if not pred(s):
                        continue
                t[hook.self_key] = piece
                t[hook.owner_key] = seat
                for key, value in zip(hook.param_keys, args, strict=True):
                    t[key] = value
                hook.fn(s)

    return fire_event


def fire_held(s: Frame, held: list[HeldHook], args: list) -> None:
    """Run the hooks of `held` (in catalog order) whose entry the event's seat holds now."""
    seat = args[0]
    t = s.t
    for h in held:
        if h.holder(s, h.entry) != seat:
            continue
        hook = h.hook
        t[hook.self_key] = h.entry
        t[hook.owner_key] = seat
        for key, value in zip(hook.param_keys, args, strict=True):
            t[key] = value
        hook.fn(s)


def areas_holding(rules: Rules, kinds: Collection[str]) -> tuple[str, ...]:
    """The player areas that may hold a piece of one of `kinds`: all but those declared to
    hold one catalog's pieces, none of which is of `kinds`."""
    constants = rules.env.constants
    areas = []
    for area in rules.player_areas:
        members = constants.get(rules.collections.get(area, ""))
        if isinstance(members, tuple) and not set(members) & set(kinds):
            continue
        areas.append(area)
    return tuple(areas)
