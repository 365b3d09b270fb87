"""The option ids a game can offer, and why an id a scenario names is not one of them: T002 of
``rulebook validate`` (check/scenarios.py) and the same words in ``rulebook test``
(scenario/runner.py), one implementation, so the two commands refuse exactly the same ids.

An option matches when it fits one of the game's option templates with a name or number the
rules use in each gap (``take:{x}`` fits ``take:apple`` when ``apple`` is a name of the game),
so a misspelt ``tkae:apple`` or ``take:appel``, or a step of another game, is found without
playing. ``seat N may not`` asks less: an id that fits a template's shape holds there even with
a name the game does not have, unless that name is a near miss of one it has (a misspelling).

>>> from interpreter.ruleset.ruleset import Ruleset
>>> names = OptionNames(Ruleset.from_data({"sets": {"fruit": ["apple"]}, "flow": {"round": [
...     {"choose": {"options": [{"id": "take:{x}"}]}}]}}))
>>> names.fault("take:apple") is None, names.fault("take:appel")[0]
(True, "'take:appel' is not an option this game offers")
"""

from __future__ import annotations

import re

from interpreter.diagnostics.suggest import did_you_mean, hint_for
from interpreter.ruleset.ruleset import Ruleset
from interpreter.ruleset.vocabulary import Vocabulary

__all__ = ["OptionNames", "option_templates"]

_PLACEHOLDER = re.compile(r"\{[^{}]*\}")


class OptionNames:
    """The option ids a game can offer (its `choose` option templates, and the names and numbers
    that may fill their gaps), and why an id a scenario names is not one of them: T002 in
    ``rulebook validate``, the same words in ``rulebook test``."""

    def __init__(self, ruleset: Ruleset) -> None:
        words = ruleset.vocabulary()
        self.templates = option_templates(words)
        # every key and every one-word text of the rules: what a template's gap may hold
        self.words = {*words.keys, *(t for t in words.texts if " " not in t)}

    def fault(self, option: str, *, absent_ok: bool = False) -> tuple[str, str] | None:
        """(message, hint) when ``option`` cannot be an option of this game, else None.

        ``absent_ok`` (``seat N may not``): an id of a template's shape whose names the game
        does not have is accepted (it is never offered, which is what the check says), unless a
        name is a near miss of one the game has."""
        templates = self.templates.values()
        if any(_fits(t, option, self.words) for t in templates):
            return None
        shown = sorted(self.templates)
        message = f"'{option}' is not an option this game offers"
        if absent_ok:
            shaped = [m for m in (t.fullmatch(option) for t in templates) if m is not None]
            misses = [
                (g, guess)
                for m in shaped
                for g in m.groups()
                if not (g.isdigit() or g in self.words)
                and (guess := _near_miss(g, self.words)) is not None
            ]
            if shaped and not misses:
                return None
            if misses:
                g, guess = misses[0]
                return message, f"did you mean '{option.replace(g, guess, 1)}'?"
        return message, hint_for(option, shown) or f"its options: {', '.join(shown) or 'none'}"


def _fits(template: re.Pattern[str], option: str, words: set[str]) -> bool:
    """Whether ``option`` fits the template with a name or number of the game in each gap."""
    m = template.fullmatch(option)
    return m is not None and all(g.isdigit() or g in words for g in m.groups())


def _near_miss(word: str, words: set[str]) -> str | None:
    """A name of the game one slip away from ``word`` (a letter wrong, missing, extra or two
    swapped; two slips in a long name): the likely intended name, or None when it is no typo."""
    allowed = 2 if len(word) >= 10 else 1
    near = [w for w in words if abs(len(w) - len(word)) <= allowed and _slips(word, w) <= allowed]
    return did_you_mean(word, near) or (near[0] if len(near) == 1 else None)


def _slips(a: str, b: str) -> int:
    """Optimal string alignment distance: edits, a swap of neighbours counting as one."""
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        row = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = a[i - 1] != b[j - 1]
            row[j] = min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                row[j] = min(row[j], prev2[j - 2] + 1)
        prev2, prev = prev, row
    return prev[len(b)]


def option_templates(words: Vocabulary) -> dict[str, re.Pattern[str]]:
    """Every option id template of a ruleset's `choose` steps (``take:{x}``), as a pattern
    that a concrete id (``take:apple``) matches."""
    found: dict[str, re.Pattern[str]] = {}
    for ident in words.option_ids:
        if ident not in found:
            parts = _PLACEHOLDER.split(ident)
            found[ident] = re.compile("(.+?)".join(re.escape(p) for p in parts))
    return found
