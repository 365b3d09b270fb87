"""What the cards' `may:` hooks add to a ruleset is written as typed rules (model/may_phase.py)
beside the ruleset's tree, which is left as it is: they must be exactly the rules read anew
from a tree with the written nodes set in (the flow with the phase `may`, the functions and
procedures of a `for:` offer, the bags the offers wait in), and the compiler's host must find
every written text, and its place, where that tree has them."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from interpreter.compose.rulefiles import load_rules_data
from interpreter.compose.tree import CopyOnWriteTree
from interpreter.diagnostics.errors import RulesError
from interpreter.load.locate import is_map, is_seq, locate, node_at, position_at
from interpreter.model.may import ASK_PHASE
from interpreter.model.may_phase import WrittenMay, write_may
from interpreter.ruleset.definitions import Definitions
from interpreter.ruleset.flow_steps import FlowSection
from interpreter.ruleset.nodes import NOWHERE
from interpreter.ruleset.ruleset import Ruleset

HERE = Path(__file__).resolve().parent
NOBLES = ["rulesets/puerto-rico/new-buildings.yaml", "rulesets/puerto-rico/nobles.yaml"]

GAMES = {
    "puerto-rico": ("puerto-rico", []),
    "puerto-rico-expansions": ("puerto-rico", NOBLES),  # an offer `for:` each value
    "charms": (str(HERE / "charms" / "ruleset.yaml"), []),
    "crown": (str(HERE / "crown" / "ruleset.yaml"), []),  # an offer `for:` each value
}


def _written(game: str, overlays: list[str]) -> tuple[Ruleset, WrittenMay]:
    ruleset = Ruleset.from_data(load_rules_data(game, overlays)[0])
    written = write_may(ruleset)
    assert written is not None  # the cards' offers wrote the phase
    return ruleset, written


def _set_in(data: Any, nodes: Mapping[tuple[Any, ...], Any]) -> Any:
    """A copy of the tree `data` with the written `nodes` set in at their paths."""
    tree = CopyOnWriteTree()
    tree.root = tree.copy(data)
    for path, node in sorted(nodes.items(), key=lambda item: len(item[0])):
        tree.writable(path[:-1])[path[-1]] = node
    return tree.root


def _paths(node: Any, path: tuple[Any, ...]) -> Iterator[tuple[Any, ...]]:
    """`path`, every path below it in `node`, and one past the end of each map and list."""
    yield path
    if is_map(node):
        for key, value in node.items():
            yield from _paths(value, (*path, key))
        yield (*path, "no-such-key")
    elif is_seq(node):
        for i, value in enumerate(node):
            yield from _paths(value, (*path, i))
        yield (*path, len(node))


@pytest.mark.parametrize("game", list(GAMES.values()), ids=list(GAMES))
def test_the_written_rules_are_the_rules_read_anew_with_them_set_in(
    game: tuple[str, list[str]],
) -> None:
    ruleset, written = _written(*game)
    tree = _set_in(ruleset.data, written.nodes)
    added = written.added_to(ruleset)
    assert ASK_PHASE in added.flow.phases and ASK_PHASE not in ruleset.flow.phases
    assert added.flow == FlowSection.from_data(tree)
    assert added.definitions == Definitions.from_data(tree)
    # the bags the offers wait in, after the rules' own fields, in the same order (where each
    # was written aside: the engine writes the bags)
    assert written.fields and all(f.scope == "player" and f.kind == "bag" for f in written.fields)
    assert [replace(f, pos=NOWHERE) for f in added.fields] == [
        replace(f, pos=NOWHERE) for f in Ruleset.from_data(tree).fields
    ]


@pytest.mark.parametrize("game", list(GAMES.values()), ids=list(GAMES))
def test_every_written_text_is_found_where_the_tree_with_it_set_in_has_it(
    game: tuple[str, list[str]],
) -> None:
    ruleset, written = _written(*game)
    data, nodes = ruleset.data, written.nodes
    tree = _set_in(data, nodes)
    paths = [p for top, node in nodes.items() for p in _paths(node, top)]
    assert len(paths) > 50
    for path in paths:
        assert position_at(data, path, nodes) == position_at(tree, path), path
        assert locate(data, path, key=True, written=nodes) == locate(tree, path, key=True), path
        assert locate(data, path, written=nodes) == locate(tree, path), path
        # the text at it, but for a map the written nodes are set into (the tree holds a copy)
        if not any(len(path) < len(top) and top[: len(path)] == path for top in nodes):
            try:
                found = node_at(tree, path)
            except (KeyError, IndexError, TypeError):
                found = None
            assert _node_or_none(data, path, nodes) is found, path


def _node_or_none(data: Any, path: tuple[Any, ...], nodes: Mapping[Any, Any]) -> Any:
    try:
        return node_at(data, path, nodes)
    except (KeyError, IndexError, TypeError):
        return None


def test_the_rules_own_phase_may_is_refused_at_its_key(tmp_path: Path) -> None:
    """R002 where the rules name a phase `may` themselves: at the phase's key."""
    text = (HERE / "charms" / "ruleset.yaml").read_text(encoding="utf-8")
    copy = tmp_path / "ruleset.yaml"
    copy.write_text(text.replace("scoring:\n", "phases:\n  may:\n    - do: x = 1\n\nscoring:\n"))
    ruleset = Ruleset.from_data(load_rules_data(str(copy), [])[0])
    with pytest.raises(RulesError) as raised:
        write_may(ruleset)
    (fault,) = raised.value.diagnostics
    line = copy.read_text(encoding="utf-8").splitlines().index("  may:") + 1
    assert (fault.code, fault.line, fault.column, fault.json_path) == (
        "R002",
        line,
        3,
        "/phases/may",
    )
