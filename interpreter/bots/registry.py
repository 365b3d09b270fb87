"""The bot registry: the names ``--bots``, configs and ``rulebook list`` know, and their factories.

Kept apart from the package's ``__init__`` so the plugin loader (plugins.py) can register the
game folders' bots here while ``__init__`` imports the loader: neither imports the other.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from interpreter.diagnostics.suggest import did_you_mean, echo

__all__ = [
    "BOTS",
    "Bot",
    "BotParam",
    "BotSpec",
    "UnknownBotError",
    "bot_base",
    "bot_names",
    "bot_title",
    "default_bot",
    "make_bot",
    "parse_bot_spec",
    "plays",
    "register_bot",
]


class Bot(Protocol):
    """What every bot offers: pick one of ``legal`` given the seat's ``view``."""

    def choose(self, view: Mapping[str, Any], legal: Sequence[str]) -> str: ...


@dataclass(frozen=True)
class BotParam:
    """One parameter a bot spec may set (``search:iterations=400``): its type, default, doc."""

    kind: type
    default: Any
    doc: str


@dataclass(frozen=True)
class BotSpec:
    """A registered bot: its name, a one-line description, a factory (seat, seed, **params)
    -> Bot, and the parameters a spec may give it."""

    name: str
    doc: str
    factory: Callable[..., Bot]
    params: Mapping[str, BotParam] = field(default_factory=dict)
    # the one game a game folder's own bot plays (it knows that game's ids); None: any game
    game: str | None = None
    # the parameter a bare first value fills (``learned:FILE`` is ``learned:model=FILE``)
    positional: str | None = None
    # how a person reads the bot's seat at a table ("Random bot"); "": "NAME bot"
    title: str = ""


class UnknownBotError(KeyError):
    """Raised by :func:`make_bot` for a name that is not registered (message has suggestions)."""

    def __str__(self) -> str:
        return str(self.args[0])


BOTS: dict[str, BotSpec] = {}


def register_bot(
    name: str,
    doc: str,
    factory: Callable[..., Bot],
    params: Mapping[str, BotParam] | None = None,
    game: str | None = None,
    positional: str | None = None,
    title: str = "",
) -> None:
    """Add a bot to the registry so the command line and ``rulebook list`` know it (``game``:
    the only game it plays, for a bot that knows one game's ids; ``positional``: the parameter
    a bare first value sets, as in ``learned:FILE``; ``title``: its seat's name at a table)."""
    if name in BOTS:
        raise ValueError(f"bot {name!r} is already registered")
    BOTS[name] = BotSpec(name, doc, factory, dict(params or {}), game, positional, title)


def bot_title(spec: str) -> str:
    """How a person reads a bot's seat: its registered title ("Heuristic bot"), else the
    name of its spec followed by "bot"."""
    entry = BOTS.get(bot_base(spec))
    if entry is not None and entry.title:
        return entry.title
    return f"{bot_base(spec)} bot"


def default_bot(game: str) -> str:
    """The opponent a table or a terminal game gets unless told otherwise: the game's own bot
    (the first its folder registers: a fast player that knows the game), else ``random``."""
    for entry in BOTS.values():
        if entry.game == game:
            return entry.name
    return "random"


def plays(spec: str, game: str) -> bool:
    """Whether the bot of ``spec`` can play ``game`` (a game's own bot plays only that game;
    an unknown name is left to :func:`make_bot` to report)."""
    entry = BOTS.get(bot_base(spec))
    return entry is None or entry.game is None or entry.game == game


def bot_base(spec: str) -> str:
    """The bot name of a spec: ``search:iterations=400`` -> ``search``."""
    return spec.partition(":")[0].strip()


def parse_bot_spec(spec: str) -> tuple[BotSpec, dict[str, Any]]:
    """The registered bot and its parameters of ``NAME[:KEY=VALUE[:KEY=VALUE...]]``."""
    name, _, rest = spec.partition(":")
    entry = BOTS.get(name.strip())
    if entry is None:
        close = did_you_mean(name, BOTS)
        hint = f"; did you mean {close!r}?" if close else ""
        known = ", ".join(bot_names())
        raise UnknownBotError(f"unknown bot {echo(name)} (known bots: {known}){hint}")
    params: dict[str, Any] = {}
    for n, part in enumerate(filter(None, (x.strip() for x in rest.split(":")))):
        key, eq, text = part.partition("=")
        if n == 0 and not eq and entry.positional:
            key, eq, text = entry.positional, "=", part
        param = entry.params.get(key.strip())
        if param is None or not eq:
            known = ", ".join(f"{k}=" for k in entry.params) or "none"
            raise UnknownBotError(
                f"bot {entry.name!r}: bad parameter {part!r} (it takes KEY=VALUE; known: {known})"
            )
        try:
            params[key.strip()] = param.kind(text.strip())
        except ValueError:
            raise UnknownBotError(
                f"bot {entry.name!r}: {key.strip()}={text.strip()!r} is not a {param.kind.__name__}"
            ) from None
    return entry, params


def bot_names() -> list[str]:
    """Registered bot names, sorted."""
    return sorted(BOTS)


def make_bot(name: str, seat: int, seed: int) -> Bot:
    """Create the bot ``name`` (a spec: ``search:iterations=400``) for ``seat`` in a game played
    with ``seed``; an unknown name or a bad parameter raises :class:`UnknownBotError`."""
    spec, params = parse_bot_spec(name)
    return spec.factory(seat, seed, **params)
