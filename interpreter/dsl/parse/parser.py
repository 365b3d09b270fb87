"""Parses effect texts with the grammar in grammar/effects.lark (built once per process)."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken
from lark.indenter import Indenter

from interpreter.dsl.parse.syntax_hints import hint_for_token, indentation_message
from interpreter.load.resources import data_dir

GRAMMAR_PATH = data_dir("grammar") / "effects.lark"


class DslSyntaxError(Exception):
    """A fault inside one effect text; line and column are 1-based within that text."""

    def __init__(self, message: str, line: int, column: int, code: str = "D001") -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.column = column
        self.code = code


class _Indenter(Indenter):
    NL_type = "_NL"
    OPEN_PAREN_types = ["LPAR", "LSQB"]
    CLOSE_PAREN_types = ["RPAR", "RSQB"]
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = 8

    def handle_NL(self, token: Token):  # noqa: ANN201, N802
        """Lark's, with a dedent to no open block's column said where it happens."""
        if self.paren_level == 0:
            indent_str = token.rsplit("\n", 1)[1]
            indent = indent_str.count(" ") + indent_str.count("\t") * self.tab_len
            if indent < self.indent_level[-1] and indent not in self.indent_level:
                line = (token.end_line or 1) if "\n" in token else (token.line or 1)
                raise DslSyntaxError(indentation_message(indent, self.indent_level), line, 1)
        yield from super().handle_NL(token)


@lru_cache(maxsize=1)
def _parser() -> Lark:
    grammar = GRAMMAR_PATH.read_text(encoding="utf-8")
    return load_prebuilt(grammar) or build_parser(grammar)


def build_parser(grammar: str) -> Lark:
    """The LALR parser of ``grammar``, built from its text (the pre-built one loads faster)."""
    return Lark(
        grammar,
        parser="lalr",
        postlex=_Indenter(),
        start=["start", "expr"],
        propagate_positions=True,
        maybe_placeholders=False,
    )


# The parser built from grammar/effects.lark, saved with Lark's own serialisation beside it and
# packaged with it: loading it takes a few milliseconds, building it some 60 (what a cold
# `rulebook validate` pays). Its first line names the grammar text and lark version it was
# built from; on any other grammar or lark it is not used.
# `python -m interpreter.dsl.parse.prebuild` writes it again;
# tests/engine/test_prebuilt_parser.py fails while it is stale.
PREBUILT_PATH = GRAMMAR_PATH.with_name("effects.lark.parser")


def prebuilt_key(grammar: str) -> str:
    """What a pre-built parser must have been built from to stand in for ``grammar``."""
    import hashlib

    import lark

    return hashlib.sha256(f"{lark.__version__}\n{grammar}".encode()).hexdigest()


def load_prebuilt(grammar: str) -> Lark | None:
    """The packaged pre-built parser of ``grammar``, or None when there is none or it is stale."""
    try:
        with PREBUILT_PATH.open("rb") as fh:
            if fh.readline().decode("ascii").strip() != prebuilt_key(grammar):
                return None
            # what Lark's own cache does to load a saved parser with a postlexer
            return Lark.__new__(Lark)._load(fh, postlex=_Indenter())
    except Exception:  # noqa: BLE001 - missing, stale or unreadable: build it instead
        return None


def save_prebuilt(grammar: str) -> None:
    """Write the pre-built parser of ``grammar`` (see :data:`PREBUILT_PATH`)."""
    parser = build_parser(grammar)
    with PREBUILT_PATH.open("wb") as fh:
        fh.write(prebuilt_key(grammar).encode("ascii") + b"\n")
        parser.save(fh, exclude_options=("postlex",))


_TOKEN_WORDS = {
    "_NL": "end of line",
    "$END": "end of text",
    "NAME": "a name",
    "NUMBER": "a number",
    "STRING": "a quoted text",
    "LPAR": "'('",
    "RPAR": "')'",
    "COLON": "':'",
    "EQUAL": "'='",
    "_INDENT": "an indented block",
    "_DEDENT": "end of block",
}


def _describe(expected: set[str]) -> str:
    words = sorted({_TOKEN_WORDS.get(t, t.lower().strip("_")) for t in expected})
    if len(words) > 6:
        words = words[:6] + ["..."]
    return ", ".join(words)


def parse(text: str, start: str = "start") -> Tree:
    """Parse a statement block (start) or a single expression (expr).

    Results are memoised: a ruleset is compiled once per player count and again inside every
    composition with its overlays, so the same texts come back many times. The compilers never
    change a tree; a syntax error is re-raised as a fresh exception, since callers adjust its
    column.
    """
    hit = _memo(text, start)
    if isinstance(hit, tuple):
        raise DslSyntaxError(*hit)
    return hit


@lru_cache(maxsize=16384)
def _memo(text: str, start: str) -> Tree | tuple[str, int, int, str]:
    try:
        return _parse_fresh(text, start)
    except DslSyntaxError as e:
        return (e.message, e.line, e.column, e.code)


def _parse_fresh(text: str, start: str) -> Tree:
    # An expression is parsed inside brackets so that it may run over several lines;
    # columns on its first line are then one too far, which _shift corrects.
    # A comment at its end would swallow the closing bracket, so the bracket then goes on a
    # line of its own.
    tail = "\n)" if "#" in text else ")"
    source = f"({text}{tail}" if start == "expr" else text.rstrip() + "\n"
    try:
        tree = _parse(source, start)
    except DslSyntaxError as e:
        if start == "expr" and e.line == 1:
            e.column = max(1, e.column - 1)
        if start == "expr" and e.line > text.count("\n") + 1:  # at the bracket added above
            expected = e.message.partition("; ")[2]
            e.message = "the text ends too early" + (f"; {expected}" if expected else "")
            e.line, e.column = text.count("\n") + 1, len(text.rsplit("\n", 1)[-1]) + 1
        raise
    if start == "expr":
        _unshift(tree)
    return tree


def _unshift(tree: Tree) -> None:
    """Undo the opening bracket's column on line 1, so later checks point at the author's text."""
    for tok in tree.scan_values(lambda v: isinstance(v, Token)):
        if tok.line == 1 and tok.column:
            tok.column -= 1
    for sub in tree.iter_subtrees():
        meta: Any = sub.meta  # (lark sets container_* on it only where propagate_positions)
        if not meta.empty and meta.line == 1 and meta.column:
            meta.column -= 1
        column = getattr(meta, "container_column", 0)
        if getattr(meta, "container_line", None) == 1 and column > 1:
            meta.container_column = column - 1  # (the whole text's container: the bracket)


def start_of(node: Tree) -> tuple[int, int]:
    """Where a subexpression starts in its text, brackets around it included: `(a + b)` starts
    at its `(` (lark's container position), so that two nested subexpressions that start
    together, `((x if c else y) if d else z)`, each keep a place of their own."""
    meta = node.meta
    return (
        getattr(meta, "container_line", meta.line),
        getattr(meta, "container_column", meta.column),
    )


def _parse(source: str, start: str) -> Tree:
    try:
        return _parser().parse(source, start=start)
    except UnexpectedCharacters as e:
        raise DslSyntaxError(
            f"unexpected character {source[e.pos_in_stream or 0]!r}", e.line, e.column
        ) from None
    except UnexpectedToken as e:
        if e.token.type == "$END":
            line = source.count("\n") or 1
            raise DslSyntaxError(
                f"the text ends too early; expected {_describe(e.expected)}", line, 1
            ) from None
        value = str(e.token).strip() or _TOKEN_WORDS.get(e.token.type, e.token.type)
        pos = e.token.start_pos if e.token.start_pos is not None else len(source)
        hint = hint_for_token(source, pos, e.token.type, set(e.expected))
        raise DslSyntaxError(
            f"unexpected {value!r}; {hint or 'expected ' + _describe(e.expected)}",
            e.line or 1,
            e.column or 1,
        ) from None
    except UnexpectedEOF as e:
        raise DslSyntaxError(
            f"the text ends too early; expected {_describe(set(e.expected))}", 1, 1
        ) from None
    except DslSyntaxError:
        raise
    except UnexpectedInput as e:  # pragma: no cover - lark's other input faults
        raise DslSyntaxError(str(e).splitlines()[0], getattr(e, "line", 1) or 1, 1) from None
    except Exception as e:  # the indenter raises plain errors on bad dedents
        raise DslSyntaxError(f"bad indentation ({e})", 1, 1) from None
