"""How a ruleset's ids read to people: each id's name, a text's ``{NAME}`` parts filled in, and
an option id as its family's text. The one place these words are made: the engine's log lines
(the ids a `log` text fills in, an option taken without a `log:` of its own) and the web table
and terminal (table/presenter.py) say the same thing.

An id's name is its ``presentation: labels:`` entry, else the id in words, capitalised. An
option's text is its family's ``presentation: options: FAMILY: text:``, ``{1}``, ``{2}`` ... the
names of the id's parts after the family (``{0}`` the family's); without one, the family and
its parts in words.

>>> words = Words.from_ruleset(Ruleset.from_data({
...     "sets": {"hats": ["big-hat"]},
...     "presentation": {"labels": {"big-hat": "Top hat"},
...                      "options": {"buy": {"text": "Buy {1}"}}}}))
>>> words.option("buy:big-hat"), words.option("sell:small-hat"), in_words("turn-order")
('Buy Top hat', 'Sell Small hat', 'Turn order')
>>> words.text(["big-hat", 3, None])
'Top hat, 3 and none'
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from interpreter.diagnostics.errors import Diagnostic
from interpreter.diagnostics.suggest import did_you_mean
from interpreter.dsl.runtime.support import named
from interpreter.load.locate import json_pointer
from interpreter.model.origins import place_in_text
from interpreter.ruleset.nodes import Pos, TreePath
from interpreter.ruleset.presentation import OptionStyle
from interpreter.ruleset.ruleset import Ruleset

__all__ = [
    "Words",
    "declared_ids",
    "fill",
    "in_words",
    "label",
    "option_families",
    "option_words",
    "uncited_knobs",
    "untexted_options",
]

UNTEXTED = "W007"
UNCITED = "W008"

_TEMPLATE = re.compile(r"\{([a-zA-Z0-9_-]+)\}")


def in_words(key: object) -> str:
    """An id in words, capitalised: ``turn-order`` -> ``Turn order``."""
    text = str(key)
    words = text.replace("-", " ").replace("_", " ").strip()
    return words[:1].upper() + words[1:] if words else text


def label(key: object, labels: Mapping[str, object]) -> str:
    """The human name of an id: its declared label, else the id in words."""
    found = labels.get(str(key))
    return str(found) if found is not None else in_words(key)


def fill(template: str, values: Mapping[str, str]) -> str:
    """``template`` with each ``{NAME}`` that ``values`` has replaced; others stay as written."""
    return _TEMPLATE.sub(lambda m: values.get(m.group(1), m.group(0)), template)


def option_words(
    option: str, labels: Mapping[str, Any], options: Mapping[str, OptionStyle]
) -> tuple[str, bool]:
    """An option id in words, and whether its family has a ``text:`` (False: the fallback, the
    family and its parts in words)."""
    family, *args = option.split(":")
    spec = options.get(family)
    template = spec.text if spec is not None else None
    names = [label(a, labels) for a in args]
    if not template:
        return " ".join([label(family, labels), *names]), False
    values = {str(i + 1): n for i, n in enumerate(names)}
    values["0"] = label(family, labels)
    return fill(str(template), values), True


def declared_ids(ruleset: Ruleset) -> list[str]:
    """Every id a ruleset declares: the members of its sets, the entries of its catalogs and
    the choices of its options that are words."""
    ids: list[str] = []
    for members in ruleset.definitions.sets.values():
        ids.extend(str(m) for m in members.items)
    for catalog in ruleset.catalogs.values():
        ids.extend(catalog.entries)
    for option in ruleset.header.options.values():
        ids.extend(c for c in option.choices if isinstance(c, str))
    return ids


@dataclass
class Words:
    """The names of one ruleset's ids and the texts of its option families."""

    labels: dict[str, Any] = field(default_factory=dict)
    options: dict[str, OptionStyle] = field(default_factory=dict)
    names: dict[str, str] = field(default_factory=dict)  # every declared id -> its name
    # a choose step's name -> the answer in advance a person's seat starts with
    # (``presentation: answers:``, table/answers.py)
    answers: dict[str, str] = field(default_factory=dict)

    @classmethod
    def from_ruleset(cls, ruleset: Ruleset, ids: Iterable[str] | None = None) -> Words:
        """The words of a composed ruleset; ``ids``: the ids it declares (default: those
        :func:`declared_ids` finds)."""
        shown = ruleset.presentation
        labels = dict(shown.labels)
        found = declared_ids(ruleset) if ids is None else ids
        answers = {k: answer for k, (answer, _) in shown.answers.items()}
        return cls(labels, dict(shown.options), {i: label(i, labels) for i in found}, answers)

    def label(self, key: object) -> str:
        return label(key, self.labels)

    def option(self, option: str) -> str:
        """An option id as its family's text, filled with names (the id in words without one)."""
        return option_words(option, self.labels, self.options)[0]

    def choice(self, option: str, declined: str = "") -> str:
        """The log's words for a taken option that writes no line itself: its family's text;
        an option that declines a step (``pass``) also says what it declined, ``declined``:
        the step's label (``Pass (build)``), for "seat 2: Pass" alone does not say it."""
        text = self.option(option)
        asked = declined.strip().rstrip("?").strip()
        return f"{text} ({asked})" if asked else text

    def text(self, value: Any) -> str:
        """A value as a log line shows it: ids as names, a list in a sentence ("A, B and C")."""
        return named(value, self.names)


def option_families(ruleset: Ruleset) -> dict[str, tuple[TreePath, Callable[[], Pos]]]:
    """Each option family the ruleset offers (the part of an option's ``id:`` before its
    first ``:``), with the path of the first option's ``id:`` and how to find where it was
    written: the cards' ``may:`` offers, then the ``choose`` steps of the flow and its phases.
    An id whose family is itself filled in (``{x}:...``) names no family here."""
    found: dict[str, tuple[TreePath, Callable[[], Pos]]] = {}
    for hook in ruleset.hooks:
        if hook.may is not None and _family(hook.may.id) not in found:
            found[_family(hook.may.id)] = ((*hook.path, "may", "id"), partial(_at, hook.may.id_pos))
    for line in ruleset.flow.option_decls():
        if _family(line.id) not in found:
            found[_family(line.id)] = ((*line.path, "id"), partial(line.places.value, "id"))
    found.pop("", None)
    return found


def _at(pos: Pos) -> Pos:
    return pos


def _family(option_id: str) -> str:
    """The family an option id names; "" where it names none (it is filled in, ``{x}:...``)."""
    family = option_id.split(":", 1)[0].strip()
    return "" if "{" in family else family


def untexted_options(ruleset: Ruleset) -> list[Diagnostic]:
    """W007: an option family with no ``presentation: options: FAMILY: text:``, in a ruleset
    that writes option texts (one with none reads, everywhere alike, as its ids in words); its
    options are shown, and logged when taken, as their ids in words."""
    texts = ruleset.presentation.options
    if not texts:
        return []
    out = []
    for family, (path, where) in option_families(ruleset).items():
        spec = texts.get(family)
        if spec is not None and spec.text:
            continue
        at = where()
        message = (
            f"option '{family}' has no text: people and the log see its id in words "
            f"('{in_words(family)} ...'); give it one under presentation: options: {family}:"
        )
        out.append(
            Diagnostic(
                UNTEXTED,
                message,
                at.file,
                at.line,
                at.column,
                json_pointer(path),
                severity="warning",
            )
        )
    return out


# `{NAME}` in a card's `doc:`: the value of the table NAME (a knob), so the card says what the
# rules in force do (a house rule that changes the knob changes the card's text too)
_CITED_KNOB = re.compile(r"\{([a-zA-Z_][a-zA-Z0-9_]*(?:-[a-zA-Z0-9_]+)*)\}")


def doc_text(text: str, tables: Mapping[str, Any]) -> str:
    r"""A `doc:` text on one line, each ``{TABLE}`` replaced by that table's value where it is
    one number or word (a table by player count, or a name that is no table, stays as written).

    >>> doc_text("1 point per {step-size} tokens\n of the others", {"step-size": 3})
    '1 point per 3 tokens of the others'
    """

    def value(m: re.Match[str]) -> str:
        v = tables.get(m.group(1))
        plain = isinstance(v, int | float | str) and not isinstance(v, bool)
        return str(v) if plain else m.group(0)

    return _CITED_KNOB.sub(value, " ".join(str(text).split()))


def uncited_knobs(ruleset: Ruleset) -> list[Diagnostic]:
    """W008: a ``{NAME}`` in a catalog entry's ``doc:`` that names no table: the card shows it
    as written, braces and all, where the author meant a knob's value. At the name inside the
    text, with the nearest table's name."""
    tables = list(ruleset.tables)
    out = []
    for cname, catalog in ruleset.catalogs.items():
        for ename, entry in catalog.entries.items():
            # the entry's own `doc:` (not a catalog default's)
            doc = entry.doc if "doc" in entry.keys else None
            if doc is None:
                continue
            at = entry.places.value("doc")
            path = ["catalogs", cname, "entries", ename, "doc"]
            for m in _CITED_KNOB.finditer(doc):
                if m.group(1) in tables:
                    continue
                row = doc.count("\n", 0, m.start()) + 1
                column = m.start() - (doc.rfind("\n", 0, m.start()) + 1) + 1
                file, line, col = place_in_text(at.file, at.line, at.column, doc, row, column)
                guess = did_you_mean(m.group(1), tables)
                out.append(
                    Diagnostic(
                        UNCITED,
                        f"'{m.group(0)}' in the doc of '{ename}' names no table: the card shows "
                        "it as written",
                        file,
                        line,
                        col,
                        json_pointer(path),
                        hint=f"did you mean '{{{guess}}}'?" if guess else None,
                        severity="warning",
                    )
                )
    return out
