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
    {"scenario", "simulate", "agents"},
    {"learn"},
    {"serve"},
    {"cli"},
]
LAYER_OF = {name: i for i, layer in enumerate(LAYERS) for name in layer}
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


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(module: str, path: Path, known: set[str]) -> set[str]:
    """The interpreter modules ``module`` imports at run time (anywhere in the file, not under
    ``if TYPE_CHECKING:``), each as the longest known module name it names."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()

    def add(name: str) -> None:
        while name and name not in known:
            name = name.rpartition(".")[0]
        if name and name != module:
            found.add(name)

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            for alias in node.names:
                add(alias.name)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.split(".")[0] == "interpreter":
                for alias in node.names:
                    full = f"{target}.{alias.name}"
                    add(full if full in known else target)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    known = set(modules)
    return {m: _imports(m, p, known) for m, p in modules.items()}


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


def test_no_module_is_too_long():
    long = {
        str(p.relative_to(ROOT)): n
        for p in PACKAGE.rglob("*.py")
        if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert not long, f"split these along their seams: {long}"


def test_no_two_modules_import_each_other():
    graph = _graph()
    cycles = _cycles(graph)
    assert not cycles, f"import cycles between files: {cycles}"


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


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
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
