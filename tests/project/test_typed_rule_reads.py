"""model/ and check/ read the rules through the typed Ruleset (interpreter/ruleset/), never the
positioned tree the loader composed, except where a module's job is the tree itself (named
below, with why).

Two checks, neither satisfied by renaming a variable: which modules import the tree's own
readers at all (`is_map`, `is_seq`, ruamel), and, while `rulebook validate`'s compile runs on
games that use loops, options, log lines and `may:` offers, which functions of model/ and
check/ call into the tree's maps and lists (a profile of the calls, whatever the names)."""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path
from types import CodeType, FrameType
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "interpreter"
FOLDERS = ("model", "check")

# the modules of model/ and check/ that use the tree's readers, and why
WALKS_THE_TREE = {
    # writes the phase `may` as tree nodes made of the card's own, set in beside the sections
    # it finds in the tree, so the host finds a written text's place as it finds the rules'
    "model/may_phase.py": "writes nodes beside the tree",
    # refuses a tree that is no map before it is typed at all
    "check/compile.py": "guards its input",
    # reads the id of any file found, before it is composed or checked by the schema
    "check/session.py": "reads a lone file's id",
}
# the functions of those modules that read the tree while `rulebook validate` compiles
READ_WHILE_COMPILING = {
    ("check/compile.py", "check_ruleset"),  # `is_map(data)`
    ("model/may_phase.py", "write_may"),  # the sections the written nodes sit in
    ("model/may_phase.py", "_like"),  # the card's places, copied onto a written node
    ("model/may_phase.py", "_log"),  # a card's `log:` node, whose parts keep their places
}
TREE_READERS = {"is_map", "is_seq"}
# games whose compile reads loops (`each-player`, `repeat`), options, own log lines, `may:`
# offers with and without `for:`
GAMES = (
    "tests/toy/ruleset.yaml",
    "tests/may_hooks/charms/ruleset.yaml",
    "tests/may_hooks/crown/ruleset.yaml",
)


def _modules() -> Iterator[tuple[str, ast.Module]]:
    for folder in FOLDERS:
        for path in sorted((PACKAGE / folder).rglob("*.py")):
            yield path.relative_to(PACKAGE).as_posix(), ast.parse(path.read_text("utf-8"))


def _uses_the_tree(tree: ast.Module) -> bool:
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("ruamel"):
            return True
        if isinstance(node, ast.Import) and any(a.name.startswith("ruamel") for a in node.names):
            return True
        if isinstance(node, ast.ImportFrom) and any(a.name in TREE_READERS for a in node.names):
            return True
        if isinstance(node, ast.Attribute) and node.attr in TREE_READERS:
            return True
    return False


def test_only_the_named_modules_use_the_trees_readers() -> None:
    found = {name for name, tree in _modules() if _uses_the_tree(tree)}
    assert found <= set(WALKS_THE_TREE), (
        "read the typed rules (interpreter/ruleset/) instead of the tree: "
        f"{sorted(found - set(WALKS_THE_TREE))}"
    )


def _tree_codes() -> set[CodeType]:
    from ruamel.yaml.comments import CommentedMap, CommentedSeq

    from interpreter.load import locate

    codes = {locate.is_map.__code__, locate.is_seq.__code__}
    for cls in (CommentedMap, CommentedSeq):
        for name in dir(cls):
            code = getattr(getattr(cls, name, None), "__code__", None)
            if isinstance(code, CodeType):
                codes.add(code)
    return codes


# what builds a node rather than reading one
_BUILDS = {"__init__", "__new__", "__setitem__", "__setattr__", "copy", "__deepcopy__"}


def _readers_while(run: Any) -> set[tuple[str, str]]:
    """(module, function) of model/ and check/ that call into the tree while ``run()`` runs."""
    codes = _tree_codes()
    prefix = str(PACKAGE) + "/"
    found: set[tuple[str, str]] = set()

    def profile(frame: FrameType, event: str, arg: object) -> None:
        if event != "call" or frame.f_code not in codes or frame.f_code.co_name in _BUILDS:
            return
        caller = frame.f_back
        if caller is None or caller.f_code in codes:
            return  # a call inside the tree's own code
        name = caller.f_code.co_filename.removeprefix(prefix)
        if name.split("/")[0] in FOLDERS:
            found.add((name, caller.f_code.co_name))

    sys.setprofile(profile)
    try:
        run()
    finally:
        sys.setprofile(None)
    return found


def test_the_compile_reads_the_tree_only_where_named() -> None:
    from interpreter.check.compile import check_ruleset
    from interpreter.compose.rulefiles import load_rules_data

    trees = [load_rules_data(str(ROOT / game))[0] for game in GAMES]

    def validate() -> None:
        for data in trees:
            assert not [d for d in check_ruleset(data) if d.severity == "error"]

    found = _readers_while(validate)
    # the profile saw the compile run (a build taken from a cache would read nothing)
    assert ("model/may_phase.py", "write_may") in found
    assert found <= READ_WHILE_COMPILING, (
        "read the typed rules (interpreter/ruleset/) instead of the tree: "
        f"{sorted(found - READ_WHILE_COMPILING)}"
    )


def test_a_flow_step_holds_its_parts_typed() -> None:
    """A step's parts are typed objects with their defaults and places (an `each-player`'s
    or a `repeat`'s `as`, `from`, `while`, `max` a `Loop`), never a map a compiler reads by
    key."""
    from dataclasses import fields

    from interpreter.ruleset import flow_steps

    kinds = (flow_steps.Step, flow_steps.Choose, flow_steps.OptionDecl, flow_steps.Loop)
    loose = [
        f"{cls.__name__}.{f.name}: {f.type}"
        for cls in kinds
        for f in fields(cls)
        if "Mapping" in str(f.type) or "dict" in str(f.type)
    ]
    assert not loose, f"a step's part held as a map: {loose}"
    node = {"repeat": {"max": 3, "steps": []}}
    step = flow_steps.Step.from_node(node, ("flow", "round", 0), flow_steps.NOWHERE)
    assert (step.loop.max, step.loop.condition, step.loop.seat) == (3, None, "actor")
