"""Bots: automatic players that choose among the legal options from what their seat may see.

A bot only ever receives ``(view, legal)``: the seat's own view of the state and the list of
legal option ids. It never touches the state, so it cannot cheat on hidden information, and
the same bots drive the command line, simulations and tests.

Bots are deterministic given the game seed: :func:`make_bot` derives each seat's private
random generator from ``(seed, seat)``, so a seeded game replays identically.

>>> bot = make_bot("random", seat=1, seed=7)
>>> bot.choose({}, ["a", "b", "c"]) in {"a", "b", "c"}
True
>>> {'first', 'random'} <= set(BOTS)
True
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

from interpreter.bots.plugins import load_plugins
from interpreter.bots.random_bot import FirstBot, RandomBot
from interpreter.bots.registry import (  # `X as X`: re-exported, the package's public names
    BOTS as BOTS,
    Bot as Bot,
    BotParam as BotParam,
    BotSpec as BotSpec,
    UnknownBotError as UnknownBotError,
    bot_base as bot_base,
    bot_names as bot_names,
    bot_title as bot_title,
    default_bot as default_bot,
    make_bot as make_bot,
    parse_bot_spec as parse_bot_spec,
    register_bot as register_bot,
)
from interpreter.bots.search import SEARCH_PARAMS, SearchBot

# the learned bot's parameters (its code, numpy and the model, load only when one is made)
LEARNED_PARAMS = {
    "model": BotParam(str, "", "the model file written by 'rulebook train' (learned:FILE)"),
    "temperature": BotParam(float, 0.0, "0: the likeliest option; T > 0: sample at T"),
    "lookahead": BotParam(int, 0, "K >= 1: value each option one step on, K determinisations"),
    "prior": BotParam(float, 0.25, "with lookahead: weight of the policy beside the value"),
}

register_bot(
    "random",
    "picks uniformly at random among the legal options (seeded per seat)",
    lambda seat, seed: RandomBot(seat, seed),
    title="Random bot",
)
register_bot(
    "first",
    "always picks the first legal option (a fixed, repeatable baseline)",
    lambda seat, seed: FirstBot(),
    title="First choice bot",
)


def _upper(where: str) -> Callable[..., Bot]:
    """A bot class of a higher stage, found by name when a bot is made: the model-driven bots
    live in interpreter/learn, above the agent spaces they read, and this stage may not import
    upwards (the same late binding as the game folders' plugins)."""
    module, _, name = where.partition(":")
    return getattr(importlib.import_module(module), name)


def _search_bot(seat: int, seed: int, model: str = "", **params: object) -> Bot:
    """The search bot; with ``model=FILE`` the model-guided one (interpreter/learn/guided.py)."""
    if model:
        guided = _upper("interpreter.learn.guided:GuidedSearchBot")
        return guided(seat, seed, model=model, **params)
    if "value" in params:
        raise UnknownBotError("search: value= weighs a model's value head: give model=FILE too")
    return SearchBot(seat, seed, **params)  # type: ignore[arg-type]


def _learned_bot(seat: int, seed: int, **params: object) -> Bot:
    """A bot that plays from a trained model's policy alone (interpreter/learn/bot.py)."""
    return _upper("interpreter.learn.bot:LearnedBot")(seat, seed, **params)


register_bot(
    "search",
    "plays any ruleset well by information-set tree search, no game knowledge "
    "(e.g. search:seconds=0.25 or search:iterations=400:depth=30; model=FILE: guided)",
    _search_bot,
    SEARCH_PARAMS,
    title="Search bot",
)
register_bot(
    "learned",
    "plays from a model trained by 'rulebook train', no search (learned:FILE or "
    "learned:FILE:temperature=0.5)",
    _learned_bot,
    LEARNED_PARAMS,
    positional="model",
    title="Learned bot",
)

# Game-specific bots beside their rulesets (rulesets/<game>/bots.py): see plugins.py.
load_plugins()
