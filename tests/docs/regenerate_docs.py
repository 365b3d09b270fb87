"""Rewrite the output of the docs' examples from what the commands print (after an intended
change), like tests/golden/regenerate.py does for goldens:

    python tests/docs/regenerate_docs.py                    # check all: list the blocks that differ
    python tests/docs/regenerate_docs.py --write            # rewrite them
    python tests/docs/regenerate_docs.py --write README.md  # only these files
    python tests/docs/regenerate_docs.py --fast             # leave the slow examples out

`git diff` then shows what changed; review it: the code is the truth only if the change was
intended. A block's ``...`` elisions are kept where the lines around them are found again.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parents[2]), str(Path(__file__).resolve().parent)]

from docblocks import (  # noqa: E402
    ROOT,
    blocks,
    commands,
    difference,
    doc_files,
    regenerated,
    run_shell,
    workdir,
)


def main(argv: list[str]) -> int:
    write = "--write" in argv
    slow = "--fast" not in argv
    wanted = [a for a in argv if a not in ("--write", "--fast")]
    differing = 0
    for doc in wanted or doc_files():
        lines = (ROOT / doc).read_text(encoding="utf-8").split("\n")
        edits = []
        for block in blocks(doc):
            if block.kind != "example" or block.is_python or (block.slow and not slow):
                continue
            with workdir() as tmp:
                ran = run_shell(block, tmp)
            if difference(block, ran) is None:
                continue
            differing += 1
            print(f"differs  {block.where}")
            body: list[str] = []
            at = 0
            # each command keeps its own lines (with continuations); its output is rewritten
            for (_, shown), r in zip(commands(block), ran, strict=True):
                n_cmd = 1
                while block.body[at + n_cmd - 1].endswith("\\"):
                    n_cmd += 1
                body += block.body[at : at + n_cmd]
                at += n_cmd + len(shown)
                body += regenerated(block, r)
            edits.append((block, body))
        for block, body in reversed(edits):
            fence = lines[block.line - 1]
            indent = fence[: len(fence) - len(fence.lstrip())]
            start = block.line  # index of the first body line
            lines[start : start + len(block.body)] = [indent + x if x else x for x in body]
        if write and edits:
            (ROOT / doc).write_text("\n".join(lines), encoding="utf-8")
            print(f"wrote    {doc}")
    print(f"{differing} block(s) differ" + ("" if write else " (--write rewrites them)"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
