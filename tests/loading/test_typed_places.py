"""A typed rule object's `places` (interpreter/ruleset/nodes.py) find where each of its parts
was written as locating the part's path in the composed tree does, for every key and value of
every catalog entry, default and table of the shipped games and their expansions: what the
whole-ruleset checks of model/ report at (R007, D010, K001-K004, W008, D003)."""

from __future__ import annotations

import pytest

from interpreter.compose.rulefiles import load_rules_data
from interpreter.load.locate import is_map, is_seq, locate
from interpreter.ruleset.nodes import Pos
from interpreter.ruleset.ruleset import Ruleset

GAMES = [("puerto-rico", ("new-buildings", "nobles")), ("san-juan", ("new-buildings",))]


def _paths(node: object, path: tuple[str | int, ...]) -> list[tuple[str | int, ...]]:
    """Every path below ``node`` (keys and list indexes), ``path`` first."""
    out = [path]
    if is_map(node):
        for k, v in node.items():
            out.extend(_paths(v, (*path, k)))
    elif is_seq(node):
        for i, v in enumerate(node):
            out.extend(_paths(v, (*path, i)))
    return out


@pytest.mark.parametrize(("game", "overlays"), GAMES, ids=lambda v: str(v))
def test_places_find_what_locating_the_path_finds(game: str, overlays: tuple[str, ...]) -> None:
    data = load_rules_data(game, overlays)[0]
    ruleset = Ruleset.from_data(data)
    checked = 0
    for name, catalog in ruleset.catalogs.items():
        for rest in _paths(data["catalogs"][name], ())[1:]:
            path = ["catalogs", name, *rest]
            assert catalog.places.key(*rest) == Pos(*locate(data, path, key=True)), path
            assert catalog.places.value(*rest) == Pos(*locate(data, path)), path
            checked += 1
        for eid, entry in catalog.entries.items():
            for key in entry.keys:
                path = ["catalogs", name, "entries", eid, key]
                assert entry.places.key(key) == Pos(*locate(data, path, key=True)), path
    for name, table in ruleset.tables.items():
        for rest in _paths(data["tables"][name], ()):
            path = ["tables", name, *rest]
            assert table.places.key(*rest) == Pos(*locate(data, path, key=True)), path
            assert table.places.value(*rest) == Pos(*locate(data, path)), path
            checked += 1
    assert checked > 200
    for step in ruleset.flow.steps():
        if step.kind == "each-player":
            path = [*step.path, "each-player"]
            assert step.places.key("each-player") == Pos(*locate(data, path, key=True))
