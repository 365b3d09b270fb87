"""What runs the rules of the server's tables: a :class:`Player` holds the tables given to it
(each one's state and bots) and makes their moves, each within a CPU-time budget.

A table's rules may be a stranger's (an uploaded overlay): its loops, its game's length are
the uploader's to choose. So the server never runs them on its event loop. A worker process
(``rule_workers.py``) runs a Player and answers each request (``worker_protocol.py``) with a
:func:`snapshot` of the new position and the options of the seat to move (their texts and
previews run rule code too); ``rulebook serve --workers 0`` runs one in the server's own
process (for tests), without the CPU budget, which needs a process of its own.

Every request that runs rules runs under :func:`cpu_budget`: past its CPU time the work is
interrupted (:class:`OverBudget`) and the table is left as it was before the request.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TypeVar

from interpreter.bots import UnknownBotError, make_bot
from interpreter.bots.registry import Bot
from interpreter.diagnostics.errors import ReplayError, RulebookError
from interpreter.diagnostics.suggest import echo
from interpreter.engine.game import Game
from interpreter.engine.save_upgrade import upgrade_choices
from interpreter.engine.savefile import FORMAT, SaveGame
from interpreter.engine.state import State
from interpreter.engine.undo import watch_undo
from interpreter.infoset.worlds import SeatView
from interpreter.model.limits import GameLimitError
from interpreter.serve.board_parts import BoardParts
from interpreter.serve.boards_ahead import boards_ahead
from interpreter.serve.caps import Caps, Composition, compile_game, is_uploaded
from interpreter.serve.cpu_budget import OverBudget, cpu_budget
from interpreter.serve.replaying import NotCached, ReplayCache
from interpreter.serve.snapshot import snapshot
from interpreter.serve.worker_protocol import (
    Answer,
    BotRequest,
    Composed,
    Failure,
    Moved,
    MoveRequest,
    Opened,
    OpenRequest,
    Planned,
    PlanRequest,
    RecordMade,
    RecordRequest,
    Replayed,
    ReplayRequest,
    Request,
    SavedHeader,
)
from interpreter.table.gestures import GestureRefused, gesture_of, plan_moves
from interpreter.table.offers import options_of
from interpreter.table.presenter import Presentation

__all__ = ["Player"]

HUMAN = "human"
MAX_GAMES = 32  # compiled compositions a worker keeps
Done = TypeVar("Done")  # what a request's work answers when it runs to its end


def _composition(header: Composed, options: Mapping[str, object]) -> Composition:
    """The key of a compiled game: the header's game, players and overlays, and ``options``."""
    return (
        header["game"],
        header["players"],
        tuple(header["overlays"]),
        tuple(sorted((k, str(v)) for k, v in options.items())),
    )


@dataclass
class Played:
    """One table as its player holds it."""

    game: Game
    presentation: Presentation
    state: State
    seats: list[str]
    bots: dict[int, Bot] = field(default_factory=dict)
    # the generator whose state the server holds (snapshot.py)
    sent_rng: random.Random | None = None
    parts: BoardParts = field(default_factory=BoardParts)  # its boards' parts (boards_ahead.py)


class Player:
    """The tables one worker plays (by table id) and the games compiled for them."""

    def __init__(self, caps: Caps, budget: bool) -> None:
        self.caps = caps
        self.budget = budget  # False in the server's own process (no timer signal there)
        self.games: dict[Composition, tuple[Game, Presentation]] = {}
        self.tables: dict[str, Played] = {}
        self.replays = ReplayCache()  # positions of the saves replayed last (a slider's steps)

    def _seconds(self, moves: int = 1) -> float | None:
        return self.caps.move_cpu_s * max(moves, 1) if self.budget else None

    def handle(self, request: Request) -> Answer:
        """One request, answered as plain data (``worker_protocol.py``): a failure (``failed``:
        rule, budget, bot, unknown...) with its ``message``, or the answer of its ``op``."""
        if request["op"] == "drop":
            self.tables.pop(request["table"], None)
            return {}
        if request["op"] == "compile":  # a composition the server will compile only if it fits
            return self._compile(request["header"]) or {}
        if request["op"] == "replay":
            return self._replay(request)
        if request["op"] == "record":
            return self._record(request)
        if request["op"] == "open":
            failed = self._compile(request["header"])
            if failed:
                return failed
            return self._open(request)
        table_id = request["table"]
        played = self.tables.get(table_id)
        if played is None:
            return {"failed": "unknown", "message": f"table {table_id} is not open here"}
        # each request named again once narrowed to its op: a closure sees only the union
        if request["op"] == "plan":  # a gesture's picks tried on a copy (table/gestures.py)
            plan = request
            return self._guarded(lambda: self._plan(played, plan), len(plan["picks"]))
        if request["op"] == "move":
            move = request
            return self._guarded(lambda: self._move(played, move, move["option"]))
        bot = request
        return self._guarded(lambda: self._bot(played, bot))

    def _record(self, request: RecordRequest) -> Failure | RecordMade:
        """A seat's record of a live table (``records.py``), its decisions played within the
        budget of one move each."""
        from types import SimpleNamespace

        from interpreter.serve.records import seat_record

        saved = self._saved(request["header"], request["choices"])
        if not isinstance(saved, tuple):
            return saved
        game, _pres, save = saved
        table = SimpleNamespace(
            save=save, game=game, id=request["table"], practice=request["practice"]
        )
        seat = request["seat"]
        return self._guarded(lambda: {"record": seat_record(table, seat)}, len(save.choices) + 1)

    def _replay(self, request: ReplayRequest) -> Failure | Replayed:
        """A replay step's message (``replaying.py``), its decisions played within the budget
        of one move each."""
        saved = self._saved(request["header"], request["choices"])
        if not isinstance(saved, tuple):
            return saved
        game, pres, save = saved
        step = request["step"]
        moves = len(save.choices) if step is None else min(step, len(save.choices))

        def replayed() -> Failure | Replayed:
            try:
                message, played = self.replays.message(
                    request["key"], game, pres, save, step, request["most"]
                )
            except NotCached as exc:
                return {"failed": "uncached", "message": str(exc)}
            return {"replayed": message, "played": played}

        return self._guarded(replayed, moves)

    def _saved(
        self, header: SavedHeader, choices: list[str]
    ) -> Failure | tuple[Game, Presentation, SaveGame]:
        """The compiled game of a save's header and the save itself, or why it cannot be
        compiled."""
        failed = self._compile(header)
        if failed:
            return failed
        game, pres = self._compiled(header)
        return game, pres, SaveGame(**header, choices=list(choices))

    def _compile(self, header: Composed) -> Failure | None:
        """Compile the header's composition (kept for the requests that follow), one with an
        uploaded overlay within the server's compile budget: None, or why not (``failed``:
        rule, budget)."""
        stranger = any(is_uploaded(o) for o in header["overlays"])  # the catalog's: trusted
        seconds = self.caps.compile_cpu_s if self.budget and stranger else None
        try:
            with cpu_budget(seconds):
                self._compiled(header)
        except OverBudget:
            return {
                "failed": "budget",
                "message": "compiling its rules used more than this server's "
                f"{self.caps.compile_cpu_s:g} s of CPU time",
            }
        except RulebookError as exc:
            return {"failed": "rule", "message": str(exc)}
        except RecursionError:
            return {"failed": "rule", "message": "its rules nest too deep to compile"}
        return None

    def _guarded(self, work: Callable[[], Done], moves: int = 1) -> Done | Failure:
        try:
            with cpu_budget(self._seconds(moves)):
                return work()
        except OverBudget:
            return {"failed": "budget", "message": self._over_message(moves)}
        except GameLimitError as exc:
            return {"failed": "limit", "message": str(exc)}
        except RulebookError as exc:
            return {"failed": "rule", "message": str(exc)}

    def _over_message(self, moves: int) -> str:
        seconds = self.caps.move_cpu_s * max(moves, 1)
        return f"the rules used more than this server's {seconds:g} s of CPU time for one move"

    def _compiled(self, header: Composed) -> tuple[Game, Presentation]:
        key = _composition(header, header["options"])
        found = self.games.get(key)
        if found is None:
            found = compile_game(
                header["game"],
                header["players"],
                header["overlays"],
                header["options"],
                self.caps,
            )
            # kept also under every option's value as compiled: a table's save names them all
            # (its `open` finds the game the `compile` before it made, given only some)
            for known in (key, _composition(header, found[0].options)):
                if len(self.games) >= MAX_GAMES:  # the oldest composition goes
                    del self.games[next(iter(self.games))]
                self.games[known] = found
        return found

    def _open(self, request: OpenRequest) -> Failure | Opened:
        """Set a table up (``choices``: replayed, its bots seeing their own decisions again,
        so that they go on as they would have), within the budget of one move per choice."""
        game, pres = self._compiled(request["header"])
        return self._guarded(lambda: self._opened(request, game, pres), len(request["choices"]))

    def _opened(self, request: OpenRequest, game: Game, pres: Presentation) -> Failure | Opened:
        table_id = request["table"]
        header = request["header"]
        choices = list(request["choices"])
        converted = header["format"] != FORMAT
        if converted:  # a table of an older format: its moves in this format's terms
            try:
                choices = upgrade_choices(
                    game, header["format"], header["seed"], choices, f"table {table_id}"
                )
            except ReplayError as exc:
                return {"failed": "rule", "message": str(exc)}
        state = game.new_state(header["seed"])
        if HUMAN in header["seats"]:  # a person may take moves back (engine/undo.py)
            watch_undo(state)
        bots = {}
        for seat, kind in enumerate(header["seats"]):
            if kind != HUMAN:
                try:
                    bots[seat] = make_bot(kind, seat, header["seed"])
                except UnknownBotError as exc:
                    return {"failed": "bot", "message": f"seat {seat}: {exc}"}
        played = Played(game, pres, state, list(header["seats"]), bots)
        for choice in choices:
            bot = bots.get(state.to_move)
            if bot is not None:
                bot.choose(SeatView(state, state.to_move), state.legal_options())
            state.apply(choice)
        self.tables[table_id] = played
        answer = self._answer(played, state, 0, 0)
        if converted:
            answer["choices"] = choices
        return answer

    def _move(
        self, played: Played, request: MoveRequest | BotRequest, option: str
    ) -> Failure | Moved:
        """Apply ``option`` to a copy and keep the copy once the whole move has run (a rule
        that fails, or the budget, leaves the table as it was)."""
        state = played.state
        if option not in state.legal_options():
            return {"failed": "illegal", "message": f"{echo(option)} is not a legal option now"}
        moved = state.copy(recording=True)
        moved.log = None if state.log is None else list(state.log)
        mover = state.to_move
        moved.apply(option)
        shown = self._answer(
            played, moved, request["log_from"], request["history_from"], played.sent_rng, state
        )
        played.state = moved
        answer: Moved = {
            "snap": shown["snap"],
            "options": shown["options"],
            "gesture": shown["gesture"],
            "choice": option,
        }
        if "names" in request:  # the boards the server is sure to send next, drawn here
            names = request["names"]
            answer["boards"] = boards_ahead(
                played.parts, played.presentation, moved, played.seats, mover, names
            )
        return answer

    def _plan(self, played: Played, request: PlanRequest) -> Failure | Planned:
        try:
            moves = plan_moves(played.state, played.presentation, request["seat"], request["picks"])
        except GestureRefused as exc:
            return {"failed": "illegal", "message": str(exc)}
        return {"moves": moves}

    def _bot(self, played: Played, request: BotRequest) -> Failure | Moved:
        state = played.state
        seat = state.to_move
        bot = played.bots.get(seat) if not state.is_over else None
        if bot is None:
            return {"failed": "unknown", "message": "no bot is to move"}
        legal = state.legal_options()
        try:
            choice = bot.choose(SeatView(state, seat), legal)
        except RulebookError as exc:
            return {"failed": "rule", "message": str(exc)}
        except Exception as exc:  # noqa: BLE001 - a bot's own fault, named without a traceback
            kind = played.seats[seat]
            return {
                "failed": "bot",
                "message": f"seat {seat}'s bot ({kind}) failed: {type(exc).__name__}: {exc}",
            }
        if choice not in legal:
            return {
                "failed": "rule",
                "message": f"it chose {echo(choice)}, which is not a legal option now",
            }
        return self._move(played, request, choice)

    def _answer(
        self,
        played: Played,
        state: State,
        log_from: int,
        history_from: int,
        known_rng: random.Random | None = None,
        known: State | None = None,
    ) -> Opened:
        """The new position for the server, with the options of a person to move worded (a
        bot's are not shown to anybody); ``known``: the position the server holds (only the
        fields that differ from it are sent)."""
        seat = None if state.is_over else state.to_move
        options = []
        gesture = None
        if seat is not None and played.seats[seat] == HUMAN:
            options = options_of(state, played.presentation, seat)
            gesture = gesture_of(state, played.presentation, seat)
        snap = snapshot(state, log_from, history_from, known_rng, known)
        played.sent_rng = state._rng
        return {"snap": snap, "options": options, "gesture": gesture}
