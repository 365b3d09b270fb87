"""Game-specific bots that live beside their ruleset, loaded without the engine naming them.

A ruleset folder may hold a ``bots.py`` (``rulesets/<game>/bots.py``). It is imported once, when
:mod:`interpreter.bots` is first imported, and declares its bots in a module-level dict::

    BOTS = {
        "xx-heuristic": ("one line for 'rulebook list'", factory),   # factory(seat, seed) -> bot
        "xx-greedy": ("another line", factory, "Greedy bot"),  # a title: its seat's name
    }

Each bot then works everywhere a built-in one does (``--bots``, configs, ``rulebook simulate``).
A game's bot may know that game's option ids and view fields; the engine still knows none: it
only finds the file. A plugin that fails to import is reported on stderr and skipped, so one
broken game folder never stops the others from playing.

The folders searched are the game folders of :func:`interpreter.load.catalog.game_dirs`
(``$RULEBOOK_RULESETS``, then ``rulesets/``).
"""

from __future__ import annotations

import importlib.util
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from interpreter.bots.registry import BOTS, register_bot

__all__ = ["PLUGIN_FILE", "load_plugin_file", "load_plugins"]

PLUGIN_FILE = "bots.py"
_LOADED: dict[str, Any] = {}


def load_plugin_file(path: Path, register: Callable[..., None]) -> list[str]:
    """Import one plugin file and register its ``BOTS``; returns the names registered."""
    path = path.resolve()
    key = str(path)
    module = _LOADED.get(key)
    if module is None:
        name = "rulebook_plugin_" + re.sub(r"\W", "_", path.parent.name)
        spec = importlib.util.spec_from_file_location(name, path)
        if spec is None or spec.loader is None:
            raise ImportError(f"cannot import {path}")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module  # so its classes pickle (sent to worker processes)
        try:
            spec.loader.exec_module(module)
        except BaseException:
            sys.modules.pop(name, None)
            raise
        _LOADED[key] = module
    names = []
    for bot_name, entry in dict(getattr(module, "BOTS", {})).items():
        # (doc, factory) or (doc, factory, title): the title names its seat at a table
        doc, factory, *title = entry
        register(str(bot_name), str(doc), factory, *(str(t) for t in title[:1]))
        names.append(str(bot_name))
    return names


def load_plugins(register: Callable[..., None] | None = None) -> list[str]:
    """Register the bots of every game folder's ``bots.py``; returns the names registered."""
    from interpreter.load.catalog import game_dirs

    def adder(game: str) -> Callable[..., None]:
        def add(name: str, doc: str, factory: Callable, title: str = "") -> None:
            if name in BOTS:
                return
            if register is not None:
                register(name, doc, factory)
            else:  # a game folder's bot knows that game's ids: it plays that game only
                register_bot(name, doc, factory, game=game, title=title)

        return add

    names: list[str] = []
    for game, folder in game_dirs().items():
        path = folder / PLUGIN_FILE
        if not path.is_file():
            continue
        try:
            names += load_plugin_file(path, adder(game))
        except Exception as exc:  # noqa: BLE001 - one broken folder must not stop the others
            print(f"rulebook: warning: bots in {path} not loaded: {exc}", file=sys.stderr)
    return names
