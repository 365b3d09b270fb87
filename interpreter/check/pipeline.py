"""The checking pipeline behind ``rulebook validate``: rule files checked like a compiler.

Given files and folders, :func:`validate` finds every ``*.yaml`` / ``*.yml`` below them, decides
what each one is, and runs the stages in order, collecting *all* diagnostics of *all* files::

    YAML (Y)  ->  JSON Schema (S)  ->  composition (O)  ->  references + DSL (R, D)
              ->  whole-ruleset checks that need no game (R004, R005, W002-W005)

What a file is, decided from its top-level keys (a cheap text scan, before parsing):

* ``ruleset: ID``  a base ruleset: schema-checked, then compiled once per allowed player count
  (with the options' defaults), then the whole-ruleset checks;
* ``overlay: ID``  an overlay: schema-checked, then composed onto what it ``extends`` (found
  among the files given, beside the overlay, or among the installed rulesets) so that its
  reference and DSL faults surface; an overlay extending another overlay composes the whole
  chain, so two overlays changing the same entry are reported naming both files (O008);
* ``game: NAME``   a game config: schema-checked, then its game, overlays, player count and
  options are resolved (C001-C005) and the composition it asks for is compiled;
* anything else (``.pre-commit-config.yaml``, CI workflows, ...) is *skipped*, listed as such,
  and never fails a run.  A file whose top-level keys look like a misspelt rule file
  (``rulset:``, or ``flow:``/``phases:``/``extends:`` without an id) is checked as one, so a
  typo cannot make a rule file silently vanish from CI.

A stage runs on a file only when the stages before it found no error there (a schema error
would otherwise echo as a string of confusing compile errors, and a mistyped call would also
make its function look unused).  Identical diagnostics (the
same fault seen for three player counts, or through a base and its overlay) are reported once;
the order is by file, line, column, then code.  Warnings from files outside the ones given
(e.g. an installed base an overlay extends) are not reported; errors always are.

>>> from pathlib import Path
>>> report = validate([Path(__file__).parents[2] / "tests/toy"])
>>> report.errors, [f.kind for f in report.files]
(0, ['overlay', 'ruleset'])
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from interpreter.check import workers as forked
from interpreter.diagnostics.errors import ConfigError, Diagnostic, RulesError
from interpreter.diagnostics.suggest import did_you_mean, hint_for
from interpreter.load.locate import is_map, is_seq, json_pointer, locate

__all__ = [
    "CheckedFile",
    "PathError",
    "Report",
    "discover",
    "validate",
    "check_ruleset",
    "KINDS",
]

KINDS = ("ruleset", "overlay", "config")
_KIND_KEY = {"ruleset": "ruleset", "overlay": "overlay", "game": "config"}
_SCHEMA = {"ruleset": "ruleset", "overlay": "overlay", "config": "config"}
# Top-level keys only a rule file has: a file with one of these but no id is still checked.
_RULESET_ONLY = ("catalogs", "phases", "flow", "scoring", "procedures", "functions")
_OVERLAY_ONLY = ("extends",)
_TOP_KEY = re.compile(r"^([A-Za-z_][\w-]*)[ \t]*:", re.MULTILINE)
_SCHEMA_LINE = re.compile(r"yaml-language-server:\s*\$schema=\S*?(ruleset|overlay|config)\.schema")
_SKIP_DIRS = {".git", ".hg", ".svn", "node_modules", "__pycache__", ".venv", "venv", ".tox"}
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:-[A-Za-z0-9_]+)*")
_EMIT = re.compile(r"\bemit\s+([A-Za-z_][A-Za-z0-9_]*(?:-[A-Za-z0-9_]+)*)")
_OPTION = re.compile(r"\boption\s*\.\s*([A-Za-z_][A-Za-z0-9_]*(?:-[A-Za-z0-9_]+)*)")
# Keys whose values are prose, never rule text: names in them do not count as uses.
_PROSE_KEYS = {"doc", "title", "description", "label"}
# Most player counts a ruleset is compiled for (the smallest, the largest, and the ones between).
MAX_COUNTS = 8
NONE_WORD = "none"


class PathError(Exception):
    """A path given to :func:`validate` does not exist or cannot be read (exit code 2)."""


@dataclass(frozen=True)
class CheckedFile:
    """One discovered file and what it was taken for (``ruleset``/``overlay``/``config``/
    ``skipped``)."""

    path: str
    kind: str


@dataclass
class Report:
    """Everything one run found: sorted, de-duplicated diagnostics and the files looked at."""

    diagnostics: list[Diagnostic]
    files: list[CheckedFile]
    sources: dict[str, str] = field(default_factory=dict)

    @property
    def errors(self) -> int:
        return sum(1 for d in self.diagnostics if d.severity == "error")

    @property
    def warnings(self) -> int:
        return sum(1 for d in self.diagnostics if d.severity == "warning")

    @property
    def checked(self) -> list[str]:
        return [f.path for f in self.files if f.kind != "skipped"]

    @property
    def skipped(self) -> list[str]:
        return [f.path for f in self.files if f.kind == "skipped"]

    def failed(self, strict: bool = False) -> bool:
        """True when the run should fail: any error, or any warning under ``strict``."""
        return self.errors > 0 or (strict and self.warnings > 0)


# ------------------------------------------------------------------------------ discovery


def discover(paths: Iterable[str | os.PathLike[str]]) -> list[str]:
    """Every YAML file named or found below the folders named, sorted, each once.

    Hidden folders and tool folders (``.git``, ``node_modules``, virtualenvs) are not entered;
    a file named explicitly is always taken, whatever its suffix.  Raises :class:`PathError`
    for a path that does not exist or a folder that cannot be listed.
    """
    found: dict[str, None] = {}
    for raw in paths:
        p = Path(raw)
        if p.is_file():
            found[os.fspath(raw)] = None
        elif p.is_dir():
            try:
                for dirpath, dirnames, filenames in os.walk(p, onerror=_raise):
                    dirnames[:] = sorted(
                        d for d in dirnames if d not in _SKIP_DIRS and not d.startswith(".")
                    )
                    for name in sorted(filenames):
                        if name.endswith((".yaml", ".yml")):
                            found[os.path.join(dirpath, name)] = None
            except OSError as err:
                raise PathError(f"{raw}: cannot list folder ({err.strerror or err})") from None
        elif p.exists():
            raise PathError(f"{raw}: not a file or folder")
        else:
            raise PathError(f"{raw}: no such file or folder")
    return sorted(found)


def _raise(err: OSError) -> None:
    raise err


def classify(text: str) -> str:
    """``ruleset``, ``overlay``, ``config`` or ``skipped``, from a text scan of top-level keys.

    >>> classify("ruleset: x\\n"), classify("overlay: y\\n"), classify("repos: []\\n")
    ('ruleset', 'overlay', 'skipped')
    >>> classify("rulset: x\\nflow: {}\\n")
    'ruleset'
    """
    keys = _TOP_KEY.findall(text)
    for key in keys:
        if key in _KIND_KEY:
            return _KIND_KEY[key]
    marker = _SCHEMA_LINE.search(text[:2000])
    if marker:
        return marker.group(1)
    for key in keys:
        guess = did_you_mean(key, _KIND_KEY)
        if guess and guess != key:
            return _KIND_KEY[guess]
    if any(k in _RULESET_ONLY for k in keys):
        return "ruleset"
    if any(k in _OVERLAY_ONLY for k in keys):
        return "overlay"
    return "skipped"


# ------------------------------------------------------------------------------- pipeline


@dataclass
class _Loaded:
    doc: Any  # interpreter.load.yamlload.Document | None
    diagnostics: list[Diagnostic]


class _Run:
    def __init__(self) -> None:
        self.out: list[Diagnostic] = []
        self.loaded: dict[str, _Loaded] = {}
        self.sources: dict[str, str] = {}
        self.checked_files: set[str] = set()
        self.bases: dict[str, str] = {}  # ruleset id -> path (files given)
        self.overlays: dict[str, str] = {}  # overlay id -> path (files given)
        self.schema_cache: dict[tuple[int, str], list[Diagnostic]] = {}
        self.keep_alive: list[Any] = []

    # -- loading ------------------------------------------------------------------------------
    def load(self, path: str) -> _Loaded:
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
            loaded = _Loaded(doc, [])
            self.sources.setdefault(doc.path, doc.text)
        except RulesError as err:
            loaded = _Loaded(None, list(err.diagnostics))
            try:
                raw = Path(path).read_bytes()[: 1 << 20]
                self.sources.setdefault(path, raw.decode("utf-8-sig", "replace"))
            except OSError:
                pass
        self.loaded[key] = loaded
        return loaded

    def emit(self, diags: Iterable[Diagnostic]) -> None:
        self.out.extend(diags)

    # -- finding what an overlay extends or a config plays --------------------------------------
    def _candidates(self, near: str) -> tuple[dict[str, str], dict[str, str]]:
        """(ruleset id -> path, overlay id -> path): files given, then beside ``near``, then
        installed rulesets (with their overlays)."""
        from interpreter.load import catalog

        bases = dict(self.bases)
        overlays = dict(self.overlays)
        folder = Path(near).parent
        for f in sorted(folder.glob("*.y*ml")):
            self._note(str(f), bases, overlays)
        for name, d in catalog.game_dirs().items():
            base = d / catalog.BASE_FILE
            bid = self._id_of(str(base), "ruleset")
            bases.setdefault(bid or name, str(base))
            bases.setdefault(name, str(base))
            for f in sorted(d.glob("*.y*ml")):
                if f != base:
                    self._note(str(f), bases, overlays)
        return bases, overlays

    def _note(self, path: str, bases: dict[str, str], overlays: dict[str, str]) -> None:
        try:
            text = Path(path).read_text(encoding="utf-8-sig")
        except (OSError, UnicodeDecodeError):
            return
        kind = classify(text)
        if kind in ("ruleset", "overlay"):
            ident = self._id_of(path, kind)
            if ident:
                (bases if kind == "ruleset" else overlays).setdefault(ident, path)

    def _id_of(self, path: str, kind: str, head: str | None = None) -> str | None:
        """The id a ruleset or overlay file declares; read from its text when the text says
        it plainly (no parse), else from the parsed file."""
        if head is None:
            try:
                with open(path, "rb") as fh:
                    head = fh.read(1 << 16).decode("utf-8-sig", "replace")
            except OSError:
                head = ""
        plain = _plain_id(head, kind)
        if plain:
            return plain
        doc = self.load(path).doc
        if doc is None or not is_map(doc.data):
            return None
        value = doc.data.get("ruleset" if kind == "ruleset" else "overlay")
        return str(value) if isinstance(value, str) and value else None

    def chain(self, overlay_path: str) -> tuple[str | None, list[str], list[Diagnostic]]:
        """Base path and the overlays (in order, ending with this one) an overlay needs."""
        bases, overlays = self._candidates(overlay_path)
        order = [overlay_path]
        diags: list[Diagnostic] = []
        current = overlay_path
        seen = {os.path.normpath(overlay_path)}
        while True:
            doc = self.load(current).doc
            if doc is None or not is_map(doc.data):
                return None, order, diags
            target = doc.data.get("extends")
            if not isinstance(target, str) or not target:
                return None, order, diags  # the schema / compose stage reports it
            if target in bases:
                return bases[target], order, diags
            nxt = overlays.get(target)
            if nxt is None or os.path.normpath(nxt) in seen:
                file, line, col = locate(doc.data, ["extends"])
                why = "is not a known ruleset or overlay" if nxt is None else "forms a cycle"
                diags.append(
                    Diagnostic(
                        "O004",
                        f"'extends: {target}' {why}",
                        file or doc.path,
                        line,
                        col,
                        "/extends",
                        hint=hint_for(target, [*bases, *overlays]),
                    )
                )
                return None, order, diags
            seen.add(os.path.normpath(nxt))
            order.insert(0, nxt)
            current = nxt

    # -- the stages ---------------------------------------------------------------------------
    def schema(self, data: Any, kind: str, path: str | None = None) -> list[Diagnostic]:
        from interpreter.load.schema import check, load_schema, schemas_dir

        if not (schemas_dir() / f"{_SCHEMA[kind]}.schema.json").is_file():
            return []
        key = (id(data), kind)
        found = self.schema_cache.get(key)
        if found is None:
            try:
                found = check(data, load_schema(_SCHEMA[kind]))
            except RulesError as err:
                found = list(err.diagnostics)
            self.schema_cache[key] = found
            self.keep_alive.append(data)  # ids stay unique while cached
        if path is None:
            return found
        # a document that is empty or not a map has no positions: point at its start
        return [
            replace(d, file=path, line=1, column=1) if d.file is None and d.line is None else d
            for d in found
        ]

    def compose(self, base_path: str, overlay_paths: Sequence[str]) -> tuple[Any, list[Diagnostic]]:
        """Composed data (None when it cannot be built) and the diagnostics on the way."""
        from interpreter.compose.overlays import compose

        diags: list[Diagnostic] = []
        docs = []
        for p in [base_path, *overlay_paths]:
            loaded = self.load(p)
            if loaded.doc is None:
                diags.extend(loaded.diagnostics)
                return None, diags
            docs.append(loaded.doc)
        base_errors = [d for d in self.schema(docs[0].data, "ruleset") if d.severity == "error"]
        if base_errors:
            return None, base_errors
        for d in docs[1:]:
            errs = [x for x in self.schema(d.data, "overlay") if x.severity == "error"]
            if errs:
                return None, errs
        if len(docs) == 1:
            return docs[0].data, diags
        try:
            composed = compose(docs[0], docs[1:])
        except RulesError as err:
            return None, [*diags, *err.diagnostics]
        errs = [d for d in self.schema(composed.data, "ruleset") if d.severity == "error"]
        if errs:
            return None, [*diags, *errs]
        return composed.data, diags

    def check_ruleset_file(self, path: str, doc: Any) -> None:
        errs = [d for d in self.schema(doc.data, "ruleset", path) if d.severity == "error"]
        if errs:
            self.emit(errs)
            return
        self.emit(check_ruleset(doc.data))

    def check_overlay_file(self, path: str, doc: Any) -> None:
        errs = [d for d in self.schema(doc.data, "overlay", path) if d.severity == "error"]
        if errs:
            self.emit(errs)
            return
        base, chain, diags = self.chain(path)
        self.emit(diags)
        if base is None:
            return
        data, diags = self.compose(base, chain)
        self.emit(diags)
        if data is not None:
            self.emit(check_ruleset(data))

    def check_config_file(self, path: str, doc: Any) -> None:
        errs = [d for d in self.schema(doc.data, "config", path) if d.severity == "error"]
        if errs:
            self.emit(errs)
            return
        data = doc.data
        if not is_map(data) or "game" not in data:
            return  # a partial config (flags give the rest): nothing to resolve
        game = str(data["game"])
        bases, overlays = self._candidates(path)
        base_path = self._find_game(path, game, bases)
        if base_path is None:
            file, line, col = locate(data, ["game"])
            from interpreter.load import catalog

            self.emit(
                [
                    Diagnostic(
                        "C001",
                        f"unknown game '{game}'",
                        file or path,
                        line,
                        col,
                        "/game",
                        hint=hint_for(game, [*catalog.game_dirs(), *bases]),
                    )
                ]
            )
            return
        base_doc = self.load(base_path).doc
        if base_doc is None:
            self.emit(self.load(base_path).diagnostics)
            return
        chosen = data.get("with") or []
        if isinstance(chosen, str):
            names = [(n.strip(), ["with"]) for n in chosen.split(",") if n.strip()]
        else:
            names = [(str(n), ["with", i]) for i, n in enumerate(chosen)]
        base_id = base_doc.data.get("ruleset") if is_map(base_doc.data) else None
        beside = self._overlays_of(base_path, overlays)
        overlay_paths: list[str] = []
        missing = False
        for name, where in names:
            found = beside.get(name)
            if found is None and name.endswith((".yaml", ".yml")):
                candidate = os.path.join(os.path.dirname(path), name)
                found = candidate if os.path.isfile(candidate) else None
            if found is None:
                missing = True
                file, line, col = locate(data, where)
                self.emit(
                    [
                        Diagnostic(
                            "C002",
                            f"unknown overlay '{name}' for {base_id or game}",
                            file or path,
                            line,
                            col,
                            json_pointer(where),
                            hint=hint_for(name, beside)
                            or f"overlays: {', '.join(sorted(beside)) or 'none'}",
                        )
                    ]
                )
                continue
            overlay_paths.append(found)
        if missing:
            return
        composed, diags = self.compose(base_path, overlay_paths)
        self.emit(diags)
        if composed is None:
            return
        players = data.get("players")
        pl = composed.get("players") or {}
        lo = _int(pl.get("min"), 1)
        hi = _int(pl.get("max"), lo)
        counts: list[int] | None = None
        if isinstance(players, int) and not isinstance(players, bool):
            if not lo <= players <= hi:
                file, line, col = locate(data, ["players"])
                self.emit(
                    [
                        Diagnostic(
                            "C003",
                            f"{base_id or game} is for {lo} to {hi} players, not {players}",
                            file or path,
                            line,
                            col,
                            "/players",
                            expected=f"a number from {lo} to {hi}",
                        )
                    ]
                )
                return
            counts = [players]
        given = data.get("options") or {}
        declared = composed.get("options") or {}
        options = {str(k): (v or {}).get("default") for k, v in declared.items()}
        bad = False
        for name, value in given.items():
            name = str(name)
            if name not in declared:
                bad = True
                file, line, col = locate(data, ["options", name], key=True)
                self.emit(
                    [
                        Diagnostic(
                            "C004",
                            f"unknown option '{name}'",
                            file or path,
                            line,
                            col,
                            json_pointer(["options", name]),
                            hint=hint_for(name, [str(k) for k in declared])
                            or f"options: {', '.join(str(k) for k in declared) or 'none'}",
                        )
                    ]
                )
                continue
            choices = list((declared[name] or {}).get("choices") or [])
            match = [c for c in choices if str(c) == str(value)]
            if choices and not match:
                bad = True
                file, line, col = locate(data, ["options", name])
                shown = ", ".join(str(c) for c in choices)
                self.emit(
                    [
                        Diagnostic(
                            "C005",
                            f"option '{name}' cannot be {_show(value)}",
                            file or path,
                            line,
                            col,
                            json_pointer(["options", name]),
                            expected=f"one of {shown}",
                            hint=hint_for(str(value), [str(c) for c in choices]),
                        )
                    ]
                )
                continue
            options[name] = match[0] if match else value
        if bad:
            return
        self.emit(check_ruleset(composed, counts=counts, options=options, whole=False))

    def _find_game(self, config_path: str, game: str, bases: Mapping[str, str]) -> str | None:
        beside = os.path.join(os.path.dirname(config_path), game)
        for candidate in (beside, game):
            p = Path(candidate)
            if p.is_file():
                return str(p)
            if p.is_dir() and (p / "ruleset.yaml").is_file():
                return str(p / "ruleset.yaml")
        return bases.get(game)

    def _overlays_of(self, base_path: str, overlays: Mapping[str, str]) -> dict[str, str]:
        """Overlay id -> path for overlays that (through their chain) extend this base."""
        out: dict[str, str] = {}
        local_bases: dict[str, str] = {}
        local: dict[str, str] = {}
        for f in sorted(Path(base_path).parent.glob("*.y*ml")):
            self._note(str(f), local_bases, local)
        for ident, p in {**overlays, **local}.items():
            base, _chain, diags = self.chain(p)
            if base is not None and os.path.normpath(base) == os.path.normpath(base_path):
                out[ident] = p
        return out


def _int(value: Any, default: int) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else default


def _show(value: Any) -> str:
    return repr(value) if isinstance(value, str) else str(value)


# --------------------------------------------------------------------- ruleset-level checks


def check_ruleset(
    data: Any,
    *,
    counts: Sequence[int] | None = None,
    options: Mapping[str, Any] | None = None,
    whole: bool = True,
) -> list[Diagnostic]:
    """References and DSL (compiled per player count), then the whole-ruleset checks.

    ``data`` is a schema-valid ruleset tree (a loaded or composed document).  ``counts``
    defaults to every allowed player count (at most :data:`MAX_COUNTS` of them), ``options``
    to the declared defaults.  With ``whole=False`` only compilation runs.
    """
    from interpreter.model.rules import build_rules

    out: list[Diagnostic] = []
    if not is_map(data):
        return out
    pl = data.get("players") or {}
    lo = _int(pl.get("min"), 1)
    hi = max(lo, _int(pl.get("max"), lo))
    if counts is None:
        counts = list(range(lo, hi + 1))
        if len(counts) > MAX_COUNTS:
            step = (hi - lo) / (MAX_COUNTS - 1)
            counts = sorted({lo + round(i * step) for i in range(MAX_COUNTS)})
    declared = data.get("options") or {}
    resolved = {str(k): (v or {}).get("default") for k, v in declared.items() if is_map(v)}
    resolved.update(options or {})
    failed = False
    for n in counts:
        try:
            rules = build_rules(data, n, dict(resolved), for_checking=True)
        except RulesError as err:
            failed = True
            out.extend(err.diagnostics)
        except ConfigError as err:
            failed = True
            out.append(Diagnostic("C005", str(err), *locate(data, ["options"])))
        else:
            out.extend(rules.warnings)
    if whole and not failed:
        # only on a ruleset that compiles: a mistyped call must not also read as "never used"
        out.extend(whole_ruleset_checks(data))
    return out


def _strings(node: Any, path: list[Any], out: list[tuple[tuple[Any, ...], str]]) -> None:
    """Every string scalar (values, not keys) with its path, prose excluded."""
    if is_map(node):
        for k, v in node.items():
            if str(k) in _PROSE_KEYS:
                continue
            _strings(v, [*path, k], out)
    elif is_seq(node):
        for i, v in enumerate(node):
            _strings(v, [*path, i], out)
    elif isinstance(node, str):
        out.append((tuple(path), str(node)))


def _warn(data: Any, code: str, message: str, path: list[Any], hint: str | None = None):
    file, line, col = locate(data, path, key=True)
    return Diagnostic(
        code, message, file, line, col, json_pointer(path), hint=hint, severity="warning"
    )


def _error(data: Any, code: str, message: str, path: list[Any], hint: str | None = None):
    file, line, col = locate(data, path)
    return Diagnostic(code, message, file, line, col, json_pointer(path), hint=hint)


def _section(data: Any, name: str) -> Mapping[str, Any]:
    value = data.get(name)
    return value if is_map(value) else {}


def whole_ruleset_checks(data: Any) -> list[Diagnostic]:
    """Checks over the whole (composed) ruleset that need no game to be played.

    * W002 a function or procedure no rule text calls;
    * W003 a set, table or catalog nothing names (a set or catalog counts as used when one of
      its members is named: declaring member ids is a use);
    * W004 an option no rule reads (``option.NAME``);
    * (W002-W004 skip the names listed in ``extension-points``: kept for overlays to use;
      R006 a listed name that is defined nowhere);
    * W005 a catalog entry's hook on a declared event that no rule emits (it can never run);
    * R004 a table lists an entry more often than its catalog has ``copies`` of it;
    * R005 a catalog attribute whose values are ids of one kind (phases, a set's members or a
      catalog's entries) names an id of no such kind (did you mean ...).

    Uses are found by the names in rule texts (every string value outside prose keys
    ``doc``/``title``/``description``/``label``), not by running anything.
    """
    out: list[Diagnostic] = []
    strings: list[tuple[tuple[Any, ...], str]] = []
    _strings(data, [], strings)
    tokens: dict[str, set[tuple[Any, ...]]] = {}
    for path, text in strings:
        for name in _NAME.findall(text):
            tokens.setdefault(name, set()).add(path)
    emitted = {m for _, text in strings for m in _EMIT.findall(text)}
    read_options = {m for _, text in strings for m in _OPTION.findall(text)}

    exported, export_diags = _extension_points(data)
    out.extend(export_diags)

    def used_outside(name: str, prefix: tuple[Any, ...]) -> bool:
        if name in exported:
            return True  # there for overlays to use
        return any(p[: len(prefix)] != prefix for p in tokens.get(name, ()))

    for section, what in (("functions", "function"), ("procedures", "procedure")):
        for name in _section(data, section):
            if not used_outside(str(name), (section, name)):
                out.append(_warn(data, "W002", f"{what} '{name}' is never called", [section, name]))
    sets = _section(data, "sets")
    for name, members in sets.items():
        names = [str(name), *(str(m) for m in members or [] if isinstance(m, str))]
        if not any(used_outside(n, ("sets", name)) for n in names):
            out.append(_warn(data, "W003", f"set '{name}' is never used", ["sets", name]))
    for name in _section(data, "tables"):
        if not used_outside(str(name), ("tables", name)):
            out.append(_warn(data, "W003", f"table '{name}' is never used", ["tables", name]))
    catalogs = _section(data, "catalogs")
    for name, cat in catalogs.items():
        entries = _section(cat, "entries") if is_map(cat) else {}
        names = [str(name), *(str(e) for e in entries)]
        if not any(used_outside(n, ("catalogs", name)) for n in names):
            out.append(_warn(data, "W003", f"catalog '{name}' is never used", ["catalogs", name]))
    for name in _section(data, "options"):
        if str(name) not in read_options and str(name) not in exported:
            out.append(
                _warn(
                    data,
                    "W004",
                    f"option '{name}' is never read (no rule says option.{name})",
                    ["options", name],
                )
            )
    events = _section(data, "events")
    for cname, cat in catalogs.items():
        if not is_map(cat):
            continue
        for eid, entry in _section(cat, "entries").items():
            hooks = entry.get("on") if is_map(entry) else None
            if not is_map(hooks):
                continue
            for event in hooks:
                if str(event) in events and str(event) not in emitted:
                    out.append(
                        _warn(
                            data,
                            "W005",
                            f"hook on event '{event}' can never run: no rule emits it",
                            ["catalogs", cname, "entries", eid, "on", event],
                        )
                    )
    out.extend(_copies_check(data, catalogs))
    out.extend(_attribute_ids_check(data, catalogs))
    return out


_DEFINING = ("functions", "procedures", "tables", "sets", "catalogs", "options")


def _extension_points(data: Any) -> tuple[set[str], list[Diagnostic]]:
    """The names a ruleset keeps for its overlays (``extension-points``), and R006 for each
    that names no definition."""
    listed = data.get("extension-points")
    if not is_seq(listed):
        return set(), []
    defined = {str(n) for section in _DEFINING for n in _section(data, section)}
    out = []
    for i, name in enumerate(listed):
        if str(name) not in defined:
            out.append(
                _error(
                    data,
                    "R006",
                    f"extension point '{name}' names no function, procedure, table, set, "
                    "catalog or option of this ruleset",
                    ["extension-points", i],
                    hint_for(str(name), sorted(defined)),
                )
            )
    return {str(n) for n in listed}, out


def _entry_attr(cat: Mapping[str, Any], entry: Any, attr: str) -> Any:
    if is_map(entry) and attr in entry:
        return entry[attr]
    defaults = cat.get("defaults")
    return defaults.get(attr) if is_map(defaults) else None


def _copies_check(data: Any, catalogs: Mapping[str, Any]) -> list[Diagnostic]:
    """R004: a list in a table naming an entry more often than the entry's ``copies``."""
    copies: dict[str, tuple[str, int]] = {}
    for cname, cat in catalogs.items():
        if not is_map(cat):
            continue
        for eid, entry in _section(cat, "entries").items():
            n = _entry_attr(cat, entry, "copies")
            if isinstance(n, int) and not isinstance(n, bool):
                copies[str(eid)] = (str(cname), n)
    out: list[Diagnostic] = []
    if not copies:
        return out

    def walk(node: Any, path: list[Any]) -> None:
        if is_map(node):
            for k, v in node.items():
                walk(v, [*path, k])
        elif is_seq(node):
            seen: dict[str, int] = {}
            for i, item in enumerate(node):
                if isinstance(item, str) and item in copies:
                    seen[item] = seen.get(item, 0) + 1
                    cname, n = copies[item]
                    if seen[item] == n + 1:
                        out.append(
                            _error(
                                data,
                                "R004",
                                f"'{item}' is listed more than {n} time"
                                f"{'s' if n != 1 else ''}, but catalog '{cname}' has "
                                f"only {n} {'copy' if n == 1 else 'copies'} of it",
                                [*path, i],
                            )
                        )
                else:
                    walk(item, [*path, i])

    for name, table in _section(data, "tables").items():
        walk(table, ["tables", name])
    return out


def _attribute_ids_check(data: Any, catalogs: Mapping[str, Any]) -> list[Diagnostic]:
    """R005: an attribute whose values are ids of one kind names an unknown id."""
    domains: list[tuple[str, set[str], str]] = []  # (kind word, ids, label for hints)
    phases = {str(p) for p in _section(data, "phases")}
    if phases:
        domains.append(("phase", phases, "phase"))
    for sname, members in _section(data, "sets").items():
        if is_seq(members):
            domains.append((f"member of set '{sname}'", {str(m) for m in members}, ""))
    for cname, cat in catalogs.items():
        if is_map(cat):
            ids = {str(e) for e in _section(cat, "entries")}
            domains.append((f"entry of catalog '{cname}'", ids, ""))
    out: list[Diagnostic] = []
    for cname, cat in catalogs.items():
        if not is_map(cat):
            continue
        entries = _section(cat, "entries")
        defaults = _section(cat, "defaults")
        attrs = {str(a) for e in entries.values() if is_map(e) for a in e} | set(defaults)
        for attr in sorted(attrs - {"on", "grants", "doc", "copies"}):
            values: list[tuple[str, str]] = []
            for eid, entry in entries.items():
                if is_map(entry) and attr in entry:
                    v = entry[attr]
                    if isinstance(v, str) and v != NONE_WORD:
                        values.append((str(eid), v))
            if not values or any(not _NAME.fullmatch(v) for _, v in values):
                continue
            default = defaults.get(attr)
            best = None
            if isinstance(default, str) and default != NONE_WORD:
                best = next((d for d in domains if default in d[1]), None)
                if best is None:
                    continue
            else:
                scored = [(sum(v in d[1] for _, v in values), i) for i, d in enumerate(domains)]
                scored = [s for s in scored if s[0] >= 2]
                if not scored:
                    continue
                best = domains[max(scored)[1]]
            word, ids, _ = best
            for eid, v in values:
                if v not in ids:
                    msg = (
                        f"unknown phase '{v}'"
                        if word == "phase"
                        else f"'{v}' is not a {word} (as the other values of '{attr}' are)"
                    )
                    out.append(
                        _error(
                            data,
                            "R005" if word != "phase" else "R001",
                            msg,
                            ["catalogs", cname, "entries", eid, attr],
                            hint_for(v, ids),
                        )
                    )
    return out


# ----------------------------------------------------------------------------------- entry


def validate(paths: Iterable[str | os.PathLike[str]], *, jobs: int | None = None) -> Report:
    """Check every rule file named or found below ``paths``; never raises for bad content.

    ``jobs`` is how many processes may share the checking (default: ``RULEBOOK_JOBS``, else
    every core); small runs stay in this process, where a fork would cost more than it saves.
    Raises :class:`PathError` only when a path does not exist or cannot be listed.
    """
    files = discover(paths)
    run = _Run()
    kinds: dict[str, str] = {}
    heads: dict[str, str] = {}
    for path in files:
        try:
            with open(path, "rb") as fh:
                head = fh.read(1 << 16).decode("utf-8-sig", "replace")
        except OSError:
            kinds[path] = "ruleset"  # the load stage reports why it cannot be read
            continue
        kinds[path] = classify(head)
        heads[path] = head
    for path in files:
        if kinds[path] in ("ruleset", "overlay"):
            # parsing is left to the workers where the text states the id plainly
            ident = run._id_of(path, kinds[path], heads.get(path))
            if ident:
                (run.bases if kinds[path] == "ruleset" else run.overlays).setdefault(ident, path)
    checked = [CheckedFile(path, kinds[path]) for path in files]
    todo = [path for path in files if kinds[path] != "skipped"]
    lists = _work_lists(todo, kinds, jobs)
    # every file given is parsed above, before any fork: the workers inherit the parses
    for out, done, sources in forked.run_all(lambda part: _check_part(run, part, kinds), lists):
        run.out.extend(out)
        run.checked_files |= done
        for f, text in sources.items():
            run.sources.setdefault(f, text)
    keep = [
        d
        for d in run.out
        if not (d.severity == "warning" and d.file and _real(d.file) not in run.checked_files)
    ]
    return Report(diagnostics=_dedupe(keep), files=checked, sources=run.sources)


def _plain_id(head: str, kind: str) -> str | None:
    """A ruleset's or overlay's id when its file states it once, as a plain word at the top
    level (``ruleset: my-game``); None when only parsing can tell.

    >>> _plain_id("# x\\nruleset: my-game  # the base\\nplayers: {}\\n", "ruleset")
    'my-game'
    >>> _plain_id("overlay: a\\noverlay: b\\n", "overlay") is None
    True
    """
    found = _ID_LINE[kind].findall(head)
    return found[0] if len(found) == 1 else None


_ID_LINE = {
    kind: re.compile(rf"^{kind}:[ \t]*([A-Za-z0-9_][A-Za-z0-9_.-]*)[ \t]*(?:#.*)?$", re.MULTILINE)
    for kind in ("ruleset", "overlay")
}

_PARALLEL_FROM = 48_000  # bytes of rule text (bases counted again for their overlays)


def _work_lists(todo: list[str], kinds: Mapping[str, str], jobs: int | None) -> list[list[str]]:
    """The files to check, split into lists of similar cost for the workers (or one list)."""
    want = jobs or _env_jobs() or forked.available_cores()
    size = {path: _size(path) for path in todo}
    base_size: dict[str, int] = {}
    for path in todo:
        if kinds[path] == "ruleset":
            folder = os.path.dirname(os.path.realpath(path))
            base_size[folder] = max(base_size.get(folder, 0), size[path])
    costs = [
        (p, size[p] + (0 if kinds[p] == "ruleset" else base_size.get(_folder(p), 0))) for p in todo
    ]
    if want < 2 or len(todo) < 2 or sum(c for _, c in costs) < _PARALLEL_FROM:
        return [todo] if todo else []
    # a folder's files share their base's parsed texts: they stay together unless one folder
    # is all there is
    groups: dict[str, list[str]] = {}
    for p in todo:
        groups.setdefault(_folder(p), []).append(p)
    if len(groups) == 1:
        return forked.balance(costs, want)
    cost = dict(costs)
    folders = [(f, sum(cost[p] for p in ps)) for f, ps in groups.items()]
    lists = forked.balance(folders, want)
    return [sorted((p for f in lst for p in groups[f]), key=todo.index) for lst in lists]


def _env_jobs() -> int:
    """``RULEBOOK_JOBS`` as a whole number; anything else means "not set"."""
    text = os.environ.get("RULEBOOK_JOBS", "").strip()
    return int(text) if text.isdigit() else 0


def _folder(path: str) -> str:
    return os.path.dirname(os.path.realpath(path))


def _real(path: str) -> str:
    return os.path.realpath(path)


def _size(path: str) -> int:
    try:
        return os.path.getsize(path)
    except OSError:
        return 0


def _check_part(
    run: _Run, part: list[str], kinds: Mapping[str, str]
) -> tuple[list[Diagnostic], set[str], dict[str, str]]:
    """Check one work list; what it found, the files it checked and their texts."""
    start = len(run.out)
    _check_all(run, part, kinds)
    out = run.out[start:]
    sources: dict[str, str] = {}
    for f in {d.file for d in out if d.file}:
        if f in run.sources:
            sources[f] = run.sources[f]
            continue
        loaded = run.loaded.get(_real(f))
        if loaded is not None and loaded.doc is not None:
            sources[f] = loaded.doc.text
    return out, {_real(p) for p in part}, sources


def _check_all(run: _Run, files: list[str], kinds: Mapping[str, str]) -> None:
    for path in files:
        kind = kinds[path]
        if kind == "skipped":
            continue
        run.checked_files.add(_real(path))
        loaded = run.load(path)
        if loaded.doc is None:
            run.emit(loaded.diagnostics)
            continue
        try:
            if kind == "ruleset":
                run.check_ruleset_file(path, loaded.doc)
            elif kind == "overlay":
                run.check_overlay_file(path, loaded.doc)
            else:
                run.check_config_file(path, loaded.doc)
        except RecursionError:
            run.emit([Diagnostic("Y006", "nesting too deep to check", file=path)])
        except Exception as err:  # a bug in a checker must not hide the other files' results
            run.emit(
                [
                    Diagnostic(
                        "V999",
                        f"internal error while checking this file ({type(err).__name__}: "
                        f"{' '.join(str(err).split())[:200]}); please report it",
                        file=path,
                    )
                ]
            )


def _dedupe(diags: Iterable[Diagnostic]) -> list[Diagnostic]:
    """Sorted; the same fault at the same place reported once (e.g. for every player count)."""
    seen: set[tuple[Any, ...]] = set()
    out: list[Diagnostic] = []
    for d in sorted(diags, key=Diagnostic.sort_key):
        key = (d.file, d.line, d.column, d.code, d.message, d.severity)
        if key in seen:
            continue
        seen.add(key)
        out.append(d)
    return out
