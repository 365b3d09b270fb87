"""The bot registry: the names ``--bots``, configs and ``rulebook list`` know, and their factories.

Kept apart from the package's ``__init__`` so the plugin loader (plugins.py) can register the
game folders' bots here while ``__init__`` imports the loader: neither imports the other.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

__all__ = ["BOTS", "Bot", "BotSpec", "UnknownBotError", "bot_names", "make_bot", "register_bot"]


class Bot(Protocol):
    """What every bot offers: pick one of ``legal`` given the seat's ``view``."""

    def choose(self, view: Mapping[str, Any], legal: Sequence[str]) -> str: ...


@dataclass(frozen=True)
class BotSpec:
    """A registered bot: its name, a one-line description and a factory (seat, seed) -> Bot."""

    name: str
    doc: str
    factory: Callable[[int, int], Bot]


class UnknownBotError(KeyError):
    """Raised by :func:`make_bot` for a name that is not registered (message has suggestions)."""

    def __str__(self) -> str:
        return str(self.args[0])


BOTS: dict[str, BotSpec] = {}


def register_bot(name: str, doc: str, factory: Callable[[int, int], Bot]) -> None:
    """Add a bot to the registry so the command line and ``rulebook list`` know it."""
    if name in BOTS:
        raise ValueError(f"bot {name!r} is already registered")
    BOTS[name] = BotSpec(name, doc, factory)


def bot_names() -> list[str]:
    """Registered bot names, sorted."""
    return sorted(BOTS)


def make_bot(name: str, seat: int, seed: int) -> Bot:
    """Create the bot called ``name`` for ``seat`` in a game played with ``seed``."""
    spec = BOTS.get(name)
    if spec is None:
        close = difflib.get_close_matches(name, BOTS, n=1)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        raise UnknownBotError(f"unknown bot {name!r} (known bots: {', '.join(bot_names())}){hint}")
    return spec.factory(seat, seed)
