"""Rewrite every golden transcript of tests/golden/ (after an intended rule change):

    python tests/golden/regenerate.py            # all of them
    python tests/golden/regenerate.py san-juan   # those whose file path contains a word

Prints which files changed; `git diff tests/golden` then shows what changed in play.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def main(words: list[str]) -> int:
    sys.path[:0] = [str(ROOT), str(Path(__file__).resolve().parent)]
    from golden_games import combinations, transcript

    changed = 0
    for combo in combinations():
        name = str(combo.path.relative_to(ROOT))
        if words and not any(w in name for w in words):
            continue
        text = transcript(combo)
        old = combo.path.read_text(encoding="utf-8") if combo.path.exists() else None
        if old == text:
            print(f"same     {name}")
            continue
        combo.path.parent.mkdir(parents=True, exist_ok=True)
        combo.path.write_text(text, encoding="utf-8")
        changed += 1
        print(f"{'new' if old is None else 'changed':<8} {name}")
    print(f"{changed} file(s) written")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
