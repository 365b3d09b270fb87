"""What the new-game page offers: the games, their expansions and options, the bots.

An option is shown by a short name taken from its ``doc:`` (its whole doc on hover, never its
id); a bot by its title and its one-line description; each game has a default opponent, its own
fast bot (``bots.default_bot``):

>>> short_label("gold-rule", ["high", "low"], "The gold rule (older edition). high: more.")
'The gold rule'
>>> short_label("deck-size", ["small", "big"], "With extra-pack: small, the base deck; big, all.")
'Deck size'
"""

from __future__ import annotations

import asyncio
import re
import threading
from typing import TypedDict

from interpreter.bots import BOTS, bot_title, default_bot
from interpreter.load.catalog import OptionInfo, list_games, search_path

__all__ = [
    "BotEntry",
    "GameEntry",
    "Listing",
    "OptionEntry",
    "OverlayEntry",
    "games_listing",
    "games_listing_async",
    "short_label",
]


class OptionEntry(TypedDict):
    """A game option as the new-game form offers it."""

    name: str
    label: str
    default: object
    choices: list[object]
    doc: str


class OverlayEntry(TypedDict):
    name: str
    title: str
    options: list[OptionEntry]


class GameEntry(TypedDict):
    name: str
    title: str
    min_players: int
    max_players: int
    overlays: list[OverlayEntry]
    options: list[OptionEntry]
    bot: str


class BotEntry(TypedDict):
    name: str
    title: str
    doc: str
    game: str | None


class Listing(TypedDict):
    """What the lobby's new-game form is made from (``/api/games``)."""

    games: list[GameEntry]
    bots: list[BotEntry]


# "With some-overlay: ..." says which expansion the option belongs to: the form shows it there
_OVERLAY_PREFIX = re.compile(r"^With [\w-]+:\s*")
# a name ends where the explanation starts: a bracket, a list of choices, the next sentence
_NAME_END = re.compile(r" \(|;|:|, |\. |\.$")


# the listing last made, and the rule files it was read from (path, size, modification time)
_kept: tuple[tuple[tuple[str, int, int], ...], Listing] | None = None
_reading = threading.Lock()  # one thread reads the rule files; another asking waits for it


def games_listing() -> Listing:
    """Games (players, overlays, options with their choices and texts) and bot names.

    Reading it means loading every rule file the package carries (most of a second of CPU): it
    is read again only when one of those files changed. Blocks: the server asks for it through
    :func:`games_listing_async`."""
    global _kept
    with _reading:
        files = _rule_files()
        if _kept is None or _kept[0] != files:
            _kept = (files, _read_listing())
        return _kept[1]


async def games_listing_async() -> Listing:
    """:func:`games_listing` read in a thread, never on the event loop: the other requests are
    answered while the rule files are read (the server starts reading them as it starts, so
    the first lobby seldom waits either)."""
    return await asyncio.to_thread(games_listing)


def _rule_files() -> tuple[tuple[str, int, int], ...]:
    """Every rule file on the search path, with its size and modification time."""
    found = []
    for root in search_path():
        if root.is_dir():
            for path in sorted(root.rglob("*.y*ml")):
                stat = path.stat()
                found.append((str(path), stat.st_size, stat.st_mtime_ns))
    return tuple(found)


def _read_listing() -> Listing:
    games: list[GameEntry] = []
    for info in list_games():
        if info.fault:  # a table cannot be opened on it; `rulebook list` says why
            continue
        games.append(
            {
                "name": info.name,
                "title": info.title,
                "min_players": info.min_players,
                "max_players": info.max_players,
                "overlays": [
                    {"name": o.name, "title": o.title, "options": [_option(x) for x in o.options]}
                    for o in info.overlays
                ],
                "options": [_option(x) for x in info.options],
                "bot": default_bot(info.name),
            }
        )
    bots: list[BotEntry] = [
        {"name": spec.name, "title": bot_title(spec.name), "doc": spec.doc, "game": spec.game}
        for spec in BOTS.values()
    ]
    return {"games": games, "bots": bots}


def _option(info: OptionInfo) -> OptionEntry:
    return {
        "name": info.name,
        "label": short_label(info.name, info.choices, info.doc),
        "default": info.default,
        "choices": info.choices,
        "doc": info.doc,
    }


def short_label(name: str, choices: list[object], doc: str | None) -> str:
    """A game option's name for people: the start of its ``doc:``'s first sentence, up to the
    explanation; the id in words when the doc has none or starts by listing the choices."""
    text = _OVERLAY_PREFIX.sub("", " ".join((doc or "").split()))
    text = _NAME_END.split(text, maxsplit=1)[0].strip()
    first = text.split(" ", 1)[0].rstrip(",").lower()
    if not text or first in {str(c).lower() for c in choices}:
        return (name[:1].upper() + name[1:]).replace("-", " ")
    return text[:1].upper() + text[1:]
