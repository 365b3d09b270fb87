"""Write grammar/effects.lark.parser, the effect grammar's parser built once and packaged.

    python -m interpreter.dsl.parse.prebuild

Run it after changing grammar/effects.lark or upgrading lark (tests/dsl/test_prebuilt_parser.py
says when); until then the grammar is built from its text on every start, as before.
"""

from __future__ import annotations

from interpreter.dsl.parse.parser import GRAMMAR_PATH, PREBUILT_PATH, save_prebuilt


def main() -> None:
    save_prebuilt(GRAMMAR_PATH.read_text(encoding="utf-8"))
    print(f"wrote {PREBUILT_PATH}")


if __name__ == "__main__":
    main()
