"""The house shows its layers (docs/architecture.md): one folder per stage, each importing
only from the stages below it; no loose modules, no long ones, no import cycles and no copied
or mirrored code in interpreter/ or tests/."""

from __future__ import annotations

import ast
import io
import keyword
import re
import tokenize
from collections import defaultdict
from collections.abc import Collection, Mapping
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "interpreter"

# Bottom to top; a package may import from its own layer and the layers below it.
LAYERS: list[set[str]] = [
    {"diagnostics"},
    {"load"},
    {"compose"},
    {"ruleset"},
    {"dsl"},
    {"infoset"},
    {"model"},
    {"engine"},
    {"coverage"},
    {"check"},
    {"bots"},
    {"table"},
    {"scenario", "simulate", "agents"},
    {"learn"},
    {"serve"},
    {"cli"},
]
LAYER_OF = {name: i for i, layer in enumerate(LAYERS) for name in layer}
# dsl/'s own packages, bottom to top, the same way: an effect text is parsed, then resolved
# (names, types) into the tree that is emitted as Python; runtime/ is what that Python calls.
# The modules at dsl/ itself (the compiler, the front door) sit on top of all four.
DSL_LAYERS = ["parse", "runtime", "resolve", "emit"]
MAX_LINES = 600
MIN_SHARED_RUN = 10


def _modules() -> dict[str, Path]:
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


# Where an import statement may be: a line that starts with ``import`` or ``from ... import``
# (its parenthesised names may run over lines). Each one found is parsed by ``ast``; parsing
# only these, not whole files, keeps the graph of the package well under a second.
_IMPORT = re.compile(
    r"^[ \t]*(?:from[ \t]+[.\w]+[ \t]+import[ \t]+(?:\([^)]*\)|[^\n]*)|import[ \t]+[^\n]*)",
    re.MULTILINE,
)
_TRIPLE_QUOTED = re.compile(r'(?s)""".*?"""|\'\'\'.*?\'\'\'')


def _imports(module: str, path: Path, known: set[str]) -> set[str]:
    """The interpreter modules ``module`` imports: anywhere in the file, at run time, inside a
    function or under ``if TYPE_CHECKING:`` alike (a type named from a module is a dependency
    on it too), each as the longest known module name it names."""
    text = path.read_text(encoding="utf-8")
    quoted = [m.span() for m in _TRIPLE_QUOTED.finditer(text)]  # docstrings: not code
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()

    def add(name: str) -> None:
        while name and name not in known:
            name = name.rpartition(".")[0]
        if name and name != module:
            found.add(name)

    for match in _IMPORT.finditer(text):
        if any(a <= match.start() < b for a, b in quoted):
            continue
        statement = ast.parse(match.group(0).strip(), str(path)).body[0]
        if isinstance(statement, ast.Import):
            for alias in statement.names:
                add(alias.name)
        elif isinstance(statement, ast.ImportFrom):
            if statement.level:
                base = package.split(".")
                base = base[: len(base) - (statement.level - 1)]
                target = ".".join(base + ([statement.module] if statement.module else []))
            else:
                target = statement.module or ""
            if target.split(".")[0] == "interpreter":
                for alias in statement.names:
                    full = f"{target}.{alias.name}"
                    add(full if full in known else target)
    return found


@cache
def _graph() -> dict[str, frozenset[str]]:
    """Each module of interpreter/ -> the interpreter modules it imports (every kind)."""
    modules = _modules()
    known = set(modules)
    return {m: frozenset(_imports(m, p, known)) for m, p in modules.items()}


def _subpackage(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else None


def test_no_module_sits_loose_at_the_top_of_the_package():
    loose = [p.name for p in PACKAGE.glob("*.py") if p.name not in ("__init__.py", "__main__.py")]
    assert not loose, f"each module belongs to a stage's folder: {loose}"


def test_every_subpackage_is_a_known_stage():
    folders = {p.name for p in PACKAGE.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    unknown = folders - set(LAYER_OF)
    assert not unknown, (
        f"a new folder needs its place in LAYERS and docs/architecture.md: {unknown}"
    )


def test_no_two_modules_share_a_name():
    """A module's name says its job, so two jobs never share one (``check/report.py`` beside
    ``simulate/report.py`` sends a reader to the wrong file); a package's ``__init__.py`` and
    ``__main__.py`` are the exceptions."""
    by_name: dict[str, list[str]] = defaultdict(list)
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.name not in ("__init__.py", "__main__.py"):
            by_name[path.name].append(path.relative_to(PACKAGE).as_posix())
    reused = {name: paths for name, paths in by_name.items() if len(paths) > 1}
    assert not reused, f"module names used for more than one job (name each for its own): {reused}"


def test_no_module_is_too_long():
    long = {
        str(p.relative_to(ROOT)): n
        for p in PACKAGE.rglob("*.py")
        if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert not long, f"split these along their seams: {long}"


def test_no_modules_import_each_other_in_a_circle():
    """No cycle of any length, whether closed by a run-time import or one under ``if
    TYPE_CHECKING:`` (name the other side's shape as a Protocol instead: engine/frame.py)."""
    cycles = _cycles(_graph())
    assert not cycles, f"import cycles between files: {cycles}"


def test_the_import_graph_sees_every_kind_of_import(tmp_path):
    """The graph counts an import inside a function and one under ``if TYPE_CHECKING:``, and
    not an import written in a docstring: a cycle closed by either kind fails above."""
    (tmp_path / "a.py").write_text(
        '''"""Use it so:\n\n    from interpreter.engine.state import State\n"""\n'''
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n"
        "    from interpreter.engine.frame import (\n        Frame,\n    )\n"
        "def f():\n    import interpreter.model.rules\n"
        "    from . import sibling\n",
        encoding="utf-8",
    )
    known = {
        "interpreter.engine.state",
        "interpreter.engine.frame",
        "interpreter.model.rules",
        "interpreter.engine.sibling",
    }
    found = _imports("interpreter.engine.a", tmp_path / "a.py", known)
    assert found == {
        "interpreter.engine.frame",
        "interpreter.model.rules",
        "interpreter.engine.sibling",
    }


def test_no_two_subpackages_import_each_other():
    graph: dict[str, set[str]] = defaultdict(set)
    for module, targets in _graph().items():
        src = _subpackage(module)
        for target in targets:
            dst = _subpackage(target)
            if src and dst and src != dst:
                graph[src].add(dst)
    cycles = _cycles(graph)
    assert not cycles, f"import cycles between subpackages: {cycles}"


def test_each_stage_imports_only_from_the_stages_below_it():
    wrong = []
    for module, targets in _graph().items():
        src = _subpackage(module)
        for target in targets:
            dst = _subpackage(target)
            if src and dst and LAYER_OF[dst] > LAYER_OF[src]:
                wrong.append(f"{module} -> {target}")
    assert not wrong, "a lower stage imports a higher one:\n" + "\n".join(wrong)


def _dsl_rank(module: str) -> int | None:
    """Where a module of dsl/ stands in DSL_LAYERS (a module at dsl/ itself: above them all);
    None outside dsl/."""
    parts = module.split(".")
    if parts[:2] != ["interpreter", "dsl"]:
        return None
    is_package = (PACKAGE / "/".join(parts[1:]) / "__init__.py").exists()
    if len(parts) == 2 or (len(parts) == 3 and not is_package):
        return len(DSL_LAYERS)
    return DSL_LAYERS.index(parts[2])


def test_every_dsl_package_has_its_place():
    folders = {p.name for p in (PACKAGE / "dsl").iterdir() if (p / "__init__.py").exists()}
    assert folders == set(DSL_LAYERS), (
        f"dsl/'s packages and DSL_LAYERS differ: {sorted(folders ^ set(DSL_LAYERS))}"
    )


def test_dsl_reads_parse_then_resolve_then_emit():
    """Inside dsl/, a package imports only from the packages below it in DSL_LAYERS."""
    wrong = sorted(
        f"{module} -> {target}"
        for module, targets in _graph().items()
        if (rank := _dsl_rank(module)) is not None
        for target in targets
        if (other := _dsl_rank(target)) is not None and other > rank
    )
    assert not wrong, "a lower dsl/ package imports a higher one:\n" + "\n".join(wrong)


def _cycles(graph: Mapping[str, Collection[str]]) -> list[list[str]]:
    """Strongly connected components with more than one member (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []

    def connect(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for v in list(graph):
        if v not in index:
            connect(v)
    return out


# -- copied or mirrored code --------------------------------------------------------------------

# Python 3.12 tokenizes f-strings in parts; 3.11 gives one STRING token
_FSTRING_START = getattr(tokenize, "FSTRING_START", -1)
_FSTRING_REST = {getattr(tokenize, n, -1) for n in ("FSTRING_MIDDLE", "FSTRING_END")}
# A line of punctuation, or of one literal or keyword argument in a call or table
# (``"--all",`` ``help="...",`` ``0: 3,``), is data, not logic: it does not count.
_THIN = re.compile(r"^[\s()\[\]{}:,.]*$|^(N =|N :|S :|0 :)? ?[NS0-]+ ?[,)\]}]*$")


def _shape_lines(path: Path) -> list[tuple[int, str]]:
    """(line number, shape) of each line that counts: names, strings and numbers are replaced
    by placeholders, so two runs with the same shape but other names compare equal. Blank
    lines, comments, docstrings, lone punctuation and imports do not count."""
    text = path.read_text(encoding="utf-8")
    shapes: dict[int, list[str]] = defaultdict(list)
    prev = None
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        kind, value, (line, _), _, _ = tok
        if kind == tokenize.STRING and prev in (None, tokenize.INDENT, tokenize.NEWLINE):
            prev = kind
            continue  # a docstring or a bare string statement
        if kind in (tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT):
            prev = kind if kind != tokenize.NL else prev
            continue
        if kind == tokenize.DEDENT:
            continue
        prev = kind
        if kind == tokenize.NAME and not keyword.iskeyword(value):
            shapes[line].append("N")
        elif kind == tokenize.STRING or kind == _FSTRING_START:
            shapes[line].append("S")
        elif kind in _FSTRING_REST:
            continue
        elif kind == tokenize.NUMBER:
            shapes[line].append("0")
        else:
            shapes[line].append(value)
    out = []
    for line in sorted(shapes):
        shape = " ".join(shapes[line])
        if _THIN.match(shape) or shape.startswith(("import ", "from ")):
            continue
        out.append((line, shape))
    return out


def _shared_runs(folder: Path) -> list[str]:
    files = sorted(folder.rglob("*.py"))
    seen: dict[tuple[str, ...], tuple[Path, int, int]] = {}
    found: dict[tuple[Path, Path], str] = {}
    for path in files:
        lines = _shape_lines(path)
        taken_until = -1
        for i in range(len(lines) - MIN_SHARED_RUN + 1):
            window = tuple(shape for _, shape in lines[i : i + MIN_SHARED_RUN])
            if len(set(window)) <= 2:
                continue  # a table of like rows is data, not logic
            first = seen.get(window)
            here = (path, lines[i][0], lines[i + MIN_SHARED_RUN - 1][0])
            if first is None:
                seen[window] = here
                continue
            if first[0] == path and first[2] >= here[1]:
                continue  # overlaps itself
            if i <= taken_until:
                continue
            key = (first[0], path)
            if key not in found:
                found[key] = (
                    f"{first[0].relative_to(ROOT)}:{first[1]}-{first[2]} ~ "
                    f"{path.relative_to(ROOT)}:{here[1]}-{here[2]}"
                )
            taken_until = i + MIN_SHARED_RUN - 1
    return sorted(found.values())


@pytest.mark.parametrize("folder", ["interpreter", "tests"])
def test_no_copied_or_mirrored_runs(folder):
    shared = _shared_runs(ROOT / folder)
    assert not shared, (
        f"runs of {MIN_SHARED_RUN}+ lines with the same shape (give them one home):\n"
        + "\n".join(shared)
    )


def test_no_driver_imports_another_one():
    """The terminal and the web table share what both show through ``table/``; neither
    imports the other (the ``rulebook serve`` command itself excepted: it starts the server)."""
    starts_the_server = {"interpreter.cli.serve_cmd"}
    wrong = sorted(
        f"{module} -> {target}"
        for module, targets in _graph().items()
        if _subpackage(module) == "cli" and module not in starts_the_server
        for target in targets
        if _subpackage(target) == "serve"
    ) + sorted(
        f"{module} -> {target}"
        for module, targets in _graph().items()
        if _subpackage(module) == "serve"
        for target in targets
        if _subpackage(target) == "cli"
    )
    assert not wrong, "a driver imports another driver (share it through table/):\n" + "\n".join(
        wrong
    )


# drivers that run no check of `rulebook validate`: what they share with it (finding rule files,
# a scenario's expressions compiled) lives in the stages below both, never in check/
RUN_NO_CHECKS = ("scenario", "simulate", "table", "bots", "agents", "learn")


def test_the_drivers_that_run_no_checks_import_nothing_from_check():
    wrong = sorted(
        f"{module} -> {target}"
        for module, targets in _graph().items()
        if _subpackage(module) in RUN_NO_CHECKS
        for target in targets
        if _subpackage(target) == "check"
    )
    assert not wrong, (
        "import it from the stage below both drivers (load/, ruleset/, model/):\n"
        + "\n".join(wrong)
    )
