"""Load one YAML rule file into position-carrying data, refusing anything unsafe or ambiguous.

ruamel.yaml's round-trip mode keeps the line and column of every key and item (``.lc``), which is
what lets every later error point into the file.  On top of ruamel this module:

* never builds Python objects from tags (``!!python/object`` and any non-core tag is refused);
* reports duplicate keys with both positions instead of silently keeping one;
* refuses hostile input fast: files over :data:`MAX_BYTES`, nesting deeper than
  :data:`MAX_DEPTH`, recursive aliases, and alias "bombs": aliases whose expansion would exceed
  :data:`MAX_ALIAS_EXPANSION` extra nodes, or whose copies would hold more than
  :func:`expansion_limit` characters of data (a few large anchored texts used many times).
  Both are counted on the node graph, where an alias is one shared node, before any plain-data
  copy is made (:mod:`interpreter.load.yamlgraph`);
* reads implicit timestamps (``2024-01-01``) as plain strings, so data stays JSON-shaped;
* tags every loaded container with its file so positions survive composition.

>>> doc = load_yaml_text("a: 1\\nb: [x, y]\\n", "demo.yaml")
>>> doc.data["b"][1], doc.locate(["b", 1])
('y', ('demo.yaml', 2, 8))
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from ruamel.yaml import YAML
from ruamel.yaml.composer import Composer
from ruamel.yaml.constructor import DuplicateKeyError
from ruamel.yaml.error import MarkedYAMLError, YAMLError
from ruamel.yaml.events import AliasEvent, Event, MappingStartEvent, SequenceStartEvent
from ruamel.yaml.nodes import Node as YamlNode, ScalarNode
from ruamel.yaml.reader import ReaderError

from interpreter.diagnostics.errors import Diagnostic, RulesError
from interpreter.load.fastyaml import load_with_events, plain_enough
from interpreter.load.locate import Position, is_map, is_seq, locate, set_node_file
from interpreter.load.node import Node
from interpreter.load.yamlgraph import (
    EXPANSION_FACTOR,
    EXPANSION_FLOOR,
    MAX_ALIAS_EXPANSION,
    Findings,
    Mark,
    Refusal,
    check_graph,
    check_tree_keys,
    expansion_limit,
)

__all__ = [
    "Document",
    "cached_files_changed",
    "kept_derived",
    "load_yaml_file",
    "load_yaml_text",
    "MAX_BYTES",
    "MAX_DEPTH",
    "MAX_ALIASES",
    "MAX_ALIAS_EXPANSION",
    "EXPANSION_FACTOR",
    "EXPANSION_FLOOR",
    "expansion_limit",
]

MAX_BYTES = 2 * 1024 * 1024
MAX_DEPTH = 64
MAX_ALIASES = 10_000

T = TypeVar("T")

_CORE_TAGS = {"str", "int", "float", "bool", "null", "map", "seq"}
_CORE_PREFIX = "tag:yaml.org,2002:"


@dataclass
class Document:
    """One loaded file: its display path, ruamel round-trip data and source text."""

    path: str
    # the tree (a :data:`~interpreter.load.node.Node`); typed ``Any`` for the readers outside
    # load/ and compose/ that index it as rule data unchecked; :attr:`tree` is the typed view
    data: Any
    text: str
    # what later stages read from ``data`` (kept_derived): key -> (how, what it gave)
    derived: dict[Hashable, tuple[Callable[[Node], object], object]] = field(
        default_factory=dict, repr=False, compare=False
    )

    @property
    def tree(self) -> Node:
        """The loaded tree: maps, lists and scalars (:mod:`interpreter.load.node`)."""
        data: Node = self.data
        return data

    def locate(self, path: Sequence[str | int], *, key: bool = False) -> Position:
        """Position of a JSON path inside this document (:func:`interpreter.load.locate.locate`)."""
        return locate(self.data, path, key=key)


def _tag_text(event: Event) -> str | None:
    tag = getattr(event, "ctag", None)
    if tag is None:
        tag = getattr(event, "tag", None)
    return None if tag is None else str(tag)


def _core_suffix(tag: str) -> str | None:
    for prefix in (_CORE_PREFIX, "!!"):
        if tag.startswith(prefix):
            return tag[len(prefix) :]
    return None


def _tag_allowed(tag: str) -> bool:
    return tag == "!" or _core_suffix(tag) in _CORE_TAGS


def _tag_display(tag: str) -> str:
    return "!!" + tag[len(_CORE_PREFIX) :] if tag.startswith(_CORE_PREFIX) else tag


class _GuardedComposer(Composer):
    """ruamel's composer with limits: depth, alias count, tags, and a graph check per document."""

    def __init__(self, loader: YAML | None = None) -> None:
        super().__init__(loader)
        self._nesting = 0
        self._aliases = 0
        # (mark, node) of every alias use in document order: the node graph keeps only the
        # shared node, and the expansion check names the alias that crosses its limit
        self._alias_uses: list[tuple[Mark, YamlNode]] = []
        # the loader's weight_limit is set from the text's size by _load_data
        self.weight_limit: int = getattr(loader, "weight_limit", EXPANSION_FLOOR)
        # ruamel's parser and resolver (ruamel types them Any: both are swapped at run time,
        # fastyaml's event source standing in for the parser)
        self._parser: Any = None
        self._resolver: Any = None

    # ruamel finds both through properties of the loader on every node (a frame inspection
    # each time); neither changes while a document is composed
    @property
    def parser(self) -> Any:
        if self._parser is None:
            self._parser = Composer.parser.fget(self)  # type: ignore[attr-defined]
        return self._parser

    @property
    def resolver(self) -> Any:
        if self._resolver is None:
            self._resolver = Composer.resolver.fget(self)  # type: ignore[attr-defined]
        return self._resolver

    def compose_node(self, parent: YamlNode | None, index: object) -> YamlNode:
        event = self.parser.peek_event()
        if isinstance(event, AliasEvent):
            self._aliases += 1
            if self._aliases > MAX_ALIASES:
                raise Refusal(
                    "Y007", f"too many alias uses (more than {MAX_ALIASES})", event.start_mark
                )
            node = super().compose_node(parent, index)
            self._alias_uses.append((event.start_mark, node))
            return node
        tag = _tag_text(event)
        if tag is not None and not _tag_allowed(tag):
            raise Refusal(
                "Y004",
                f"tag '{_tag_display(tag)}' is not allowed in rule files",
                event.start_mark,
                "rule files hold plain data: maps, lists, strings, numbers, booleans, null",
            )
        nested = isinstance(event, MappingStartEvent | SequenceStartEvent)
        if nested:
            self._nesting += 1
            if self._nesting > MAX_DEPTH:
                raise Refusal("Y006", f"nesting deeper than {MAX_DEPTH} levels", event.start_mark)
        try:
            node = super().compose_node(parent, index)
        finally:
            if nested:
                self._nesting -= 1
        if tag is not None and tag != "!":
            # An explicit core tag (!!str 1) would come back as a ruamel TaggedScalar; drop the
            # handle so it constructs the plain value it asks for.
            suffix = _core_suffix(tag)
            assert suffix is not None  # (_tag_allowed lets only the core tags through)
            node.tag = _CORE_PREFIX + suffix
        return node

    def compose_scalar_node(self, anchor: str | None) -> YamlNode:
        explicit = _tag_text(self.parser.peek_event()) not in (None, "!")
        node = super().compose_scalar_node(anchor)
        if not explicit and str(node.tag).endswith(":timestamp"):
            # Dates stay text: rule data must be JSON-shaped for schemas and state.
            node.tag = self.resolver.resolve(ScalarNode, node.value, (False, False))
        return node

    def compose_document(self) -> YamlNode | None:
        node = super().compose_document()
        if node is not None:
            if self._aliases:
                check_graph(node, self._alias_uses, self.weight_limit)
            else:  # no alias: a tree, which can hold neither a cycle nor a bomb
                check_tree_keys(node)
        return node


def _make_yaml() -> YAML:
    yaml = YAML(typ="rt", pure=True)
    yaml.Composer = _GuardedComposer
    yaml.allow_duplicate_keys = False
    return yaml


def _sized(yaml: YAML, text: str) -> YAML:
    """``yaml``, told the size of the text it loads (its composer bounds the copies by it)."""
    yaml.weight_limit = expansion_limit(len(text))  # type: ignore[attr-defined]
    return yaml


def _load_data(text: str) -> Node:
    """The document's data: through libyaml's events when the text is plain (see
    :mod:`interpreter.load.fastyaml`), else, and on anything unusual, through ruamel's own
    parser, which then gives every message its usual words and place."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yaml = _sized(_make_yaml(), text)
        if plain_enough(text):
            try:
                return load_with_events(yaml, text)
            except Exception:  # noqa: BLE001 - ruamel's own parser says what is wrong, below
                yaml = _sized(_make_yaml(), text)
        return yaml.load(text)


def _mark_pos(mark: object) -> tuple[int | None, int | None]:
    if mark is None:
        return None, None
    line = getattr(mark, "line", None)
    col = getattr(mark, "column", None)
    return (
        line + 1 if isinstance(line, int) else None,
        col + 1 if isinstance(col, int) else None,
    )


def _offset_pos(text: str, offset: int) -> tuple[int, int]:
    offset = max(0, min(offset, len(text)))
    line = text.count("\n", 0, offset) + 1
    col = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return line, col


def _diag(
    code: str, message: str, path: str, mark: object = None, hint: str | None = None
) -> Diagnostic:
    line, col = _mark_pos(mark)
    return Diagnostic(code, message, file=path, line=line, column=col, hint=hint)


def _from_marked(err: MarkedYAMLError, path: str) -> Diagnostic:
    problem = (err.problem or "").strip() or (err.context or "invalid YAML").strip()
    mark = err.problem_mark or err.context_mark
    hint = None
    if err.context and err.problem and err.context_mark is not None:
        line, col = _mark_pos(err.context_mark)
        hint = f"{err.context.strip()} started at line {line}, column {col}"
    if isinstance(err, DuplicateKeyError):
        return _diag("Y003", problem.replace("found duplicate key", "duplicate key"), path, mark)
    if "\\t" in problem or "\t" in problem:
        return _diag(
            "Y002",
            "tab character where YAML expects spaces",
            path,
            mark,
            "indent with spaces, never tabs",
        )
    if err.context and "expected a single document" in err.context:
        return _diag(
            "Y010",
            "more than one YAML document in the file",
            path,
            err.problem_mark,
            "remove the '---' separator: one rule document per file",
        )
    if "undefined alias" in problem:
        return _diag("Y009", problem.replace("found undefined", "undefined"), path, mark)
    if "mapping values are not allowed" in problem:
        # `doc: Costs: 3` - a plain text may not hold ': '; the author meant one text
        key = _key_of_line(mark)
        example = f'{key}: "..."' if key else 'key: "..."'
        hint = f"a text that contains ': ' must be quoted: {example}"
    return _diag("Y001", problem, path, mark, hint)


def _key_of_line(mark: object) -> str | None:
    """The key written at the start of the mark's line, when the mark knows its text."""
    buffer = getattr(mark, "buffer", None)
    pointer = getattr(mark, "pointer", None)
    if not isinstance(buffer, str) or not isinstance(pointer, int):
        return None
    start = buffer.rfind("\n", 0, pointer) + 1
    line = buffer[start:pointer].strip().lstrip("-").strip()
    key = line.split(":", 1)[0].strip()
    return key if key and " " not in key and ":" in line else None


def load_yaml_text(text: str, path: str = "<string>") -> Document:
    """Parse ``text`` as one rule document; any problem becomes a positioned ``RulesError``."""
    if len(text) > MAX_BYTES:
        raise RulesError(
            Diagnostic(
                "Y005",
                f"file too large ({len(text)} characters; limit {MAX_BYTES} bytes)",
                file=path,
            )
        )
    try:
        data = _load_data(text)
    except Refusal as err:
        raise RulesError(_diag(err.code, err.message, path, err.mark, err.hint)) from None
    except Findings as err:
        raise RulesError(
            sorted(
                (_diag(code, msg, path, mark, hint) for code, msg, mark, hint in err.items),
                key=Diagnostic.sort_key,
            )
        ) from None
    except MarkedYAMLError as err:
        raise RulesError(_from_marked(err, path)) from None
    except ReaderError as err:
        line, col = _offset_pos(text, err.position if isinstance(err.position, int) else 0)
        char = err.character
        what = f"#x{char:04x}" if isinstance(char, int) else repr(char)
        raise RulesError(
            Diagnostic(
                "Y011",
                f"unacceptable character {what}: {err.reason}",
                file=path,
                line=line,
                column=col,
            )
        ) from None
    except YAMLError as err:
        raise RulesError(Diagnostic("Y001", f"invalid YAML: {err}", file=path)) from None
    except RecursionError:
        raise RulesError(
            Diagnostic("Y006", f"nesting deeper than {MAX_DEPTH} levels", file=path)
        ) from None
    except Exception as err:  # ruamel has rare internal failures on garbage; never leak them
        raise RulesError(
            Diagnostic("Y099", f"could not parse YAML ({type(err).__name__}: {err})", file=path)
        ) from None
    _register(data, path)
    return Document(path=path, data=data, text=text)


def load_yaml_file(path: str | os.PathLike[str]) -> Document:
    """Read and parse a rule file; the path is kept as given so messages show what was typed."""
    display = os.fspath(path)
    try:
        size = os.stat(display).st_size
        if size > MAX_BYTES:
            raise RulesError(
                Diagnostic(
                    "Y005", f"file too large ({size} bytes; limit {MAX_BYTES})", file=display
                )
            )
        with open(display, "rb") as fh:
            raw = fh.read(MAX_BYTES + 1)
    except RulesError:
        raise
    except OSError as err:
        reason = err.strerror or type(err).__name__
        raise RulesError(Diagnostic("Y011", f"cannot read file: {reason}", file=display)) from None
    if len(raw) > MAX_BYTES:
        raise RulesError(
            Diagnostic("Y005", f"file too large (limit {MAX_BYTES} bytes)", file=display)
        )
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        prefix = raw[: err.start].decode("utf-8", "replace")
        line, col = _offset_pos(prefix, len(prefix))
        raise RulesError(
            Diagnostic(
                "Y011",
                f"file is not UTF-8 (byte 0x{raw[err.start]:02x})",
                file=display,
                line=line,
                column=col,
            )
        ) from None
    hit = _CACHE.get(display)
    if hit is not None and hit[0] == raw:
        return hit[1]
    doc = load_yaml_text(text, display)
    if len(_CACHE) >= _CACHE_MAX:
        _CACHE.clear()
        _KEPT.clear()
    if hit is not None:
        _KEPT.pop(id(hit[1].data), None)
    _CACHE[display] = (raw, doc)
    _KEPT[id(doc.data)] = doc
    return doc


# The same rule file is loaded again and again in one process (every player count, every
# overlay combination, validation, tests). Parsing is what costs, not reading: keep parsed
# documents keyed by path and exact bytes. Callers treat a Document as read-only (compose
# copies on write).
_CACHE: dict[str, tuple[bytes, Document]] = {}
_CACHE_MAX = 256
# the kept documents by the id of their data (each keeps its data, so the id stays its own)
_KEPT: dict[int, Document] = {}


def kept_derived(data: Node, key: Hashable, how: Callable[[Node], T]) -> T:
    """``how(data)``, worked out once per kept parse: where ``data`` is the tree of a file this
    module keeps (a game loaded without overlays), the result is kept beside it and handed to
    every later call with the same ``key``; any other tree (an overlay's composition, a tree
    built in code) gets ``how(data)`` anew. ``how`` must depend on ``data`` alone, and its
    result is read-only like the parse itself: :func:`cached_files_changed` works each kept
    result out again and reports the file whose result a caller changed."""
    doc = _KEPT.get(id(data))
    if doc is None or doc.data is not data:
        return how(data)
    hit = doc.derived.get(key)
    if hit is None:
        hit = doc.derived[key] = (how, how(data))
    return hit[1]  # type: ignore[return-value]  # what ``how`` gave, kept beside ``key``


def cached_files_changed() -> list[str]:
    """The files whose kept parse no longer holds what their text says, or whose results kept
    beside it (:func:`kept_derived`) no longer match what the parse gives: a caller wrote into
    a Document or a result it was given, which every later load of that file in this process
    would see (a test suite's guard; parsing every kept file again costs about what loading
    them did)."""
    changed = []
    for display, (raw, doc) in list(_CACHE.items()):
        fresh = load_yaml_text(raw.decode("utf-8-sig"), display).data
        if fresh != doc.data or any(how(fresh) != got for how, got in doc.derived.values()):
            changed.append(display)
    return changed


def _register(data: Node, path: str) -> None:
    """Tag every container with its file (aliases share nodes, so visit each object once)."""
    seen: set[int] = set()
    stack: list[Node] = [data]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        if is_map(node):
            seen.add(id(node))
            set_node_file(node, path)
            stack.extend(node.values())
        elif is_seq(node):
            seen.add(id(node))
            set_node_file(node, path)
            stack.extend(node)
