"""The same rules are written as the same Python source at every load, in this process and in
another (names are numbered per build, not per process), and a load of rules already loaded
compiles nothing: the emitter keeps the code objects of recent sources (dsl/emit/emitter.py)."""

from __future__ import annotations

import hashlib
import os
import re
import subprocess
import sys
from pathlib import Path
from types import CodeType
from typing import Any

from interpreter.dsl.emit.emitter import compiled, define, recorded_sources
from interpreter.engine.loader import load_game
from interpreter.simulate.batch import play_game

ROOT = Path(__file__).resolve().parents[2]
GAME, PLAYERS = "puerto-rico", 3
_READABLE = re.compile(r"rule_\d+(_[a-z0-9]+)*")

# a load and one short game: the rule texts written at load, and the flow blocks, option
# listings and copiers written as the game first reaches them
_PLAYED = f"""
from interpreter.dsl.emit.emitter import recorded_sources
from interpreter.engine.loader import load_game
from interpreter.simulate.batch import play_game

with recorded_sources() as written:
    play_game(load_game({GAME!r}, {PLAYERS}), ["random"] * {PLAYERS}, seed=5, index=0)
"""


def _played() -> list[tuple[str, str]]:
    with recorded_sources() as written:
        play_game(load_game(GAME, PLAYERS), ["random"] * PLAYERS, seed=5, index=0)
    return written


def _digest(written: list[tuple[str, str]]) -> str:
    return hashlib.sha256(repr(written).encode()).hexdigest()


def test_the_same_rules_are_written_as_the_same_source_at_every_load() -> None:
    first = _played()
    load_game("san-juan", 2)  # another ruleset between the two: numbers are per build
    again = _played()
    assert len(first) > 100
    assert again == first


def test_another_process_writes_the_same_source() -> None:
    here = _digest(_played())
    code = _PLAYED + "import hashlib\nprint(hashlib.sha256(repr(written).encode()).hexdigest())"
    env = {**os.environ, "PYTHONHASHSEED": "12345"}  # sets of texts in another order, too
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == here


def test_names_stay_readable() -> None:
    with recorded_sources() as written:
        load_game(GAME, PLAYERS)
    names = [source.split("(", 1)[0].removeprefix("def ") for _, source in written]
    rules = [name for name in names if name.startswith("rule_")]
    assert rules and all(_READABLE.fullmatch(name) for name in rules), rules[:5]
    # a text's name says what it does: its number, then its first words
    assert any(name.endswith("_for_s_in_ship_set_players_plac") for name in rules)


def test_rules_loaded_again_compile_nothing() -> None:
    load_game(GAME, PLAYERS)
    misses = compiled.cache_info().misses
    with recorded_sources() as written:
        load_game(GAME, PLAYERS)
    assert written  # every function was defined again ...
    assert compiled.cache_info().misses == misses  # ... from code compiled before


def test_each_define_makes_a_new_function_in_its_own_namespace() -> None:
    source = "def f(s):\n    return k\n"
    one: dict[str, Any] = {"k": 1}
    two: dict[str, Any] = {"k": 2}
    f1, f2 = define(source, "f", one, "<test>"), define(source, "f", two, "<test>")
    assert f1 is not f2
    assert (f1(None), f2(None)) == (1, 2)


def test_each_define_runs_its_own_copy_of_the_kept_code() -> None:
    """Functions of two builds never share a code object (Python specialises a code object
    to the namespace it ran in last), nor do the functions inside them."""
    source = "def f(s):\n    def g(x):\n        return x + k\n    return [g(x) for x in s]\n"
    f1 = define(source, "f", {"k": 1}, "<test-copy>")
    f2 = define(source, "f", {"k": 2}, "<test-copy>")
    assert f1.__code__ == f2.__code__ and f1.__code__ is not f2.__code__
    inner = [c for c in f1.__code__.co_consts if isinstance(c, CodeType)]
    assert inner and all(c is not d for c in inner for d in f2.__code__.co_consts)
    assert (f1([0]), f2([0])) == ([1], [2])
