"""A person playing a seat at the terminal: show the seat's view, list options, read a choice.

The person sees exactly ``state.view(seat)`` (what that seat may see, so hidden information stays
hidden) and the numbered legal options, and answers with a number or an option id (a unique
prefix is enough). A bad entry is asked again with a short message. End of input (Ctrl-D, or a
piped script running out) raises :class:`PlayerLeft`; Ctrl-C raises ``KeyboardInterrupt`` as
usual; the caller saves the partial game in both cases.
"""

from __future__ import annotations

import difflib
import sys
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, TextIO

from interpreter.cli.logfmt import format_value

if TYPE_CHECKING:
    from interpreter.serve.presentation import Presentation

__all__ = ["HumanPlayer", "PlayerLeft", "format_view"]

WIDTH = 100


class PlayerLeft(Exception):
    """The person at a seat ended input (EOF or ``quit``) before the game was over."""

    def __init__(self, seat: int, why: str = "end of input") -> None:
        super().__init__(f"seat {seat} left the game ({why})")
        self.seat = seat


def _inline(value: Any) -> str:
    """One-line form of a value: ``{a: 1, b: [x, y]}``."""
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{k}: {_inline(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_inline(v) for v in value) + "]"
    if isinstance(value, str):
        return value if value else '""'
    return format_value(value)


def format_view(view: Any, indent: int = 0, width: int = WIDTH) -> str:
    """Pretty-print a JSON-like view compactly: nested blocks, short parts kept on one line.

    >>> print(format_view({"round": 2, "phase": "b", "you": {"cards": ["a", "b"], "score": 3},
    ...                    "table": [{"x": 1}, {"x": 2}]}, width=30))
    round: 2, phase: b
    you: {cards: [a, b], score: 3}
    table: [{x: 1}, {x: 2}]
    """
    return "\n".join(_block(view, indent, width))


def _block(value: Any, indent: int, width: int) -> list[str]:
    pad = " " * indent
    if isinstance(value, Mapping):
        if not value:
            return [pad + "{}"]
        lines = []
        scalars: dict[Any, Any] = {}  # a run of scalar entries, packed several per line
        for key, item in value.items():
            if not isinstance(item, (Mapping, list, tuple)):
                scalars[key] = item
                continue
            if scalars:
                lines.extend(_packed(scalars, indent, width))
                scalars = {}
            one = f"{pad}{key}: {_inline(item)}"
            if len(one) <= width or not isinstance(item, (Mapping, list, tuple)) or not item:
                lines.append(one)
            elif _flat(item):
                lines.append(f"{pad}{key}:")
                lines.extend(_packed(item, indent + 2, width))
            else:
                lines.append(f"{pad}{key}:")
                lines.extend(_block(item, indent + 2, width))
        if scalars:
            lines.extend(_packed(scalars, indent, width))
        return lines
    if isinstance(value, (list, tuple)):
        if not value:
            return [pad + "[]"]
        lines = []
        for item in value:
            one = f"{pad}- {_inline(item)}"
            if len(one) <= width or not isinstance(item, (Mapping, list, tuple)):
                lines.append(one)
            else:
                sub = _block(item, indent + 2, width)
                lines.append(f"{pad}- {sub[0].lstrip()}")
                lines.extend(sub[1:])
        return lines
    return [pad + _inline(value)]


def _flat(value: Any) -> bool:
    """A mapping or list holding only scalars: worth packing several entries per line."""
    items = value.values() if isinstance(value, Mapping) else value
    return not any(isinstance(v, (Mapping, list, tuple)) for v in items)


def _packed(value: Any, indent: int, width: int) -> list[str]:
    """Scalars of a flat mapping/list, comma-separated and wrapped at ``width``."""
    if isinstance(value, Mapping):
        parts = [f"{k}: {_inline(v)}" for k, v in value.items()]
    else:
        parts = [_inline(v) for v in value]
    lines: list[str] = []
    line = ""
    for part in parts:
        if line and indent + len(line) + 3 + len(part) > width:  # ', ' + part + ','
            lines.append(" " * indent + line + ",")
            line = part
        else:
            line = f"{line}, {part}" if line else part
    lines.append(" " * indent + line)
    return lines


class HumanPlayer:
    """Asks a person for each decision of one seat (same ``choose`` interface as a bot)."""

    def __init__(
        self,
        seat: int,
        inp: TextIO | None = None,
        out: TextIO | None = None,
        presentation: Presentation | None = None,
    ) -> None:
        self.seat = seat
        self._inp = inp
        self._out = out
        self.presentation = presentation
        self._options: list[dict[str, Any]] | None = None

    def offer(self, options: list[dict[str, Any]]) -> None:
        """The texts of the next decision's options (``id``, ``text``, ``group``), written by
        the driver from the state (serve/messages.py ``options_of``, what the web table sends):
        the person's screen is drawn from its seat's view and these texts only."""
        self._options = options

    @property
    def inp(self) -> TextIO:
        return self._inp if self._inp is not None else sys.stdin

    @property
    def out(self) -> TextIO:
        return self._out if self._out is not None else sys.stdout

    def show(self, view: Mapping[str, Any], legal: Sequence[str]) -> None:
        """Print the seat's view and the numbered options."""
        out = self.out
        out.write(f"\n--- seat {self.seat} to decide ---\n")
        pres = self.presentation
        options = self._options
        if pres is not None and "players" in view:
            from interpreter.cli.board import option_lines, print_board

            print_board(view, pres, out, WIDTH)
            out.write("options:\n")
            if options is None or [o["id"] for o in options] != list(legal):
                options = [
                    {"id": o, "text": pres.option_text(o), "group": pres.option_group(o)}
                    for o in legal
                ]
            for line in option_lines(options):
                out.write(line + "\n")
            out.flush()
            return
        text = format_view(view, indent=2)
        if text.strip():
            out.write(text + "\n")
        out.write("options:\n")
        digits = len(str(len(legal)))
        for number, option in enumerate(legal, 1):
            out.write(f"  {number:>{digits}}) {option}\n")
        out.flush()

    def choose(self, view: Mapping[str, Any], legal: Sequence[str]) -> str:
        """Show the decision and read answers until one names a legal option."""
        if not legal:
            raise ValueError("no legal options to choose from")
        view = dict(view)  # the seat's view as plain data: nothing but it is kept or shown
        self.show(view, legal)
        while True:
            answer = self._read(f"seat {self.seat}> ")
            if answer is None:
                raise PlayerLeft(self.seat)
            if answer.lower() in ("quit", "exit"):
                raise PlayerLeft(self.seat, f"typed {answer.lower()!r}")
            if answer in ("?", "help"):
                self.show(view, legal)
                self.out.write("(enter a number or an option id; 'quit' ends the game)\n")
                continue
            choice, problem = pick(answer, legal)
            if choice is not None:
                return choice
            self.out.write(problem + "\n")
            self.out.flush()

    def _read(self, prompt: str) -> str | None:
        """One stripped line, or None at end of input."""
        inp = self.inp
        if inp is sys.stdin and _isatty(inp) and _isatty(self.out):
            try:
                return input(prompt).strip()  # line editing when a person is typing
            except EOFError:
                self.out.write("\n")
                return None
        self.out.write(prompt)
        self.out.flush()
        line = inp.readline()
        if not line:
            self.out.write("\n")
            return None
        self.out.write(line if line.endswith("\n") else line + "\n")  # echo: readable transcript
        return line.strip()


def _isatty(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):
        return False


def pick(answer: str, legal: Sequence[str]) -> tuple[str | None, str]:
    """Resolve an answer (number, id or unique id prefix) to an option, or explain why not.

    >>> pick("2", ["pass", "take:a"])
    ('take:a', '')
    >>> pick("ta", ["pass", "take:a"])
    ('take:a', '')
    >>> pick("9", ["pass", "take:a"])[1]
    'no option 9: enter a number from 1 to 2 or an option id'
    """
    span = f"a number from 1 to {len(legal)}" if len(legal) > 1 else "1"
    if not answer:
        return None, f"enter {span} or an option id ('?' shows the options again)"
    if answer.isdigit():
        number = int(answer)
        if 1 <= number <= len(legal):
            return legal[number - 1], ""
        return None, f"no option {number}: enter {span} or an option id"
    if answer in legal:
        return answer, ""
    prefixed = [option for option in legal if option.startswith(answer)]
    if len(prefixed) == 1:
        return prefixed[0], ""
    if len(prefixed) > 1:
        shown = ", ".join(prefixed[:5]) + (", ..." if len(prefixed) > 5 else "")
        return None, f"{answer!r} matches several options ({shown}); type more of it"
    close = difflib.get_close_matches(answer, legal, n=1)
    hint = f"; did you mean {close[0]!r}?" if close else ""
    return None, f"{answer!r} is not an option: enter {span} or an option id{hint}"
