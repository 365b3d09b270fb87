"""``Ruleset``: a composed ruleset as one typed, immutable object, built once at load.

The drivers read every declaration they need from it: the header (id, title, players,
options), catalogs and their entries, tables, state fields, the ``scoring:`` section and the
``presentation:`` section, each with the :class:`~interpreter.ruleset.nodes.Pos` where it was
written. ``data`` keeps the composed tree for the stages that compile or check the rule texts
(``model/``, ``check/``), which walk it on their own; a driver hands it on to them and never
reads it.

>>> r = Ruleset.from_data({"ruleset": "toy", "players": {"min": 2, "max": 3},
...                        "tables": {"step": 3}, "state": {"player": {"coins": {"counter": 0}}}})
>>> r.header.id, list(r.header.players.counts()), r.tables["step"].value
('toy', [2, 3], 3)
>>> r.fields[0].scope, r.fields[0].name, r.fields[0].kind
('player', 'coins', 'counter')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from interpreter.compose.rulefiles import load_rules_data
from interpreter.load.locate import is_map, is_seq
from interpreter.ruleset.definitions import Definitions, Named
from interpreter.ruleset.flow_steps import FlowSection
from interpreter.ruleset.header import Header
from interpreter.ruleset.hooks import Hook, hooks_of
from interpreter.ruleset.nodes import (
    NOWHERE,
    Plain,
    Pos,
    TreePath,
    empty_map,
    frozen_map,
    items_of,
    key_pos,
    node_pos,
    seq_of,
    value_at,
)
from interpreter.ruleset.presentation import PresentationSection
from interpreter.ruleset.sections import Catalog, Entry, FieldDecl, ScoringWords, Table
from interpreter.ruleset.vocabulary import Vocabulary

__all__ = ["Ruleset"]


@dataclass(frozen=True, slots=True)
class Ruleset:
    """One composed ruleset, typed. Immutable; shared by a game and all its states."""

    header: Header = field(default_factory=Header)
    catalogs: Mapping[str, Catalog] = field(default_factory=empty_map)
    tables: Mapping[str, Table] = field(default_factory=empty_map)
    fields: tuple[FieldDecl, ...] = ()
    # `state: remember:`: the piles whose ids a seat remembers when they leave its sight
    remember: tuple[Named, ...] = ()
    scoring: ScoringWords = field(default_factory=ScoringWords)
    presentation: PresentationSection = field(default_factory=PresentationSection)
    flow: FlowSection = field(default_factory=FlowSection)
    hooks: tuple[Hook, ...] = ()
    definitions: Definitions = field(default_factory=Definitions)
    pos: Pos = NOWHERE
    # the composed tree itself, for model/ and check/ (see the module's docstring)
    data: Any = field(default=None, repr=False, compare=False)

    @classmethod
    def from_data(cls, data: Any) -> Ruleset:
        """Read a composed (or single, schema-checked) ruleset tree."""
        if not is_map(data):
            return cls(data=data)
        state, tables = data.get("state"), data.get("tables")
        return cls(
            header=Header.from_data(data),
            catalogs=frozen_map(
                {
                    name: Catalog.from_node(name, node, key_pos(data.get("catalogs"), name))
                    for name, node in items_of(data.get("catalogs"))
                }
            ),
            tables=frozen_map(
                {
                    name: Table.from_node(
                        name, node, key_pos(tables, name), ("tables", name), tables
                    )
                    for name, node in items_of(tables)
                }
            ),
            fields=tuple(
                FieldDecl.from_node(scope, name, decl, key_pos(group, name))
                for scope in ("global", "player")
                if is_map(state) and is_map(group := state.get(scope))
                for name, decl in items_of(group)
            ),
            remember=tuple(
                Named(str(name), ("state", "remember", i), value_at(listed, i))
                for i, name in enumerate(seq_of(listed))
            )
            if is_map(state) and (listed := state.get("remember"))
            else (),
            scoring=ScoringWords.from_node(data.get("scoring"), key_pos(data, "scoring")),
            presentation=PresentationSection.from_node(
                data.get("presentation"), key_pos(data, "presentation")
            ),
            flow=FlowSection.from_data(data),
            hooks=hooks_of(data),
            definitions=Definitions.from_data(data),
            pos=node_pos(data),
            data=data,
        )

    @classmethod
    def of(cls, data: Any) -> Ruleset:
        """:meth:`from_data`, read once per kept parse (``load.yamlload.kept_derived``): every
        game loaded from an unchanged file without overlays, at any player count and options,
        shares its file's one typed model; any other tree is read anew."""
        from interpreter.load.yamlload import kept_derived

        return kept_derived(data, "typed rules", cls.from_data)

    def table_values(self) -> dict[str, Plain]:
        """Every table by name, as plain values (what a ``{TABLE}`` in a text reads)."""
        return {name: t.value for name, t in self.tables.items()}

    def rule_strings(self) -> list[tuple[TreePath, str]]:
        """Every text value of the tree (keys are names, not texts) with its path, prose left
        out (``doc``, ``title``, ``description``, ``label``): where the rule texts name
        things, for the checks that find a name's uses without compiling anything."""
        out: list[tuple[TreePath, str]] = []
        _strings(self.data, (), out)
        return out

    def vocabulary(self) -> Vocabulary:
        """Every key and text of the rules, their log templates and option ids (read anew
        at each call: only the checks of what a scenario names need them)."""
        return Vocabulary.from_data(self.data)

    def entry(self, key: str) -> Entry | None:
        """The catalog entry of an id, or None (catalogs in order; the first one holding it)."""
        for catalog in self.catalogs.values():
            found = catalog.entries.get(key)
            if found is not None:
                return found
        return None


def load_ruleset(name_or_path: str, overlays: Sequence[str] = ()) -> Ruleset:
    """Load, compose and schema-check rule files into the typed :class:`Ruleset`, without
    compiling them (what a driver reads before any game is made: the terminal's words)."""
    return Ruleset.of(load_rules_data(name_or_path, overlays)[0])


# keys whose values are prose, never rule text: names in them are not uses
_PROSE_KEYS = frozenset({"doc", "title", "description", "label"})


def _strings(node: object, path: TreePath, out: list[tuple[TreePath, str]]) -> None:
    if is_map(node):
        for k, v in node.items():
            if str(k) not in _PROSE_KEYS:
                _strings(v, (*path, k), out)
    elif is_seq(node):
        for i, v in enumerate(node):
            _strings(v, (*path, i), out)
    elif isinstance(node, str):
        out.append((path, str(node)))
