"""The texts a game's log can hold, and whether a scenario's ``log contains:`` / ``log lacks:``
/ ``log order:`` text is one of them (T004).

A ``log lacks:`` whose text no line can ever hold passes whatever the engine does; a ``log
contains:`` of such a text fails whatever it does. Both are the scenario's fault, found here
without playing. A log line is written by one of:

* a ``log:`` of a flow step or an option (its public ``text:`` when it has an own one), or a
  ``log "..."`` statement of an effect text: a template whose ``{expr}`` parts are filled in;
* an option taken without a ``log:`` whose effect wrote nothing: the option's id in words (its
  family's ``presentation: options:`` text, else the family and the id's parts as names), and
  for an option declining its step (``pass``) the step's label after it in brackets;
* the engine: a move taken as the only choice (``seat 2: pass (the only choice)``, the line
  with the words after it) and the end (``game over (TRIGGER)``).

A filled-in part can hold a value as a line shows it (dsl/runtime/support.py ``named``): an id's
name, any text or key the rules hold (as written, as a label or in words), a number, yes, no or
none, and lists and counts of these (``A, B and C``, ``2 Top hat, 1 Cap``). A text is producible
when it can stand inside one filled-in template, matched as the scenario matches it: as a part
of the line, letter case kept. The filled-in parts are over-approximated (any value of the
rules, not only the one the expression can give), so a text the check refuses can never be in
the log; a text it accepts may still never be.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass

from interpreter.diagnostics.suggest import did_you_mean
from interpreter.model.words import in_words, label
from interpreter.ruleset.presentation import OptionStyle
from interpreter.ruleset.ruleset import Ruleset
from interpreter.ruleset.vocabulary import Vocabulary

__all__ = ["LogTexts"]

_HOLE = re.compile(r"\{[^{}]*\}")
_DIGIT_HOLE = re.compile(r"\{[0-9]+\}")
_SEPARATORS = (", ", " and ")
_NUMBER = re.compile(r"-?[0-9]+(?:\.[0-9]+)?")
_NUMBER_PART = re.compile(r"-?[0-9]*\.?[0-9]*")
_ONLY_CHOICE = " (the only choice)"  # engine/machine.py's words (checked by the tests)
_ENGINE_LINES = ("game over", "game over ({})", "(the only choice)", "seat {} (the only choice)")

Piece = str | None  # a literal text, or None for a filled-in part


@dataclass(frozen=True)
class _Template:
    text: str  # as written, `{...}` parts and all
    pieces: tuple[Piece, ...]


class LogTexts:
    """Every log template of a composed ruleset, and the values a filled-in part may hold."""

    def __init__(self, ruleset: Ruleset) -> None:
        words = ruleset.vocabulary()
        labels = ruleset.presentation.labels
        written = list(dict.fromkeys(_templates(words, labels, ruleset.presentation.options)))
        found: list[str] = []
        for text in written:
            found.append(text)
            found.append(f"{text}{_ONLY_CHOICE}")
            found.append(f"seat {{}}: {text}{_ONLY_CHOICE}")
        found.extend(_ENGINE_LINES)
        self.written = [t for t in written if t.strip()]
        self.templates = [_Template(t, _pieces(t)) for t in dict.fromkeys(found)]
        self.values = _Values(_atoms(words, labels))
        self._folded: LogTexts | None = None  # the lower-case copy (folded), made when asked

    def producible(self, text: str) -> bool:
        """Whether some line of the log can hold ``text``."""
        reading = _Reading(text, self.values)
        return any(reading.within(t.pieces) for t in self.templates)

    def fault(self, kind: str, text: str, *, any_case: bool = False) -> tuple[str, str] | None:
        """(message, hint) when the log can never hold ``text``, checked as ``kind`` (``log
        contains``, ``log lacks``, ``log order``); None when it can. ``any_case``: matched
        letter case aside, as a check with ``any case: true`` matches."""
        verdict = "pass" if kind == "log lacks" else "fail"
        if any_case:
            if self.folded().producible(text.lower()):
                return None
            message = (
                f"no line of this game's log can hold {text!r} (in any letter case): `{kind}` "
                f"would {verdict} whatever the game does"
            )
            lines = ", ".join(repr(t) for t in self.nearest(text))
            return message, f"the nearest lines the rules write: {lines}"
        if self.producible(text):
            return None
        message = (
            f"no line of this game's log can hold {text!r} (letter case counts): `{kind}` "
            f"would {verdict} whatever the game does"
        )
        recased = self.recased(text)
        if recased is not None:
            return message, f"did you mean {recased!r}?"
        lines = ", ".join(repr(t) for t in self.nearest(text))
        return message, f"the nearest lines the rules write: {lines}"

    def folded(self) -> LogTexts:
        """The same texts and values in lower case: what a text lowered may match when letter
        case does not count (made once)."""
        folded = self._folded
        if folded is None:
            folded = LogTexts.__new__(LogTexts)
            folded._folded = folded
            folded.written = [t.lower() for t in self.written]
            folded.templates = [
                _Template(t.text.lower(), _pieces(t.text.lower())) for t in self.templates
            ]
            folded.values = _Values({a.lower() for a in self.values.atoms})
            self._folded = folded
        return folded

    def recased(self, text: str, tries: int = 20) -> str | None:
        """``text`` with a name in it written as the log writes it (``top hat`` -> ``Top
        hat``), when that makes it a text the log can hold."""
        low = text.lower()
        for atom in sorted(self.values.atoms, key=lambda a: (-len(a), a)):
            if len(atom) < 3:
                break
            k = low.find(atom.lower())
            if k < 0 or text[k : k + len(atom)] == atom:
                continue
            candidate = text[:k] + atom + text[k + len(atom) :]
            if self.producible(candidate):
                return candidate
            tries -= 1
            if not tries:
                break
        return None

    def nearest(self, text: str, most: int = 3) -> list[str]:
        """The templates, as written, that look most like ``text`` (nearest first)."""
        shown = [_HOLE.sub("{…}", t) for t in self.written]
        first = did_you_mean(text, shown)
        scored = sorted(shown, key=lambda t: -_likeness(text, t))
        out = ([first] if first else []) + [t for t in scored if t != first]
        return list(dict.fromkeys(out))[:most]


class _Reading:
    """One text matched against the templates: what of it a filled-in part may hold (the
    same for every template), worked out once."""

    def __init__(self, text: str, values: _Values) -> None:
        self.text = text
        self.values = values
        n = len(text)
        self.inside = values.inside(text)
        self.ends = [q for q in range(n + 1) if values.ends(text[:q])]
        self._begins: dict[int, bool] = {}
        self._wholes: dict[int, list[int]] = {}

    def begins(self, p: int) -> bool:
        hit = self._begins.get(p)
        if hit is None:
            hit = self._begins[p] = self.values.begins(self.text[p:])
        return hit

    def wholes(self, p: int) -> list[int]:
        """Where a whole filled-in part that begins at ``p`` may end."""
        hit = self._wholes.get(p)
        if hit is None:
            text, values = self.text, self.values
            hit = [q for q in range(p, len(text) + 1) if values.whole(text[p:q])]
            self._wholes[p] = hit
        return hit

    def within(self, pieces: tuple[Piece, ...]) -> bool:
        """Whether the text is a part of some filling-in of ``pieces``."""
        text = self.text
        n = len(text)
        todo: list[tuple[int, int]] = []
        for i, piece in enumerate(pieces):
            if piece is None:
                if self.inside:
                    return True
                todo.extend((i + 1, q) for q in self.ends)
            else:
                for o in range(len(piece)):
                    rest = piece[o:]
                    if rest.startswith(text):
                        return True
                    if text.startswith(rest):
                        todo.append((i + 1, len(rest)))
        seen: set[tuple[int, int]] = set()
        while todo:
            j, p = todo.pop()
            if (j, p) in seen:
                continue
            seen.add((j, p))
            if p == n:
                return True
            if j == len(pieces):
                continue
            piece, left = pieces[j], text[p:]
            if piece is None:
                if self.begins(p):
                    return True
                todo.extend((j + 1, q) for q in self.wholes(p))
            elif piece.startswith(left):
                return True
            elif left.startswith(piece):
                todo.append((j + 1, p + len(piece)))
        return False


class _Values:
    """What one filled-in part may hold: ``ITEM (SEP ITEM)*`` or nothing, an item being a
    value's text, a number, or a count and a name (a bag); its beginnings, ends and insides."""

    def __init__(self, atoms: set[str]) -> None:
        self.atoms = atoms
        self.sorted = sorted(atoms)
        self.backwards = {a[::-1] for a in atoms}
        self.reversed = sorted(self.backwards)
        self.joined = "\x00".join(self.sorted)

    # a whole value, a value's beginning, its end, a part of it
    def whole(self, text: str) -> bool:
        return text == "" or len(text) in self._items_from(text, 0)

    def begins(self, text: str) -> bool:
        return self._begins(text, self.sorted, self._items_from)

    def ends(self, text: str) -> bool:
        return self._begins(text[::-1], self.reversed, self._items_back)

    def inside(self, text: str) -> bool:
        if self._in_item(text):
            return True
        # an end of a value up to an item's end, then separators and items from there
        for r in range(len(text) + 1):
            head, tail = text[:r], text[r:]
            if tail and self.ends(head) and self._after_item(tail):
                return True
        # from within a separator
        return any(
            text.startswith(sep[k:]) and self.begins(text[len(sep) - k :])
            for sep in _SEPARATORS
            for k in range(1, len(sep))
        )

    # -- the parts ---------------------------------------------------------------------------
    def _item_ends(self, text: str, i: int, backwards: bool) -> set[int]:
        """Where an item that begins at ``i`` may end: a value's text, a number, or a count and
        a name (read backwards: a name, a space and a count)."""
        atoms = self.backwards if backwards else self.atoms
        number = _REVERSED_NUMBER if backwards else _NUMBER
        names = {j for j in range(i + 1, len(text) + 1) if text[i:j] in atoms}
        out = set(names)
        m = number.match(text, i)
        if m:
            out.add(m.end())
        if backwards:
            for j in names:
                if text[j : j + 1] == " ":
                    m = number.match(text, j + 1)
                    if m:
                        out.add(m.end())
        elif m and text[m.end() : m.end() + 1] == " ":
            k = m.end() + 1
            out.update(j for j in range(k + 1, len(text) + 1) if text[k:j] in atoms)
        return out

    def _items_from(self, text: str, i: int) -> set[int]:
        """Where a run of items joined by separators, from ``i``, may end."""
        return self._run(text, i, backwards=False)

    def _items_back(self, text: str, i: int) -> set[int]:
        """:meth:`_items_from` of a text read backwards."""
        return self._run(text, i, backwards=True)

    def _run(self, text: str, i: int, backwards: bool) -> set[int]:
        seps = _REVERSED_SEPARATORS if backwards else _SEPARATORS
        ends: set[int] = set()
        todo = [i]
        starts: set[int] = set()
        while todo:
            at = todo.pop()
            if at in starts:
                continue
            starts.add(at)
            for j in self._item_ends(text, at, backwards):
                if j not in ends:
                    ends.add(j)
                    todo.extend(j + len(sep) for sep in seps if text.startswith(sep, j))
        return ends

    def _begins(self, text: str, ordered: list[str], items: Callable[[str, int], set[int]]) -> bool:
        """Whether ``text`` is a beginning of a value (read forwards with ``ordered`` atoms and
        ``items``, or backwards for an end)."""
        if text == "":
            return True
        backwards = ordered is self.reversed
        seps = _REVERSED_SEPARATORS if backwards else _SEPARATORS
        starts = {0}
        for j in items(text, 0):
            if j == len(text):
                return True
            for s in seps:
                if s.startswith(text[j:]):
                    return True
                if text.startswith(s, j):
                    starts.add(j + len(s))
        return any(self._item_begins(text[k:], ordered, backwards) for k in starts)

    def _item_begins(self, text: str, ordered: list[str], backwards: bool) -> bool:
        """Whether ``text`` is the beginning of one item."""
        if _starts(text, ordered):
            return True
        shape = _REVERSED_NUMBER_PART if backwards else _NUMBER_PART
        if shape.fullmatch(text):
            return True
        # a count and a name (read backwards: a name, a space, a count)
        if backwards:
            return any(
                text[:k] in self.backwards and _REVERSED_NUMBER_PART.fullmatch(text[k + 1 :])
                for k in range(len(text))
                if text[k] == " "
            )
        space = text.find(" ")
        head, tail = text[:space], text[space + 1 :]
        return space >= 0 and _NUMBER.fullmatch(head) is not None and _starts(tail, ordered)

    def _in_item(self, text: str) -> bool:
        """Whether ``text`` is a part of one item."""
        if "\x00" not in text and text in self.joined:
            return True
        if re.fullmatch(r"[0-9.\-]*", text):
            return True
        space = text.find(" ")
        if space >= 0:
            head, tail = text[:space], text[space + 1 :]
            digits = re.fullmatch(r"[0-9.\-]*", head) is not None
            return digits and _starts(tail, self.sorted)
        return False

    def _after_item(self, text: str) -> bool:
        """Whether ``text`` may follow a value's item: separators and items, or a beginning
        of a separator."""
        for s in _SEPARATORS:
            if s.startswith(text):
                return True
            if text.startswith(s) and self.begins(text[len(s) :]):
                return True
        return False


_REVERSED_NUMBER = re.compile(r"[0-9]+(?:\.[0-9]+)?-?")
_REVERSED_SEPARATORS = tuple(sep[::-1] for sep in _SEPARATORS)
_REVERSED_NUMBER_PART = re.compile(r"[0-9]*\.?[0-9]*-?")


def _starts(text: str, ordered: list[str]) -> bool:
    """Whether some atom of the sorted list ``ordered`` begins with ``text``."""
    k = bisect.bisect_left(ordered, text)
    return k < len(ordered) and ordered[k].startswith(text)


def _pieces(template: str) -> tuple[Piece, ...]:
    """A template as its literal parts and its filled-in parts (None)."""
    out: list[Piece] = []
    pos = 0
    for m in _HOLE.finditer(template):
        if m.start() > pos:
            out.append(template[pos : m.start()])
        out.append(None)
        pos = m.end()
    if pos < len(template):
        out.append(template[pos:])
    return tuple(out)


def _templates(
    words: Vocabulary, labels: Mapping[str, str], texts: Mapping[str, OptionStyle]
) -> Iterator[str]:
    """Every log template of the rules, as written (a filled-in part as ``{...}``)."""
    yield from words.log_templates
    yield from _option_words(words, labels, texts)


def _option_words(
    words: Vocabulary, labels: Mapping[str, str], texts: Mapping[str, OptionStyle]
) -> Iterator[str]:
    """The words of every option the rules offer (what the log says of an option taken without
    a line of its own): its family's text, else the family and the id's parts in words."""
    for ident in words.option_ids:
        family, *parts = ident.split(":")
        names = ["{}" if _HOLE.search(p) else label(p, labels) for p in parts]
        style = texts.get(family)
        text = style.text if style is not None else None
        if text:
            # the family's text: its {0}, {1} ... filled in with names (any other stays)
            yield text
            yield _DIGIT_HOLE.sub("{}", text)
        elif _HOLE.search(family):
            text = " ".join(["{}", *names])
            yield text
        else:
            text = " ".join([label(family, labels), *names])
            yield text
        if not parts:  # an option declining its step (`pass`) also says the step's label
            yield f"{text} ({{}})"


def _atoms(words: Vocabulary, labels: Mapping[str, str]) -> set[str]:
    """Every text a value of the rules may show as: each text and key they hold, as written,
    as its label and in words, and yes, no and none."""
    out = {"yes", "no", "none"}
    for text in words.keys | words.texts:
        out.update(_shown_as(text, labels))
    out.discard("")
    return out


def _shown_as(text: str, labels: Mapping[str, str]) -> tuple[str, ...]:
    return (text, label(text, labels), in_words(text))


def _likeness(a: str, b: str) -> float:
    """How much of ``a``'s words ``b`` shares (letter case aside): to rank the templates."""
    words = set(re.findall(r"\w+", a.lower()))
    theirs = set(re.findall(r"\w+", b.lower()))
    return len(words & theirs) / (len(words) or 1)
