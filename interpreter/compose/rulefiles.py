"""A game's rule files read in: the base found (a catalog name or a path), loaded with
positions, its overlays laid over it, the result checked against the ruleset schema.

The one way every stage above reads rule data (``engine/loader.py`` compiles it into a game,
``ruleset.load_ruleset`` types it without compiling, ``rulebook show`` prints it), so the
files a game is made of are found and composed the same everywhere.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from pathlib import Path
from typing import Any

from interpreter.diagnostics.errors import Diagnostic, RulesError
from interpreter.load import catalog
from interpreter.load.locate import is_map
from interpreter.load.node import Node
from interpreter.load.resources import data_dir

__all__ = ["load_rules_data"]


def load_rules_data(
    name_or_path: str, overlays: Sequence[str] = ()
) -> tuple[Any, list[str], Path, tuple[str, ...]]:
    """Load, compose and schema-check rule files: (data, source files, base path, overlay ids).

    ``data`` is read-only: without overlays it is the parsed file the process keeps for every
    later load (``load.yamlload``), so a change made to it would reach every game loaded after;
    copy a map before changing it (``compose.tree.CopyOnWriteTree`` keeps positions)."""
    from interpreter.load.yamlload import kept_derived, load_yaml_file

    base_path = catalog.find_game(name_or_path)
    base = load_yaml_file(base_path)
    docs = [load_yaml_file(catalog.find_overlay(base_path, o)) for o in overlays]
    overlay_ids = tuple(str(_overlay_id(d.tree, Path(d.path).stem)) for d in docs)
    data: Node
    if docs:
        from interpreter.compose.overlays import compose

        composed = compose(base, docs)
        data, sources = composed.data, composed.sources
    else:
        data, sources = base.tree, [base.path]
    schema_path = data_dir("schemas") / "ruleset.schema.json"
    if schema_path.is_file():
        from interpreter.load.schema import load_schema

        schema = load_schema("ruleset")
        # a file loaded again unchanged (no overlays) is checked once per schema read
        diags = kept_derived(data, ("schema errors", id(schema)), partial(_errors, schema))
        if diags:
            raise RulesError(list(diags))
    return data, sources, base_path, overlay_ids


def _overlay_id(data: Node, stem: str) -> Node:
    """An overlay's ``overlay:`` id, or its file's stem where it gives none (or is no map,
    which the composer reports)."""
    return data.get("overlay", stem) if is_map(data) else stem


def _errors(schema: dict[str, Any], data: Node) -> tuple[Diagnostic, ...]:
    from interpreter.load.schema import check

    return tuple(d for d in check(data, schema) if d.severity == "error")
