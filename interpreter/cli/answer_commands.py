"""Answers set in advance at the terminal: the ``answers``, ``always``, ``never`` and ``ask``
commands of ``rulebook play --human`` (the rules of what an answer does are in
table/answers.py, shared with the web table and the scenario runner).

``answers`` lists the game's optional questions, numbered, each with its standing answer;
``always Q`` takes, ``never Q`` passes, ``ask Q`` asks again, where ``Q`` is a number from
that list or words of the question. Without ``Q`` they name the question asked now, and
``always`` / ``never`` answer it at once.
"""

from __future__ import annotations

from collections.abc import Mapping, MutableMapping, Sequence

from interpreter.diagnostics.suggest import echo
from interpreter.table.answers import ASK, Question, optional_answer

__all__ = ["COMMANDS", "answer_command", "answer_lines", "find_question"]

# the command -> the standing answer it sets
COMMANDS = {"always": "take", "never": "decline", "ask": ASK}
_SHOWN = {"take": "always", "decline": "never", ASK: "ask me"}


def answer_lines(known: Sequence[Question], answers: Mapping[str, str], width: int) -> list[str]:
    """The optional questions, numbered, each with its standing answer and what taking it
    does, cut to ``width``."""
    if not known:
        return ["this game asks no optional questions"]
    digits = len(str(len(known)))
    lines = ["answers set in advance ('always N' takes, 'never N' passes, 'ask N' asks you):"]
    for n, q in enumerate(known, 1):
        how = _SHOWN[answers.get(q.key, ASK)]
        line = f"  {n:>{digits}}) {how:<6}  {q.text}"
        if q.take and q.take.lower() != q.text.lower():
            line += f"  [{q.take}]"
        lines.append(line if len(line) <= width else line[: width - 1] + "…")
    return lines


def answer_command(
    word: str,
    rest: str,
    known: Sequence[Question],
    answers: MutableMapping[str, str],
    asked: str | None,
    legal: Sequence[str],
) -> tuple[str | None, str]:
    """Run ``always`` / ``never`` / ``ask`` (``word``) on the question ``rest`` names (the one
    ``asked`` now when empty): set the standing answer in ``answers``. Returns the option the
    new answer gives the decision asked now (None: the seat is still asked) and what to tell
    the person."""
    how = COMMANDS[word]
    if rest:
        question, problem = find_question(known, rest)
        if question is None:
            return None, problem
    else:
        question = next((q for q in known if q.key == asked), None)
        if question is None:
            return None, f"this is no optional question: '{word} N' sets one ('answers' lists them)"
    answers[question.key] = how  # `ask` too: a question the ruleset answers stays asked
    said = f"answer set in advance: {question.text} — {_SHOWN[how]}"
    choice = optional_answer(legal, how, question.decline) if question.key == asked else None
    if choice is None and how == "take" and question.key == asked:
        said += " (several things to take here: choose one now)"
    return choice, said


def _norm(text: str) -> str:
    return " ".join(
        "".join(c if c.isalnum() else " " for c in text.lower().replace("…", " ")).split()
    )


def find_question(known: Sequence[Question], name: str) -> tuple[Question | None, str]:
    """The question ``name`` stands for (its number in ``known``, 1-based; its key; or words
    of its text or of what taking it does, case and punctuation aside), or None and why not."""
    name = name.strip()
    if not name:
        return None, "name a question: its number in 'answers', or words of it"
    if name.isdigit():
        n = int(name)
        if 1 <= n <= len(known):
            return known[n - 1], ""
        return None, f"no question {n}: 'answers' lists {len(known)}"
    exact = [q for q in known if name == q.key]
    if exact:
        return exact[0], ""
    want = _norm(name)
    said = {q.key: " ".join(_norm(t) for t in (q.text, q.take, *q.families)) for q in known}
    # the words as a phrase, else each word starting a word of the question, in any order
    found = [q for q in known if f" {want} " in f" {said[q.key]} "]
    if len(found) != 1:
        words = [f" {w}" for w in want.split()]
        found = [q for q in known if all(w in f" {said[q.key]}" for w in words)] or found
    if len(found) == 1:
        return found[0], ""
    if found:
        shown = "; ".join(q.text for q in found[:4])
        return None, f"{echo(name)} names several questions ({shown}); type more of it or a number"
    return None, f"no optional question matches {echo(name)}; 'answers' lists them"
