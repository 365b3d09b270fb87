"""``rulebook play``: play one full game with bots and/or people at the terminal.

The loop is the engine's one interface: ask who decides (``state.to_move``), list the legal
options, let that seat's agent (a bot or a person) choose from its own view, apply. The log is
printed round by round as it grows, then the score table; ``--json`` adds one JSON line last.
The seed is always printed (and saved), so any game can be replayed exactly.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import interpreter.cli as cli
from interpreter.bots import UnknownBotError, make_bot
from interpreter.cli import Command, RulebookError, config_error, flags, replay_error
from interpreter.cli.calm import log_lines
from interpreter.cli.config import (
    HUMAN,
    GameConfig,
    UsageError,
    load_config_file,
    parse_seat_list,
    resolve_config,
    resolve_from_flags,
    split_commas,
)
from interpreter.cli.gesture_input import Gesture
from interpreter.cli.human import HumanPlayer, PlayerLeft, TakeBack
from interpreter.cli.logfmt import LogPrinter, Output
from interpreter.cli.replay import apply_choices
from interpreter.engine.game import Game
from interpreter.engine.save_upgrade import upgrade_choices
from interpreter.engine.savefile import FORMAT, SaveGame, read_save, result_to_dict, write_save
from interpreter.engine.state import State
from interpreter.engine.undo import taken_back, undoable, watch_undo
from interpreter.infoset.worlds import SeatView
from interpreter.table.answers import Question, asked, questions

__all__ = ["COMMAND", "drive", "make_agents", "play", "run"]


def make_agents(
    seats: Sequence[str],
    seed: int,
    presentation: Any = None,
    optional: Sequence[Question] = (),
) -> list[Any]:
    """One agent per seat: a :class:`HumanPlayer` (who may answer the game's ``optional``
    questions in advance) or the named bot seeded from the game seed."""
    agents: list[Any] = []
    for seat, kind in enumerate(seats):
        if kind == HUMAN:
            agents.append(HumanPlayer(seat, presentation=presentation, questions=optional))
            continue
        try:
            agents.append(make_bot(kind, seat, seed))
        except UnknownBotError as exc:
            raise config_error(f"seat {seat}: {exc}") from None
    return agents


def drive(
    state: State,
    agents: Sequence[Any],
    printer: LogPrinter,
    record: Callable[[str], None],
    forget: Callable[[int], None] = lambda kept: None,
) -> None:
    """Run decisions until the game is over; ``record`` gets every applied option id, and
    ``forget`` the number of choices kept when a person takes a move back (``undo``)."""
    previous: int | None = None  # the seat of the decision just made
    while not state.is_over:
        seat = state.to_move
        if seat is None or not 0 <= seat < len(agents):
            raise RuntimeError(f"the engine says seat {seat!r} is to move in an unfinished game")
        legal = state.legal_options()
        if not legal:
            raise RuntimeError(f"the engine lists no legal option for seat {seat}")
        agent = agents[seat]
        if isinstance(agent, HumanPlayer):
            # which optional question this is, for the person's answers set in advance
            agent.question = asked(state)
            agent.undo = undoable(state, seat)
        if isinstance(agent, HumanPlayer) and agent.presentation is not None:
            # the texts are written here, where the state is; the person gets only them and
            # the seat's view (hidden information never reaches the screen)
            from interpreter.table.offers import options_of

            # the log as this seat reads it: the names of its own hidden cards in its lines
            agent.offer(options_of(state, agent.presentation, seat), state.log_for(seat), previous)
            agent.gesture = gesture_at(state, agent, seat)
        try:
            choice = agent.choose(SeatView(state, seat), legal)
        except TakeBack:
            _take_back(state, seat, agents, printer)
            forget(len(state.history))
            previous = None
            continue
        state.apply(choice)
        record(choice)
        printer.flush(state)
        previous = seat


def _take_back(state: State, seat: int, agents: Sequence[Any], printer: LogPrinter) -> None:
    """Take back ``seat``'s last move: the state becomes the game replayed without it (in
    place: the caller holds the state), and every screen goes on from the shorter log."""
    again = taken_back(state, seat, 1)
    state.__dict__.update(again.__dict__)
    printer.rewind(state)
    for agent in agents:
        if isinstance(agent, HumanPlayer):
            agent.seen = min(agent.seen, len(state.log or ()))
    agents[seat].out.write(f"{agents[seat].name} takes back their last move\n")


def gesture_at(state: State, agent: HumanPlayer, seat: int) -> Gesture | None:
    """The gesture the person at ``seat`` is asked now (table/gestures.py), with the plan that
    tries a typed line on a copy of the state; None when none (or a typed one goes on)."""
    from interpreter.table.gestures import gesture_of, plan_moves

    pres = agent.presentation
    if pres is None:  # a person without the ruleset's presentation is asked no gesture
        return None
    found = None if agent.queued else gesture_of(state, pres, seat)
    if found is None:
        return None
    last = agent.last_gestures.get(found["step"], ())
    return Gesture(found, lambda picks: plan_moves(state, pres, seat, picks), last)


def presentation_of(game: str, overlays: Sequence[str], loaded: Any = None) -> Any:
    """How the game looks to a person at the terminal (the web table's presentation): read
    from the loaded game's typed rules, else from its rule files; None when they cannot be
    read here (the person then sees the plain view)."""
    try:
        from interpreter.ruleset.ruleset import Ruleset, load_ruleset
        from interpreter.table.presenter import Presentation

        ruleset = getattr(loaded, "ruleset", None)  # a stand-in game (a test's) may have none
        if not isinstance(ruleset, Ruleset) or ruleset.data is None:
            ruleset = load_ruleset(game, overlays)
        return Presentation.from_ruleset(ruleset)
    except Exception:  # noqa: BLE001 - the game itself loaded; only the looks are missing
        return None


def save_game_name(name_or_path: str) -> str:
    """What a save records as the game: the catalog name, or an absolute path to a ruleset."""
    if os.sep in name_or_path or (os.altsep and os.altsep in name_or_path):
        return os.path.abspath(name_or_path)
    if os.path.exists(name_or_path) and not _known_name(name_or_path):
        return os.path.abspath(name_or_path)
    return name_or_path


def _known_name(name: str) -> bool:
    try:
        return any(info.name == name for info in cli.list_games())
    except Exception:  # the catalog is only a hint here; never fail a save over it
        return False


def check_save_path(path: str) -> None:
    """Fail before a long game rather than after it when the save cannot be written."""
    folder = Path(path).parent
    if not folder.is_dir():
        raise FileNotFoundError(f"cannot save to {path}: folder {str(folder)!r} does not exist")
    if Path(path).is_dir():
        raise IsADirectoryError(f"cannot save to {path}: it is a folder")


def run(args: argparse.Namespace) -> int:
    """Entry point of ``rulebook play``."""
    if args.resume:
        return resume(args)
    file_config = load_config_file(args.config) if args.config else None
    bots = split_commas(args.bots)
    game = args.game or (file_config or {}).get("game")
    if bots is None and not (file_config or {}).get("seats") and game:
        # a person's opponent: the game's own fast bot (random for a game without one)
        from interpreter.bots import default_bot

        bots = [default_bot(str(game))]
    cfg = resolve_from_flags(args, file_config, seed=args.seed, humans=args.human, bots=bots)
    if args.save:
        check_save_path(args.save)
    return play(cfg, Output(args.json, args.quiet), save_path=args.save, names=args.name or ())


def resume(args: argparse.Namespace) -> int:
    """``play --resume FILE``: replay a partial save, then play on from where it stopped."""
    fixed = {
        "GAME": args.game,
        "--config": args.config,
        "--players": args.players,
        "--with": args.overlays,
        "--option": args.options,
        "--seed": args.seed,
    }
    clashing = [flag for flag, value in fixed.items() if value is not None]
    if clashing:
        raise UsageError(
            f"--resume takes the game setup from the save; drop {', '.join(clashing)} "
            "(only --human, --bots, --save, --json and --quiet go with it)"
        )
    save = read_save(args.resume)
    if save.result is not None:
        raise replay_error("this game is already finished; 'rulebook replay' shows it", args.resume)
    cfg = resolve_config(
        {
            "game": save.game,
            "players": save.players,
            "with": save.overlays,
            "options": save.options,
            "seed": save.seed,
            "seats": save.seats,
        },
        humans=args.human,
        bots=split_commas(args.bots),
    )
    if args.save:
        check_save_path(args.save)
    output = Output(args.json, args.quiet)
    return play(
        cfg,
        output,
        save_path=args.save,
        prior=save.choices,
        source=args.resume,
        prior_format=save.format,
        names=args.name or (),
    )


def play(
    cfg: GameConfig,
    output: Output,
    save_path: str | None = None,
    prior: Sequence[str] = (),
    source: str = "<save>",
    prior_format: str = FORMAT,
    names: Sequence[str] = (),
) -> int:
    """Load the game of ``cfg``, play it to the end, report, save. Returns the exit code.

    ``prior`` are choices already made (a resumed partial save, named ``source``); they are
    replayed and printed first; ``prior_format`` is the save format they are in (an older
    one's are converted first, engine/save_upgrade.py, and the game is saved in this one).
    ``names``: the names of the
    people at the terminal, one per person's seat in order (``--name``).
    """

    game = cli.load_game(cfg.game, cfg.players, cfg.overlays, cfg.options)
    seats = list(cfg.seats)
    pres = presentation_of(cfg.game, cfg.overlays, game) if HUMAN in seats else None
    rules = getattr(game, "rules", None)  # a stand-in game (a test's) may have no rules
    optional = questions(rules) if HUMAN in seats and rules is not None else ()
    agents = make_agents(seats, cfg.seed, pres, optional)
    if HUMAN in seats:  # a person reads every seat by its name, the bots by their kind
        everyone = seat_names_of(seats, names)
        output.names, output.pres = everyone, pres
        for agent in agents:
            if isinstance(agent, HumanPlayer):
                agent.names = everyone
    elif names:
        raise UsageError("--name names a person at this terminal: give --human SEATS too")
    output.header(game, cfg.seed, seats)
    printer = LogPrinter(output.out, enabled=output.log)
    if prior_format != FORMAT:
        prior = upgrade_choices(game, prior_format, cfg.seed, prior, source)
    state = game.new_state(cfg.seed)
    if HUMAN in seats and rules is not None:  # a person may take moves back (`undo`)
        watch_undo(state)
    people = [a for a in agents if isinstance(a, HumanPlayer) and a.presentation is not None]
    if prior or not people:  # else a person's first screen shows the set-up, in names
        printer.flush(state)
    apply_choices(state, prior, printer, source)
    choices: list[str] = list(prior)
    for person in people:
        # from here each person's screen shows the log since that seat's last turn, so the
        # round log is not printed as it grows; its tail is printed when the game stops
        person.seen = len(state.log or ()) if prior else 0
        printer.enabled = False

    def save(result: dict[str, Any] | None) -> None:
        if save_path:
            _save(save_path, cfg, game, state, seats, choices, result)

    try:
        drive(
            state,
            agents,
            printer,
            choices.append,
            lambda kept: choices.__delitem__(slice(kept, None)),
        )
    except PlayerLeft as left:
        printer.flush(state)
        _print_tail(state, people, output)
        output.outcome(game, cfg.seed, seats, state, None)
        print(f"rulebook: {left}; game stopped", file=sys.stderr)
        save(None)
        return 0
    except (KeyboardInterrupt, RulebookError):
        save(None)
        raise
    _print_tail(state, people, output)
    result = result_to_dict(state.result())
    output.outcome(game, cfg.seed, seats, state, result)
    save(result)
    return 0


def seat_names_of(seats: Sequence[str], names: Sequence[str]) -> list[str]:
    """Every seat's name: the people's from ``--name`` (in the order of their seats, checked
    as the web table checks them), the others "Player N"; the bots by their kind."""
    from interpreter.table.seat_names import NameRefused, check_name, seat_names

    people = [seat for seat, kind in enumerate(seats) if kind == HUMAN]
    if len(names) > len(people):
        raise UsageError(
            f"--name given {len(names)} times for {len(people)} person's seat(s): "
            "one name per --human seat, in order"
        )
    chosen: dict[int, str] = {}
    for seat, raw in zip(people, names, strict=False):
        try:
            chosen[seat] = check_name(raw, seat, seat_names(seats, chosen))
        except NameRefused as exc:
            raise UsageError(f"--name {raw!r}: {exc}") from None
    return seat_names(seats, chosen)


def _print_tail(state: State, people: Sequence[HumanPlayer], output: Output) -> None:
    """The log since the last screen a person at the terminal was shown (the round log is not
    printed while people play: their screens show it), as the person's seat reads it."""
    if people and output.log:
        # one person at the terminal reads its own lines; several share the public log
        reader = people[0].seat if len(people) == 1 else None
        lines = log_lines(state.log_for(reader)[max(p.seen for p in people) :])
        for line in people[0].named_lines(lines):
            output.out.write(line + "\n")
        output.out.flush()


def _save(
    path: str,
    cfg: GameConfig,
    game: Game,
    state: State,
    seats: list[str],
    choices: list[str],
    result: dict[str, Any] | None,
) -> None:
    """Write the game so far (``result`` None: a partial game, for ``--resume``)."""
    write_save(
        path,
        SaveGame(
            game=save_game_name(cfg.game),
            players=game.players,
            overlays=list(game.overlays),
            options=dict(game.options),
            seed=cfg.seed,
            seats=seats,
            choices=list(choices),
            result=result,
        ),
    )
    what = "game" if result is not None else "partial game"
    print(f"rulebook: {what} saved to {path}", file=sys.stderr)


def configure(parser: argparse.ArgumentParser) -> None:
    """Declare the arguments of ``rulebook play``."""
    flags.add_game(
        parser,
        "a game name (see 'rulebook list') or a path to a ruleset; "
        "optional when --config names one",
    )
    flags.add_players(parser, "player count")
    flags.add_overlays(parser, "overlays to apply (expansions, variants, house rules); repeatable")
    flags.add_options(parser, "set a game option (see 'rulebook list'); repeatable")
    parser.add_argument(
        "--config", metavar="FILE", help="a YAML game config; flags override its keys"
    )
    flags.add_seed(parser, "random seed (default: random, always printed)")
    parser.add_argument(
        "--human",
        type=parse_seat_list,
        metavar="SEATS",
        help="comma-separated seats played by a person at this terminal, e.g. 0,2",
    )
    flags.add_bots(
        parser,
        "one bot for every seat, or one per seat (default: the game's own bot, such as "
        "pr-heuristic, else random)",
    )
    parser.add_argument(
        "--name",
        action="append",
        metavar="NAME",
        help="the name of the person at a --human seat (repeatable: one per seat, in order); "
        "the others read it in the log and the scores (default: Player N)",
    )
    parser.add_argument(
        "--save", metavar="FILE", help="write the game (or the partial game) to FILE"
    )
    parser.add_argument(
        "--resume",
        metavar="FILE",
        help="continue a partial save (setup and choices come from FILE; "
        "--human/--bots may reassign seats)",
    )
    flags.add_outcome(parser)


COMMAND = Command(
    name="play",
    help="play a game with bots and/or people at the terminal",
    description="Play one full game. Seats not given to --human are played by bots. "
    "Example: rulebook play GAME --players 4 --seed 7 --human 0 --save game.json",
    configure=configure,
    run=run,
)
