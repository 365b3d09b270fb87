"""Named step blocks of a scenario file: ``blocks: {name: [steps]}`` at its top, taken into a
scenario's steps where a step says ``do: name`` (a block may take in another), and a list of
steps written where one step goes (a YAML alias of a list, ``- *prelude``) taken in as its
steps. One walk for ``rulebook validate`` (check/scenarios.py) and ``rulebook test``
(scenario/format.py), so both take in the same steps and refuse the same names (T001, at the
``do:``, with a did-you-mean).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from interpreter.diagnostics.suggest import did_you_mean
from interpreter.load.locate import is_map, is_seq

__all__ = ["BLOCKS", "DO", "ONLY_CHOICE_STEP", "BlockStep", "walk_steps"]

BLOCKS = "blocks"  # the top-level map of named step lists
DO = "do"  # the step that takes a named block in
# the step that lists a move the engine takes itself (one legal option): `only choice: seat 3 x`
ONLY_CHOICE_STEP = "only choice"


@dataclass(frozen=True)
class BlockStep:
    """One step as a scenario takes it: its JSON path from the file's top (inside a block, the
    block's own: ``/blocks/prelude/2``), the step as written, and the block it came from."""

    path: list[Any]
    step: Any
    block: str | None


def walk_steps(
    top: Any,
    steps: Any,
    path: list[Any],
    faults: list[tuple[list[Any], str]],
    trail: tuple[str, ...] = (),
    blocks_used: set[str] | None = None,
) -> Iterator[BlockStep]:
    """Every step of ``steps`` (at ``path``) in order, each ``do:`` replaced by its block's
    steps and each list of steps by its steps; an unknown block name, or a block that takes
    itself in, is added to ``faults`` as (path of the ``do:``, message) and left out. The name
    of each block taken in is added to ``blocks_used`` when given."""
    blocks = top.get(BLOCKS) if is_map(top) else None
    named = blocks if is_map(blocks) else {}
    for i, step in enumerate(steps if is_seq(steps) else []):
        at = [*path, i]
        if is_seq(step):
            yield from walk_steps(top, step, at, faults, trail, blocks_used)
        elif is_map(step) and DO in step:
            name = str(step[DO])
            if name not in named:
                faults.append(([*at, DO], _unknown(name, [str(k) for k in named])))
            elif name in trail:
                loop = " -> ".join([*trail[trail.index(name) :], name])
                faults.append(([*at, DO], f"block '{name}' takes itself in ({loop})"))
            else:
                if blocks_used is not None:
                    blocks_used.add(name)
                block_path = [BLOCKS, name]
                yield from walk_steps(
                    top, named[name], block_path, faults, (*trail, name), blocks_used
                )
        else:
            yield BlockStep(at, step, trail[-1] if trail else None)


def _unknown(name: str, known: list[str]) -> str:
    if not known:
        return f"no block named '{name}': this file has no `{BLOCKS}:` (name step lists there)"
    guess = did_you_mean(name, known)
    hint = f"; did you mean '{guess}'?" if guess else ""
    return f"no block named '{name}'{hint} (blocks: {', '.join(sorted(known))})"
