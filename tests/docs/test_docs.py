"""The docs cannot drift: every example of README.md and docs/*.md is run and must print what
the doc shows (tests/docs/docblocks.py says how blocks are marked; ``python
tests/docs/regenerate_docs.py --write`` rewrites them after an intended change)."""

from __future__ import annotations

import re

import pytest
from docblocks import (
    PENDING,
    SHIPPED,
    Block,
    blocks,
    difference,
    doc_files,
    run_python,
    run_shell,
    workdir,
)

from helpers.groups import EXAMPLE_HOUSE_RULES

DOCS = [d for d in doc_files() if d not in PENDING]


def _examples(python: bool) -> list[Block]:
    return [b for d in DOCS for b in blocks(d) if b.kind == "example" and b.is_python == python]


def _shell_examples() -> list[object]:
    """The shell examples; those that validate the example house rules run on one worker,
    before the project's own validation (tests/helpers/groups.py): marked slow, they come
    first (tests/conftest.py), and the project's validation, forked, inherits their
    verdicts."""
    return [
        pytest.param(b, marks=[pytest.mark.slow, pytest.mark.xdist_group(EXAMPLE_HOUSE_RULES)])
        if any(re.search(r"rulebook validate .*examples/variants", x) for x in b.body)
        else pytest.param(b, marks=pytest.mark.slow)
        if b.slow
        else b
        for b in _examples(python=False)
    ]


@pytest.mark.parametrize("doc", DOCS)
def test_every_block_that_shows_output_or_is_python_is_marked(doc):
    unmarked = [b.where for b in blocks(doc) if b.is_candidate and b.kind is None]
    assert not unmarked, (
        "mark these blocks `<!-- example -->` or `<!-- not-an-example: why -->` "
        f"(tests/docs/docblocks.py): {unmarked}"
    )
    assert all(b.reason for b in blocks(doc) if b.kind == "not-an-example"), doc


@pytest.mark.parametrize("block", _shell_examples(), ids=lambda b: b.where)
def test_shell_example_prints_what_the_doc_shows(block):
    with workdir() as tmp:
        diff = difference(block, run_shell(block, tmp))
    assert diff is None, diff + "\n(python tests/docs/regenerate_docs.py --write rewrites it)"


@pytest.mark.slow
@pytest.mark.parametrize("doc", sorted({b.doc for b in _examples(python=True)}), ids=lambda d: d)
def test_python_examples_run(doc):
    namespace: dict = {"__name__": "__docs__"}
    with workdir() as tmp:
        for block in blocks(doc):
            if block.kind == "example" and block.is_python:
                try:
                    run_python("\n".join(block.body) + "\n", namespace, tmp)
                except Exception as exc:  # noqa: BLE001 - the doc's example failed: say where
                    pytest.fail(f"{block.where}: the example raises {exc!r}")


def test_shown_files_are_the_shipped_files():
    shown = [b for d in doc_files() for b in blocks(d) if b.kind == "file"]
    assert shown
    for b in shown:
        path = SHIPPED / b.reason
        assert path.is_file(), f"{b.where}: docs/examples/{b.reason} is not shipped"
        assert "\n".join(b.body).strip() == path.read_text(encoding="utf-8").strip(), b.where


@pytest.mark.parametrize("doc", DOCS)
def test_a_shipped_file_is_shown_or_linked_before_an_example_uses_it(doc):
    lines = (SHIPPED.parent.parent / doc).read_text(encoding="utf-8").split("\n")
    for name in sorted(p.name for p in SHIPPED.iterdir() if not p.name.startswith(".")):
        word = re.compile(rf"(?<![\w/.-]){re.escape(name)}\b")
        uses = [
            b.line + 1 + i
            for b in blocks(doc)
            if b.kind == "example" and not b.is_python
            for i, x in enumerate(b.body)
            if x.startswith("$ ") and word.search(x) and not x.startswith(f"$ cat {name}")
        ]
        if not uses:
            continue
        before = "\n".join(lines[: uses[0] - 1])
        shown = (f"<!-- file: {name} -->", f"examples/{name})", f"$ cat {name}\n")
        assert any(s in before for s in shown), (
            f"{doc}:{uses[0]} uses {name} before showing it: show it in a block marked "
            f"`<!-- file: {name} -->`, with `$ cat {name}`, or link docs/examples/{name} first"
        )


def test_a_changed_seeded_number_fails(tmp_path):
    """The comparison is strict where it must be: one digit changed in a seeded output fails."""
    block = next(b for b in _examples(python=False) if not b.slow and "--seed" in "\n".join(b.body))
    with workdir() as tmp:
        ran = run_shell(block, tmp)
    assert difference(block, ran) is None
    for r in ran:
        for i, line in enumerate(r.shown):
            m = re.search(r"\b(\d)\b", line)
            if m and line.strip() != "..." and not line.startswith("$"):
                r.shown[i] = line[: m.start()] + str((int(m.group(1)) + 1) % 10) + line[m.end() :]
                assert difference(block, ran) is not None
                return
    pytest.fail(f"{block.where} shows no number")
