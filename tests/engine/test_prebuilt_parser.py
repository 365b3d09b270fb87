"""The shipped pre-built parser of the effect grammar is fresh, and parses as the grammar does."""

from __future__ import annotations

from pathlib import Path

from interpreter.dsl.parse import parser

ROOT = Path(__file__).resolve().parents[2]


def _texts() -> list[str]:
    """Effect texts enough to use most of the grammar: every rule file's multi-line texts."""
    texts: list[str] = []
    for path in sorted(ROOT.glob("rulesets/*/*.yaml")):
        block: list[str] = []
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.rstrip().endswith(": |") or line.rstrip().endswith(": |-"):
                if block:
                    texts.append("\n".join(block))
                block = [""]
            elif block and (line.startswith("          ") or not line.strip()):
                block.append(line)
            elif block:
                texts.append("\n".join(block))
                block = []
    return texts


def test_the_shipped_parser_is_built_from_this_grammar_and_lark() -> None:
    grammar = parser.GRAMMAR_PATH.read_text(encoding="utf-8")
    assert parser.load_prebuilt(grammar) is not None, (
        "grammar/effects.lark.parser is missing or stale: "
        "run python -m interpreter.dsl.parse.prebuild"
    )


def test_the_shipped_parser_parses_like_one_built_from_the_grammar() -> None:
    grammar = parser.GRAMMAR_PATH.read_text(encoding="utf-8")
    shipped = parser.load_prebuilt(grammar)
    built = parser.build_parser(grammar)
    assert shipped is not None
    samples = ["x + 1", "a.b[c] >= 2 and not d", "len(p.hand) if q else 0"]
    statements = _texts() + ["x = 1\nif x:\n    y = 2\n", "for a in b:\n  pass\n"]
    assert len(statements) > 20
    for text in samples:
        assert shipped.parse(f"({text})", start="expr") == built.parse(f"({text})", start="expr")
    parsed = 0
    for text in statements:
        source = text.strip("\n")
        source = "\n".join(line[min_indent(source) :] for line in source.splitlines()) + "\n"
        try:
            expected = built.parse(source, start="start")
        except Exception as err:  # noqa: BLE001 - both must fail alike
            try:
                shipped.parse(source, start="start")
            except Exception as again:  # noqa: BLE001
                assert type(again) is type(err)
                continue
            raise AssertionError(
                f"the shipped parser accepts a text the grammar refuses: {text}"
            ) from err
        assert shipped.parse(source, start="start") == expected
        parsed += 1
    assert parsed > 20


def min_indent(text: str) -> int:
    return min(len(line) - len(line.lstrip()) for line in text.splitlines() if line.strip())
