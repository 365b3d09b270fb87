"""docs/architecture.md's map names every module of interpreter/ in its room, and no module that
is gone: a newcomer reads the folders from it, so a module added, moved or removed without its
line fails here."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "interpreter"
DOC = ROOT / "docs" / "architecture.md"
MAP_HEADING = "## The map: every module in its room"
# a map line: "- `room/module.py`: its job"
ENTRY = re.compile(r"^- `([\w/]+\.py)`: \S", re.MULTILINE)


def _modules() -> set[str]:
    return {p.relative_to(PACKAGE).as_posix() for p in PACKAGE.rglob("*.py")}


def _mapped() -> list[str]:
    text = DOC.read_text(encoding="utf-8")
    assert MAP_HEADING in text, f"docs/architecture.md lacks its map ({MAP_HEADING!r})"
    section = text.split(MAP_HEADING, 1)[1].split("\n## ", 1)[0]
    return ENTRY.findall(section)


def _room_headings() -> dict[str, str]:
    """Each map line's module -> the room heading (### `room/`) it stands under."""
    text = DOC.read_text(encoding="utf-8").split(MAP_HEADING, 1)[1].split("\n## ", 1)[0]
    room, out = "", {}
    for line in text.split("\n"):
        heading = re.match(r"^### `([\w/]+)/`$", line)
        if heading:
            room = heading.group(1)
        entry = ENTRY.match(line)
        if entry:
            out[entry.group(1)] = room
    return out


def test_every_module_is_on_the_map_and_every_mapped_module_exists():
    modules, mapped = _modules(), set(_mapped())
    missing = sorted(modules - mapped)
    gone = sorted(mapped - modules)
    assert not missing, (
        "docs/architecture.md's map lacks these modules (add '- `ROOM/NAME.py`: its job' "
        f"under its room): {missing}"
    )
    assert not gone, f"docs/architecture.md's map names modules that do not exist: {gone}"


def test_each_module_is_named_once_under_its_own_room():
    mapped = _mapped()
    twice = sorted({m for m in mapped if mapped.count(m) > 1})
    assert not twice, f"named more than once on the map: {twice}"
    misplaced = {
        module: room
        for module, room in _room_headings().items()
        if module.rpartition("/")[0] != room
    }
    assert not misplaced, f"a module listed under another room's heading: {misplaced}"
