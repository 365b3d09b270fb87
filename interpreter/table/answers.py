"""Answers set in advance: a seat's standing answers to a ruleset's optional questions.

An optional question is a decision that offers ``pass`` beside what the seat may do (a
rulebook's "may": take a bonus or not, keep a card or not), or the option its ``choose`` names
with ``decline:`` (``decline: no-cover``) where declining has another name. Its key is the
``choose`` step's ``label:`` (without one, the option families it offers besides ``pass``), so
one answer covers every time the question comes up. A standing answer is ``take``,
``decline`` or ``ask`` (the default: the seat is asked, as always):

- ``decline`` answers ``pass`` (or the decision's ``decline:`` option);
- ``take`` answers the one option beside ``pass``; when several are legal (which of two
  things to keep) the seat is asked, since which one is the player's own choice, and no rule
  of the engine picks it for them.

A seat starts with ``ask`` for every question but those the ruleset names under
``presentation: answers:`` (a choose step's ``name:`` -> ``take`` or ``decline``): a question
whose answer a player nearly always gives (produce when the role lets you) starts answered,
and the player changes it like any other; ``ask`` set by the player is kept as an answer.

A standing answer is the player's own move, given ahead of time: the driver that holds it (the
terminal, the web table) applies the option it names as that seat's move, through the same
path as a typed or clicked one, so the save holds it as an ordinary option id and the game
replays without it. The same words answer the questions of a scenario's ``optional: take |
decline`` (scenario/runner.py), which answers every optional question alike.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from interpreter.diagnostics.suggest import did_you_mean, echo
from interpreter.engine.state import State
from interpreter.model.flow import CHOOSE, ChooseSpec
from interpreter.model.rules import Rules

_PART = re.compile(r"\{[^{}]*\}")  # a part of an option text its id does not fill in

__all__ = [
    "ASK",
    "DECLINE",
    "HOWS",
    "Question",
    "asked",
    "declining",
    "check_answer",
    "starting_answers",
    "optional_answer",
    "question_key",
    "questions",
    "standing_answer",
]

# The option that declines an optional question: the id the rulesets give "do nothing" beside
# what a seat may do (docs/rulesets.md); a decision offering it is an optional question.
DECLINE = "pass"
ASK = "ask"
# what a standing answer may say, in the order a person is offered them
HOWS = ("take", "decline", ASK)


@dataclass(frozen=True)
class Question:
    """One optional question of a ruleset: its key, the question in words, what taking it
    does in words (the texts of the options beside ``pass``) and those options' families."""

    key: str
    text: str
    take: str
    families: tuple[str, ...] = ()
    decline: str = DECLINE  # the option that declines it
    start: str = ASK  # the answer a seat starts with (``presentation: answers:``)

    def to_json(self) -> dict[str, str]:
        return {"key": self.key, "text": self.text, "take": self.take, "start": self.start}


def question_key(label: str, ids: Iterable[str], decline: str = DECLINE) -> str:
    """The key of a ``choose`` step's question: its label, else the families of the options
    beside ``pass`` (or its ``decline:`` option) joined by ``/`` (``keep``, ``hire/buy``)."""
    if label:
        return label
    families = dict.fromkeys(i.split(":", 1)[0] for i in ids if i != decline)
    return "/".join(families)


def _is_optional(ids: Sequence[str], decline: str = DECLINE) -> bool:
    return decline in ids and any(i != decline for i in ids)


def _start_of(rules: Rules | None, spec: ChooseSpec) -> str:
    """The answer a seat starts with to a ``choose`` step's question (``presentation:
    answers:``, by the step's ``name:``), ``ask`` when the ruleset names none."""
    words = getattr(rules, "words", None)
    start = getattr(words, "answers", {}).get(str(getattr(spec, "step", "") or ""), ASK)
    return start if start in HOWS else ASK


def _decline_of(spec: ChooseSpec) -> str:
    """The option that declines a ``choose`` step's question (its ``decline:``, else pass)."""
    return getattr(spec, "decline", None) or DECLINE


def declining(state: State) -> str:
    """The option that declines the decision ``state`` asks now (``pass`` when it names none)."""
    pending = getattr(state, "pending", None)
    for spec, _opt, _values in (pending or {}).values():
        return _decline_of(spec)
    return DECLINE


def questions(rules: Rules) -> list[Question]:
    """Every optional question a compiled ruleset (``game.rules``) can ask, in the order its
    rule files write them, one per key."""
    found: dict[str, Question] = {}
    for ins in rules.program.code:
        if ins[0] != CHOOSE:
            continue
        spec = ins[1]
        decline = _decline_of(spec)
        if not _is_optional(spec.ids, decline):
            continue
        key = question_key(spec.label, spec.ids, decline)
        if key in found:
            continue
        # an id's filled-in parts (`keep:{k}`) read as "…": which one is known when it is asked
        takes = [
            _PART.sub("…", rules.words.option(_unfilled(i)))
            for i in dict.fromkeys(spec.ids)
            if i != decline
        ]
        text = spec.label[:1].upper() + spec.label[1:] if spec.label else " / ".join(takes)
        families = tuple(dict.fromkeys(i.split(":", 1)[0] for i in spec.ids if i != decline))
        start = _start_of(rules, spec)
        found[key] = Question(key, text.rstrip(), " / ".join(takes), families, decline, start)
    return list(found.values())


def starting_answers(known: Iterable[Question]) -> dict[str, str]:
    """The answers a person's seat starts with: question key -> ``take`` / ``decline`` for
    the questions the ruleset answers in advance (``presentation: answers:``)."""
    return {q.key: q.start for q in known if q.start != ASK}


def _unfilled(option_id: str) -> str:
    """An id template with each ``{...}`` part as ``…``."""
    out, depth = [], 0
    for ch in option_id:
        if ch == "{":
            if depth == 0:
                out.append("…")
            depth += 1
        elif ch == "}" and depth:
            depth -= 1
        elif depth == 0:
            out.append(ch)
    return "".join(out)


def optional_answer(legal: Sequence[str], how: str | None, decline: str = DECLINE) -> str | None:
    """The option ``how`` (``take`` or ``decline``) answers a decision with these legal
    options, or None: no optional question (no ``decline`` option, ``pass`` unless the decision
    names another, beside something to do), ``ask`` or no answer, or ``take`` with several
    options beside it (the seat picks which).

    >>> optional_answer(["bonus", "pass"], "take")
    'bonus'
    >>> optional_answer(["keep:a", "keep:b", "pass"], "decline")
    'pass'
    >>> optional_answer(["keep:a", "keep:b", "pass"], "take") is None
    True
    """
    if how not in ("take", "decline") or decline not in legal or len(legal) < 2:
        return None
    if how == "decline":
        return decline
    others = [o for o in legal if o != decline]
    return others[0] if len(others) == 1 else None


def asked(state: State) -> str | None:
    """The key of the optional question ``state`` asks now, or None (no decision, or one that
    is no optional question)."""
    pending = getattr(state, "pending", None)  # a driver's stand-in state may have none
    if not pending or state.is_over or not _is_optional(list(pending), declining(state)):
        return None
    for spec, _opt, _values in pending.values():
        return question_key(spec.label, spec.ids, _decline_of(spec))
    return None


def standing_answer(state: State, answers: Mapping[str, str]) -> str | None:
    """The option the answers of the seat to move (question key -> how) give the decision
    ``state`` asks now, or None: the seat is asked. The caller passes that seat's answers
    only, so an answer never fires at another seat's decision; a question it has not answered
    takes the answer the ruleset starts every seat with (``presentation: answers:``)."""
    key = asked(state)
    if key is None:
        return None
    how = answers.get(key)
    if how is None:
        for spec, _opt, _values in (state.pending or {}).values():
            how = _start_of(getattr(getattr(state, "game", None), "rules", None), spec)
            break
    return optional_answer(state.legal_options(), how, declining(state))


def check_answer(known: Sequence[Question], key: object, how: object) -> tuple[str, str]:
    """``(key, how)`` when both name a question of ``known`` and an answer in :data:`HOWS`;
    ValueError with a message for people otherwise."""
    keys = [q.key for q in known]
    if not isinstance(key, str) or key not in keys:
        guess = did_you_mean(key, keys) if isinstance(key, str) else None
        hint = f"; did you mean {guess!r}?" if guess else ""
        raise ValueError(f"no optional question {echo(key)} in this game{hint}")
    if not isinstance(how, str) or how not in HOWS:
        raise ValueError(f"an answer is one of {', '.join(HOWS)}, not {echo(how)}")
    return key, how
