"""A scenario file typed (docs/scenarios.md): its scenarios, each with the game it plays (a
:class:`~interpreter.ruleset.gameconfig.GameConfig`), its set-ups, steps and expectations
(:mod:`interpreter.ruleset.scenariosteps`), every one with where it was written.

Read once from a scenario file's schema-checked tree (``ScenarioFile.from_data``); ``rulebook
validate`` (check/scenarios.py) and ``rulebook test`` (scenario/format.py) read these objects,
never the tree. A file without ``scenarios:`` is itself one scenario; a listed scenario takes
what it does not write (game, players, overlays, options, seed, settings) from the file's top,
and runs the file's top-level ``setup:`` before its own unless it says ``file setup: false``.

>>> f = ScenarioFile.from_data({"game": "toy", "players": 2, "steps": ["seat 0: take:a"]}, "t")
>>> [(s.name, s.config.game, [(st.kind, st.option.value) for st in s.steps]) for s in f.scenarios]
[('', 'toy', [('option', 'take:a')])]
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from interpreter.load.locate import is_map, is_seq
from interpreter.load.schema import to_plain
from interpreter.ruleset.gameconfig import Chosen, GameConfig
from interpreter.ruleset.nodes import (
    NOWHERE,
    Plain,
    Pos,
    TreePath,
    empty_map,
    frozen_map,
    key_pos as key_pos_of,
    node_pos,
    value_at,
)
from interpreter.ruleset.scenariosteps import (
    BLOCKS,
    DO,
    ExpectItem,
    SetupSpec,
    StepFault,
    StepReader,
    StepSpec,
    expect_items,
    read_setup,
)

__all__ = ["ScenarioFile", "ScenarioSpec"]

FILE_SETUP = "file setup"  # `file setup: false`: a scenario without the file's top-level set-up


@dataclass(frozen=True, slots=True)
class ScenarioSpec:
    """One scenario as written, with what it takes from its file's top.

    ``path`` is ``("scenarios", i)`` for a listed scenario, ``()`` for a file that is one
    scenario; ``pos`` is where it starts. ``keys`` holds where each key the scenario writes
    itself was written."""

    path: TreePath
    pos: Pos = NOWHERE
    name: str = ""  # as written ("" where none is)
    name_at: Chosen | None = None
    doc: str = ""
    config: GameConfig = field(default_factory=GameConfig)
    options: Mapping[str, Plain] = field(default_factory=empty_map)  # as written, inherited
    seed: Plain = None
    forced: Plain = None
    optional: Plain = None
    check_totals: Plain = None  # `check-totals:` (false: an impossible position, knowingly)
    setups: tuple[SetupSpec, ...] = ()  # the file's top-level set-up (taken in), then its own
    steps: tuple[StepSpec, ...] = ()
    step_faults: tuple[StepFault, ...] = ()
    expect: tuple[ExpectItem, ...] = ()
    expect_pos: Pos | None = None  # where its own `expect:` was written; None without one
    refused: Chosen | None = None
    keys: Mapping[str, Pos] = field(default_factory=empty_map)


@dataclass(frozen=True, slots=True)
class ScenarioFile:
    """A scenario file's scenarios, in order.

    ``listed``: whether the file lists them (``scenarios:``); ``keys``: where each top-level
    key was written. ``unused`` plays the steps of the blocks no scenario takes in, with the
    game of the file's first scenario that is not ``refused:`` (so a slip in such a block is
    found before a scenario uses it); None when every block is taken in."""

    file: str
    listed: bool = False
    scenarios: tuple[ScenarioSpec, ...] = ()
    keys: Mapping[str, Pos] = field(default_factory=empty_map)
    unused: ScenarioSpec | None = None

    @classmethod
    def from_data(cls, top: object, file: str) -> ScenarioFile:
        """Read the schema-checked tree ``top`` of the scenario file ``file``."""
        if not is_map(top):
            return cls(file)
        listed = top.get("scenarios")
        nodes = list(listed) if is_seq(listed) else [top]
        scenarios: list[ScenarioSpec] = []
        used: set[str] = set()
        for i, node in enumerate(nodes):
            if not is_map(node):
                continue
            own = node is not top
            pos = value_at(listed, i) if own else node_pos(top)
            readers = StepReader(top)
            scenarios.append(_scenario(top, node, ("scenarios", i) if own else (), pos, readers))
            used |= readers.used
        return cls(
            file,
            is_seq(listed),
            tuple(scenarios),
            frozen_map({str(k): key_pos_of(top, k) for k in top}),
            _unused(top, nodes, used),
        )


def _pick(top: object, node: object, key: str) -> object:
    """The scenario's own ``key``, else its file top's."""
    if node is not top and is_map(node) and key in node:
        return node[key]
    return top.get(key) if is_map(top) else None


def _scenario(
    top: Mapping[object, object],
    node: Mapping[object, object],
    path: TreePath,
    pos: Pos,
    reader: StepReader,
) -> ScenarioSpec:
    own = node is not top
    setups = []
    if own and "setup" in top and node.get(FILE_SETUP) is not False:
        setups.append(read_setup(top["setup"], value_at(top, "setup")))
    if "setup" in node:
        setups.append(read_setup(node["setup"], value_at(node, "setup")))
    name = node.get("name")
    refused = node.get("refused")
    expect_pos = value_at(node, "expect") if "expect" in node else None
    steps = tuple(reader.steps(node.get("steps"), (*path, "steps")))
    return ScenarioSpec(
        path,
        pos,
        name=str(name or ""),
        name_at=Chosen(str(name), (*path, "name"), value_at(node, "name")) if name else None,
        doc=str(node.get("doc", "")),
        config=GameConfig.from_node(node, top if own else None),
        options=frozen_map(to_plain(_pick(top, node, "options") or {})),
        seed=to_plain(_pick(top, node, "seed")),
        forced=to_plain(_pick(top, node, "forced")),
        optional=to_plain(_pick(top, node, "optional")),
        check_totals=to_plain(_pick(top, node, "check-totals")),
        setups=tuple(setups),
        steps=steps,
        step_faults=tuple(reader.faults),
        expect=expect_items(node["expect"], (*path, "expect"), expect_pos) if expect_pos else (),
        expect_pos=expect_pos,
        refused=None
        if refused is None
        else Chosen(str(refused), (*path, "refused"), value_at(node, "refused")),
        keys=frozen_map({str(k): key_pos_of(node, k) for k in node}),
    )


def _unused(
    top: Mapping[object, object], nodes: list[object], used: set[str]
) -> ScenarioSpec | None:
    """A scenario that takes in every block no scenario of the file takes in, set to play the
    game of the first scenario that is not ``refused:``."""
    blocks = top.get(BLOCKS)
    first = next((n for n in nodes if is_map(n) and "refused" not in n), None)
    if not is_map(blocks) or not is_map(first):
        return None
    unused = [str(name) for name in blocks if str(name) not in used]
    if not unused:
        return None
    # the game as the first scenario asks for it, each setting where it is written (the
    # scenario's own, else the file's top)
    config = GameConfig.from_node(first, top if first is not top else None)
    reader = StepReader(top)
    steps = [
        step
        for k, name in enumerate(unused)
        for step in reader.block(name, ("steps", k, DO), NOWHERE)
    ]
    return ScenarioSpec((), node_pos(top), config=config, steps=tuple(steps))
