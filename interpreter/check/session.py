"""What one validate run shares between its files: parses, schema results, the rule files known.

Every file is parsed once per run (by its real path) and schema-checked once per document,
however many overlays, configs and player counts reach it; the ids of the rulesets and
overlays given are noted so that an overlay or config finds what it builds on among them
first, then beside itself, then among the installed rulesets.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from interpreter.diagnostics.errors import Diagnostic, RulesError
from interpreter.load.discovery import classify, plain_id, read_head
from interpreter.load.locate import is_map
from interpreter.ruleset.header import Header
from interpreter.ruleset.ruleset import Ruleset

if TYPE_CHECKING:  # imported where first used, as the run needs them
    from interpreter.compose.finding import OverlayFinder
    from interpreter.load.schemamemo import SchemaMemo
    from interpreter.load.yamlload import Document
    from interpreter.model.logtexts import LogTexts
    from interpreter.model.rules import Rules

__all__ = ["Loaded", "ScenarioBuild", "Session"]

# how scenarios play a game: the composed tree's id, the player counts, the options as texts
ScenarioBuild = tuple[int, tuple[int, ...], tuple[str, ...]]


@dataclass
class Loaded:
    """A file as parsed: its document, or None and the diagnostics of why it could not be."""

    doc: Document | None
    diagnostics: list[Diagnostic]


class Session:
    """The state of one validate run (a forked worker starts with a copy of it)."""

    def __init__(self) -> None:
        self.out: list[Diagnostic] = []
        self.loaded: dict[str, Loaded] = {}
        self.sources: dict[str, str] = {}
        self.checked_files: set[str] = set()
        self.bases: dict[str, str] = {}  # ruleset id -> path (files given)
        self.overlays: dict[str, str] = {}  # overlay id -> path (files given)
        self.given: list[str] = []  # the rulesets and overlays given, in order
        self._finder: OverlayFinder | None = None  # made when needed
        self.schema_cache: dict[tuple[int, str], list[Diagnostic]] = {}
        self.keep_alive: list[object] = []
        self.compiled: set[ScenarioBuild] = set()  # the ways scenarios play a game, compiled
        self.built: dict[ScenarioBuild, Rules | None] = {}  # and their rules, when they compile
        self.log_texts: dict[ScenarioBuild, LogTexts] = {}  # and the texts their logs can hold
        # base, overlays, warned file -> what composing them gave (many scenarios ask alike)
        self.compositions: dict[tuple[str, ...], tuple[Any, list[Diagnostic]]] = {}
        self.flow_names: dict[ScenarioBuild, set[str]] = {}  # and their flow variables
        self.rulesets: dict[int, Ruleset] = {}  # a composed tree's typed rules, by its id
        # a composition shares its untouched entries with its base: their schema check is not
        # repeated (the files do not change during a run)
        self.schema_memo: SchemaMemo | None = None

    def load(self, path: str) -> Loaded:
        """The file parsed, once per run; its text is kept for the report's excerpts."""
        # by real path: a file given on the command line is also found again as an installed
        # ruleset (by its absolute path) and must not be parsed twice; the name it was first
        # loaded under (the one the user typed) is the one its messages show
        key = os.path.realpath(path)
        hit = self.loaded.get(key)
        if hit is not None:
            return hit
        from interpreter.load.yamlload import load_yaml_file

        try:
            doc = load_yaml_file(path)
            loaded = Loaded(doc, [])
            self.sources.setdefault(doc.path, doc.text)
        except RulesError as err:
            loaded = Loaded(None, list(err.diagnostics))
            try:
                raw = Path(path).read_bytes()[: 1 << 20]
                self.sources.setdefault(path, raw.decode("utf-8-sig", "replace"))
            except OSError:
                pass
        self.loaded[key] = loaded
        return loaded

    def typed(self, composed: Any) -> Ruleset:
        """The typed rules of a composed tree, read once per run (the tree is kept alive, so
        its id stays its own); a kept parse's (a ruleset given alone) are the ones loading
        that file gives everywhere (``Ruleset.of``)."""
        found = self.rulesets.get(id(composed))
        if found is None:
            found = self.rulesets[id(composed)] = Ruleset.of(composed)
            self.keep_alive.append(composed)
        return found

    def header(self, path: str) -> Header | None:
        """What a rule file says about itself (its id, what it extends), typed; None for a
        file that does not parse."""
        doc = self.load(path).doc
        return None if doc is None else Header.from_data(doc.data)

    def emit(self, diags: Iterable[Diagnostic]) -> None:
        self.out.extend(diags)

    def schema(self, data: Any, kind: str, path: str | None = None) -> list[Diagnostic]:
        """The schema's findings on a document, checked once per document and kind; with
        ``path``, a document without positions (empty, not a map) is pointed at its start."""
        from interpreter.load.schema import check, load_schema, schemas_dir
        from interpreter.load.schemamemo import SchemaMemo

        if not (schemas_dir() / f"{kind}.schema.json").is_file():
            return []
        key = (id(data), kind)
        found = self.schema_cache.get(key)
        if found is None:
            try:
                if self.schema_memo is None:
                    self.schema_memo = SchemaMemo()
                found = check(data, load_schema(kind), memo=self.schema_memo)
            except RulesError as err:
                found = list(err.diagnostics)
            self.schema_cache[key] = found
            self.keep_alive.append(data)  # ids stay unique while cached
        if path is None:
            return found
        return [
            replace(d, file=path, line=1, column=1) if d.file is None and d.line is None else d
            for d in found
        ]

    def schema_errors(self, data: Any, kind: str, path: str | None = None) -> list[Diagnostic]:
        """Only the errors of :meth:`schema` (a later stage runs when there are none)."""
        return [d for d in self.schema(data, kind, path) if d.severity == "error"]

    def note_given(self, path: str, kind: str, head: str | None) -> None:
        """Remember a ruleset or overlay given to the run under the id it declares."""
        self._add_by_id(path, kind, head, self.bases, self.overlays)
        self.given.append(path)
        self._finder = None

    def finder(self) -> OverlayFinder:
        """What finds an overlay's base and the overlays it extends, the files given first
        (an :class:`~interpreter.compose.finding.OverlayFinder`, made once per run)."""
        if self._finder is None:
            from interpreter.compose.finding import OverlayFinder

            self._finder = OverlayFinder(self.given)
        return self._finder

    def candidates(self, near: str) -> tuple[dict[str, str], dict[str, str]]:
        """(ruleset id -> path, overlay id -> path): files given, then beside ``near``, then
        installed rulesets (with their overlays)."""
        from interpreter.load import catalog

        bases = dict(self.bases)
        overlays = dict(self.overlays)
        folder = Path(near).parent
        for f in sorted(folder.glob("*.y*ml")):
            self.note(str(f), bases, overlays)
        for name, d in catalog.game_dirs().items():
            base = d / catalog.BASE_FILE
            bid = self.id_of(str(base), "ruleset")
            bases.setdefault(bid or name, str(base))
            bases.setdefault(name, str(base))
            for f in sorted(d.glob("*.y*ml")):
                if f != base:
                    self.note(str(f), bases, overlays)
        return bases, overlays

    def note(self, path: str, bases: dict[str, str], overlays: dict[str, str]) -> None:
        """Add a file to ``bases`` or ``overlays`` under its id, when it is one of those."""
        try:
            text = Path(path).read_text(encoding="utf-8-sig")
        except (OSError, UnicodeDecodeError):
            return
        kind = classify(text)
        if kind in ("ruleset", "overlay"):
            self._add_by_id(path, kind, None, bases, overlays)

    def _add_by_id(
        self,
        path: str,
        kind: str,
        head: str | None,
        bases: dict[str, str],
        overlays: dict[str, str],
    ) -> None:
        ident = self.id_of(path, kind, head)
        if ident:
            (bases if kind == "ruleset" else overlays).setdefault(ident, path)

    def id_of(self, path: str, kind: str, head: str | None = None) -> str | None:
        """The id a ruleset or overlay file declares; read from its text when the text says
        it plainly (no parse), else from the parsed file."""
        if head is None:
            head = read_head(path) or ""
        plain = plain_id(head, kind)
        if plain:
            return plain
        doc = self.load(path).doc
        if doc is None or not is_map(doc.data):
            return None
        value = doc.data.get("ruleset" if kind == "ruleset" else "overlay")
        return str(value) if isinstance(value, str) and value else None
