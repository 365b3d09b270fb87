"""A person playing a seat at the terminal: show the seat's view, list options, read a choice.

The person sees only ``state.view(seat)`` (what that seat may see, so hidden information stays
hidden), the shared log and the numbered legal options. With the ruleset's presentation each
turn is one calm screen (``calm.py``: the log since the seat's last turn, a compact board, the
options, sized to the terminal); ``b`` shows the whole board (``board.py``), ``log`` the log,
``? NAME`` a catalog entry's text, ``answers`` / ``always`` / ``never`` / ``ask`` the answers
set in advance to the game's optional questions (cli/answer_commands.py: a question with a standing
answer is answered by it, as this person's move, without a prompt). The person answers with
a number, an option id, or the start of an option's id or name. A bad entry is asked again
with a short message. End of input (Ctrl-D, or a piped script running out) raises
:class:`PlayerLeft`; Ctrl-C raises ``KeyboardInterrupt`` as usual; the caller saves the
partial game in both cases.
"""

from __future__ import annotations

import difflib
import shutil
import sys
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, TextIO

from interpreter.cli.answer_commands import COMMANDS, answer_command, answer_lines
from interpreter.cli.gesture_input import Gesture, gesture_lines, typed_picks
from interpreter.cli.viewtext import WIDTH, format_view
from interpreter.table.answers import Question, optional_answer, starting_answers
from interpreter.table.shapes import OptionEntry

if TYPE_CHECKING:
    from interpreter.table.presenter import Presentation

__all__ = ["HumanPlayer", "PlayerLeft", "TakeBack"]


class TakeBack(Exception):
    """The person at a seat asked to take back its last move (``undo``): the driver replays
    the game without it (engine/undo.py)."""

    def __init__(self, seat: int) -> None:
        super().__init__(f"seat {seat} takes back its last move")
        self.seat = seat


NOTHING_TO_UNDO = (
    "nothing to take back: only your own moves of this turn can be, until another seat moves, "
    "a card or anything hidden comes into view, or the game draws at random"
)


class PlayerLeft(Exception):
    """The person at a seat ended input (EOF or ``quit``) before the game was over."""

    def __init__(self, seat: int, why: str = "end of input") -> None:
        super().__init__(f"seat {seat} left the game ({why})")
        self.seat = seat


HELP = """\
answer with a number, an option id, or the start of an option's id or name;
  b (board)      the whole board        log       what happened since your last turn
  ? NAME         what an entry does     log all   the whole game so far
  ?              these options again    quit      stop the game (a --save keeps it)
  undo           take back your last move of this turn (while nothing was revealed)
  answers        your answers set in advance to the optional questions ("may" ...)
  always [N]     always take it         never [N] always pass        ask [N]  ask me again"""


class HumanPlayer:
    """Asks a person for each decision of one seat (same ``choose`` interface as a bot).

    With a presentation (a real ruleset), each turn is a calm screen (``calm.py``): the log
    since the seat's last turn, a compact board, the options, sized to the terminal; a
    compound decision (the same seat again, nothing else happened) redraws only the options.
    """

    def __init__(
        self,
        seat: int,
        inp: TextIO | None = None,
        out: TextIO | None = None,
        presentation: Presentation | None = None,
        questions: Sequence[Question] = (),
    ) -> None:
        self.seat = seat
        self.questions = list(questions)  # the game's optional questions (table/answers.py)
        # question key -> take / decline / ask: the ruleset's starting answers, then this
        # person's own (table/answers.py)
        self.answers: dict[str, str] = starting_answers(self.questions)
        # the key of the optional question asked now (None: none), written by the driver
        self.question: str | None = None
        # how many of its last moves the seat may take back now (engine/undo.py), written by
        # the driver
        self.undo = 0
        self._inp = inp
        self._out = out
        self.presentation = presentation
        self._options: list[OptionEntry] | None = None
        self._log: Sequence[Any] = ()
        self._previous: int | None = None
        self.seen = 0  # how much of the log this seat has been shown
        self._since: Sequence[Any] = ()
        # lines written since the last screen (a standing answer's): the next screen is that
        # much shorter, so the whole of it stays in the window
        self._said = 0
        # the gesture asked now (cli/gesture_input.py), written by the driver; the moves of a
        # typed gesture still to make; each step's last typed run (an assignment's proposal)
        self.gesture: Gesture | None = None
        self.queued: list[str] = []
        self.last_gestures: dict[str, list[str]] = {}
        # every seat's name (table/seat_names.py), set by the driver: the screens say them
        self.names: list[str] | None = None

    @property
    def name(self) -> str:
        """This seat as the person reads it: their name, else its number."""
        return self.names[self.seat] if self.names else f"seat {self.seat}"

    def named_lines(self, lines: Sequence[str]) -> list[str]:
        """Log lines with every "seat N" said by its name, and the end in the game's words."""
        if not self.names:
            return list(lines)
        from interpreter.table.endings import worded_end
        from interpreter.table.seat_names import with_names

        pres = self.presentation
        return [
            worded_end(with_names(line, self.names), pres)
            if pres is not None
            else with_names(line, self.names)
            for line in lines
        ]

    def offer(
        self,
        options: list[OptionEntry],
        log: Sequence[Any] = (),
        previous: int | None = None,
    ) -> None:
        """The texts of the next decision's options (``id``, ``text``, ``group``), written by
        the driver from the state (table/offers.py ``options_of``, what the web table sends),
        the shared log, and the seat that made the previous decision: the person's screen is
        drawn from its seat's view and these only."""
        self._options = options
        self._log = log
        self._previous = previous

    @property
    def inp(self) -> TextIO:
        return self._inp if self._inp is not None else sys.stdin

    @property
    def out(self) -> TextIO:
        return self._out if self._out is not None else sys.stdout

    def size(self) -> tuple[int, int]:
        """(columns, lines) of the person's terminal; a pipe or file gets WIDTH x 40."""
        if _isatty(self.out):
            columns, lines = shutil.get_terminal_size((WIDTH, 40))
            return max(columns, 40), max(lines, 12)
        return WIDTH, 40

    def _offered(self, legal: Sequence[str]) -> list[OptionEntry]:
        options = self._options
        pres = self.presentation
        if options is None or [o["id"] for o in options] != list(legal):
            assert pres is not None
            options = [pres.option_entry(o) for o in legal]
        return options

    def show(self, view: Mapping[str, Any], legal: Sequence[str]) -> None:
        """Print the decision: the calm screen with a presentation, else the view and options."""
        out = self.out
        if self.presentation is not None and "players" in view:
            self._calm(view, legal)
            return
        out.write(f"\n--- seat {self.seat} to decide ---\n")
        text = format_view(view, indent=2)
        if text.strip():
            out.write(text + "\n")
        self._plain_options(legal)

    def _plain_options(self, legal: Sequence[str]) -> None:
        out = self.out
        out.write("options:\n")
        digits = len(str(len(legal)))
        for number, option in enumerate(legal, 1):
            out.write(f"  {number:>{digits}}) {option}\n")
        out.flush()

    def _calm(self, view: Mapping[str, Any], legal: Sequence[str]) -> None:
        """Log since the last turn, header, compact board, options: at most a screenful."""
        from interpreter.cli.calm import recent_lines, summary_lines

        pres = self.presentation
        assert pres is not None
        width, height = self.size()
        since = list(self._log[self.seen :])
        self._since = since
        self.seen = len(self._log)
        compound = self._previous == self.seat and all(e[1] == self.seat for e in since)
        options = self._option_block(legal, width, height - 4)
        room = height - 3 - len(options) - self._said  # the blank line, header, prompt
        self._said = 0
        if compound:
            summary: list[str] = []
        else:
            # two lines kept for the log; cut short, the seat's own entry stays whole
            summary = summary_lines(
                self._named_board(view), view, view.get("seat"), width, max(room - 2, 1)
            )
        budget = min(room - len(summary), 2 if compound else 12)
        recent = recent_lines(since, budget, width) if since and budget > 0 else []
        recent = self.named_lines(recent)
        lines = ["", *recent, f"--- {self.name} to decide ---", *summary, *options]
        self.out.write("\n".join(lines) + "\n")
        self.out.flush()

    def _named_board(self, view: Mapping[str, Any]) -> Any:
        """The seat's board with every seat's area titled by its name."""
        pres = self.presentation
        assert pres is not None
        board = pres.board(view)
        for zone in board.seats:  # a board's zones are its own: retitling them is local
            if self.names and zone.seat is not None and 0 <= zone.seat < len(self.names):
                zone.title = self.names[zone.seat]
        return board

    def _option_block(self, legal: Sequence[str], width: int, rows: int) -> list[str]:
        from interpreter.cli.board import option_lines
        from interpreter.cli.calm import option_grid

        options = self._offered(legal)
        extra = []
        if self.gesture is not None:
            texts = {o["id"]: o["text"] for o in options}
            extra = gesture_lines(self.gesture, legal, texts, width)
        lines = ["options:", *option_lines(options, width), *extra]
        if len(lines) <= rows:
            return lines
        return [
            "options (type a number or the start of a name):",
            *option_grid(options, width, rows - 1 - len(extra)),
            *extra,
        ]

    def _board(self, view: Mapping[str, Any], legal: Sequence[str]) -> None:
        from interpreter.cli.board import print_board

        pres = self.presentation
        if pres is None or "players" not in view:
            self.show(view, legal)
            return
        width, height = self.size()
        print_board(view, pres, self.out, width)
        self.out.write("\n".join(self._option_block(legal, width, height)) + "\n")
        self.out.flush()

    def _info(self, name: str) -> None:
        from interpreter.cli.calm import describe, find_entry

        pres = self.presentation
        if pres is None:
            self.out.write("this game has no catalog texts to show\n")
            return
        key, problem = find_entry(pres, name)
        text = describe(pres, key, self.size()[0] - 2) if key is not None else [problem]
        self.out.write("\n".join(text) + "\n")

    def _show_log(self, everything: bool) -> None:
        from interpreter.cli.calm import log_lines

        entries = self._log if everything else self._since
        lines = self.named_lines(log_lines(entries)) or [
            "  (nothing happened since your last turn)"
        ]
        self.out.write("\n".join(lines) + "\n")

    def choose(self, view: Mapping[str, Any], legal: Sequence[str]) -> str:
        """Show the decision and read answers until one names a legal option."""
        if not legal:
            raise ValueError("no legal options to choose from")
        if self.queued:  # the next move of a gesture typed as one line
            move = self.queued.pop(0)
            if move in legal:
                return move
            self.queued.clear()
        view = dict(view)  # the seat's view as plain data: nothing but it is kept or shown
        calm = self.presentation is not None and "players" in view
        asked = next((q for q in self.questions if q.key == self.question), None)
        how = self.answers.get(self.question or "")
        ahead = optional_answer(legal, how, asked.decline) if asked is not None else None
        if ahead is not None:
            self._answered(ahead, legal, calm)
            return ahead
        self.show(view, legal)
        while True:
            answer = self._read(f"{self.name}> ")
            if answer is None:
                raise PlayerLeft(self.seat)
            chosen = self._answer(answer, view, legal, calm)
            if chosen is not None:
                return chosen
            self.out.flush()

    def _answer(
        self, answer: str, view: Mapping[str, Any], legal: Sequence[str], calm: bool
    ) -> str | None:
        """One line typed at the prompt: the move it names, or None (a command done, or the
        line refused with the reason written)."""
        word, _, rest = answer.partition(" ")
        word, rest = word.lower(), rest.strip()
        if word in ("quit", "exit") and not rest:
            raise PlayerLeft(self.seat, f"typed {word!r}")
        if self._command(word, rest, view, legal, calm):
            return None
        if word in COMMANDS:
            args = (self.questions, self.answers, self.question, legal)
            ahead, said = answer_command(word, rest, *args)
            self.out.write(said + "\n")
            if ahead is not None:
                self._answered(ahead, legal, calm)
            return ahead
        return self._pick(answer, legal, calm)

    def _command(
        self, word: str, rest: str, view: Mapping[str, Any], legal: Sequence[str], calm: bool
    ) -> bool:
        """A command that shows something (help, a rule's text, the board, the log, the
        standing answers) or takes moves back: True when ``word`` is one."""
        if word in ("?", "help", "info") and rest:
            self._info(rest)
        elif word in ("?", "help"):
            if calm:
                width, height = self.size()
                self.out.write("\n".join(self._option_block(legal, width, height - 6)))
                self.out.write("\n" + HELP + "\n")
            else:
                self.show(view, legal)
                self.out.write("(enter a number or an option id; 'quit' ends the game)\n")
        elif calm and word in ("b", "board") and not rest:
            self._board(view, legal)
        elif calm and word == "log" and rest in ("", "all"):
            self._show_log(everything=rest == "all")
        elif word == "undo" and not rest:
            if self.undo:
                raise TakeBack(self.seat)
            self.out.write(NOTHING_TO_UNDO + "\n")
        elif word == "answers" and not rest:
            self.out.write("\n".join(self._answer_lines()) + "\n")
        else:
            return False
        return True

    def _pick(self, answer: str, legal: Sequence[str], calm: bool) -> str | None:
        """The option (or the gesture's first move) a typed line names, else None with why."""
        texts = {o["id"]: o["text"] for o in self._offered(legal)} if calm else None
        if self.gesture is not None:
            moves, problem = self._gesture(answer, legal, texts)
            if moves:
                return moves[0]
            if problem:
                self.out.write(problem + "\n")
                return None
        choice, problem = pick(answer, legal, texts)
        if choice is None:
            self.out.write(problem + "\n")
        return choice

    def _gesture(
        self, answer: str, legal: Sequence[str], texts: Mapping[str, str] | None
    ) -> tuple[list[str], str]:
        """A line typed at a gesture: its moves (the first is made now, the others queued), or
        why it was refused; ([], "") when the line is one pick."""
        from interpreter.table.gestures import GestureRefused

        gesture = self.gesture
        assert gesture is not None
        picks, problem = typed_picks(answer, legal, gesture, pick, texts)
        if picks is None:
            return [], problem
        try:
            moves = gesture.plan(picks)
        except GestureRefused as exc:
            return [], f"{exc} (nothing was played)"
        self.last_gestures[gesture.step] = picks
        self.queued = moves[1:]
        return moves, ""

    def _answer_lines(self) -> list[str]:
        return answer_lines(self.questions, self.answers, self.size()[0])

    def _answered(self, option: str, legal: Sequence[str], calm: bool) -> None:
        """Say that a standing answer took ``option`` for this seat."""
        text = {o["id"]: o["text"] for o in self._offered(legal)}[option] if calm else option
        asked = next((q.text for q in self.questions if q.key == self.question), "")
        line = f"{self.name}, {asked}: {text} (answered in advance; 'answers' changes it)"
        self.out.write(line + "\n")
        self._said += max(1, -(-len(line) // max(self.size()[0], 1)))  # the rows it wraps to
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


def pick(
    answer: str, legal: Sequence[str], texts: Mapping[str, str] | None = None
) -> tuple[str | None, str]:
    """Resolve an answer to an option, or explain why not: a number, an id, a unique prefix of
    an id, else (with the options' ``texts``) the start of a name the option names or of a word
    of its text, case-insensitive (``big`` finds ``Buy Big hat``).

    >>> pick("2", ["pass", "take:a"])
    ('take:a', '')
    >>> pick("ta", ["pass", "take:a"])
    ('take:a', '')
    >>> pick("big h", ["pass", "buy:big-hat"], {"pass": "Pass", "buy:big-hat": "Buy Big hat"})
    ('buy:big-hat', '')
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
    if not prefixed and texts:
        prefixed = _by_name(answer, legal, texts)
    if len(prefixed) == 1:
        return prefixed[0], ""
    if len(prefixed) > 1:
        shown = ", ".join(prefixed[:5]) + (", ..." if len(prefixed) > 5 else "")
        return None, f"{answer!r} matches several options ({shown}); type more of it"
    if texts:  # a person reads the options' words: the suggestion is said in them too
        words: dict[str, str] = {}
        for option in legal:
            text = texts.get(option, option)
            words.setdefault(_words(text), text)
            words.setdefault(_words(option.split(":", 1)[-1]), text)
        near = difflib.get_close_matches(_words(answer), list(words), n=1)
        hint = f"; did you mean {words[near[0]]!r}?" if near else ""
        return None, f"{answer!r} is not an option: enter {span} or a word of an option{hint}"
    close = difflib.get_close_matches(answer, legal, n=1)
    hint = f"; did you mean {close[0]!r}?" if close else ""
    return None, f"{answer!r} is not an option: enter {span} or an option id{hint}"


def _words(text: str) -> str:
    return " ".join(text.lower().replace("-", " ").replace("_", " ").replace(":", " ").split())


def _by_name(answer: str, legal: Sequence[str], texts: Mapping[str, str]) -> list[str]:
    """The options whose id parts or text have a word starting with ``answer`` (in words:
    case, ``-`` and ``_`` aside); the id's parts first, then the whole text."""
    want = " " + _words(answer)
    for where in (lambda o: o.split(":", 1)[-1], lambda o: texts.get(o, "")):
        found = [o for o in legal if want in " " + _words(where(o))]
        if found:
            return found
    return []
