"""The docs describe what is, not the story of the work: no commit ids, no "today", no
"sittings" or "on a later day" in the prose of README.md, CONTRIBUTING.md, docs/*.md and the
examples' READMEs. A figure stands once with the command that measures it and the conditions
it was measured under (docs/performance.md); what changed between releases is the changelog's
job, so docs/changelog.md is not read here. Commands inside fenced blocks may name a commit
(a peer's checkout pinned for a reproducible figure)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = sorted(
    {
        *[ROOT / "README.md", ROOT / "CONTRIBUTING.md"],
        *(p for p in (ROOT / "docs").glob("*.md") if p.name != "changelog.md"),
        *(ROOT / "examples").rglob("README.md"),
    }
)
# words of a lab notebook, and anything that reads as a commit id (7 to 40 hex digits holding
# at least one letter and one digit)
NOTEBOOK = re.compile(
    r"\b(today|sittings?|on a later day|used to|issue \d+|on this machine)\b"
    r"|\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{7,40}\b",
    re.IGNORECASE,
)


def notebook_words(text: str) -> list[tuple[int, str]]:
    """(line, word) of each notebook word in the prose of a Markdown text (fenced blocks
    skipped)."""
    found, fenced = [], False
    for number, line in enumerate(text.split("\n"), 1):
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        if not fenced:
            found += [(number, m.group(0)) for m in NOTEBOOK.finditer(line)]
    return found


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_the_page_describes_what_is(page: Path) -> None:
    found = notebook_words(page.read_text(encoding="utf-8"))
    assert not found, (
        f"{page.relative_to(ROOT)} reads as a lab notebook at {found}: state what is, each "
        "figure with its command and conditions (docs/performance.md), no commit ids"
    )


def test_the_check_sees_a_commit_id_and_a_sitting_but_not_a_fenced_command() -> None:
    text = "Measured at 1f13da5.\nA second sitting.\n```\ngit checkout f54e794\n```\n"
    assert notebook_words(text) == [(1, "1f13da5"), (2, "sitting")]
