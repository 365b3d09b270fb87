"""Fresh-machine truth: the README's two commands are what CI runs, and the `test` extra
installs every third-party package that the tests (and the code they exercise) import."""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[2]
LOCAL = {"interpreter", "tests", "conftest", "helpers", "fake_game", "bots", "golden_games"}
LOCAL |= {"docblocks"}  # tests/docs/docblocks.py, imported by name beside it
# a benchmark script imports its neighbours by name (python benchmarks/X.py puts them on the path)
LOCAL |= {path.stem for path in (ROOT / "benchmarks").glob("*.py")}


def _imported_top_level_modules() -> set[str]:
    names: set[str] = set()
    for folder in ("tests", "interpreter", "rulesets", "benchmarks"):
        for path in (ROOT / folder).rglob("*.py"):
            tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
            for node in ast.walk(tree):
                if isinstance(node, ast.Import):
                    names.update(a.name.split(".")[0] for a in node.names)
                elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    names.add(node.module.split(".")[0])
    return {n for n in names if n not in sys.stdlib_module_names and n not in LOCAL}


def _canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _closure_of_test_extra() -> set[str]:
    """Every distribution `pip install -e '.[test]'` brings in: the project's dependencies, the
    `test` extra, the project's own extras it names, and what those require in turn."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    extras = project["optional-dependencies"]
    todo = [Requirement(r) for r in project["dependencies"]]
    wanted_extras, seen_extras = ["test"], set()
    while wanted_extras:
        extra = wanted_extras.pop()
        if extra in seen_extras:
            continue
        seen_extras.add(extra)
        for text in extras[extra]:
            req = Requirement(text)
            if _canonical(req.name) == _canonical(project["name"]):
                wanted_extras.extend(req.extras)
            else:
                todo.append(req)
    out: set[str] = set()
    while todo:
        req = todo.pop()
        name = _canonical(req.name)
        if name in out:
            continue
        out.add(name)
        try:
            requires = metadata.requires(req.name) or []
        except metadata.PackageNotFoundError:
            continue
        for text in requires:
            sub = Requirement(text)
            if sub.marker is None or sub.marker.evaluate({"extra": ""}):
                todo.append(sub)
    return out


def test_the_test_extra_installs_every_package_the_tests_import():
    providers = metadata.packages_distributions()
    closure = _closure_of_test_extra()
    missing = {}
    for module in sorted(_imported_top_level_modules()):
        dists = {_canonical(d) for d in providers.get(module, [])}
        if not dists:
            missing[module] = "not installed here either"
        elif not dists & closure:
            missing[module] = f"from {', '.join(sorted(dists))}"
    assert not missing, f"imported by the tests or the code but not in .[test]: {missing}"


def _readme_commands() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    first_screen = text.split("\n---", 1)[0]
    blocks = re.findall(r"```\n(.*?)```", first_screen, flags=re.S)
    return [line.strip() for block in blocks for line in block.splitlines() if line.strip()]


def test_ci_runs_exactly_the_readme_commands():
    commands = _readme_commands()
    assert any(c.startswith("pip install -e . &&") and "rulebook play" in c for c in commands)
    assert "pip install -e '.[test]' && pytest" in commands
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    ci_commands = [line.strip() for line in ci.splitlines()]
    for command in commands:
        assert command in ci_commands, f".ci/run does not run the README's `{command}`"
    installs = [c for c in ci_commands if re.match(r"(python -m )?pip install", c)]
    extra = [c for c in installs if c not in commands and "--upgrade pip" not in c]
    assert not extra, f".ci/run installs what the README does not tell a user to: {extra}"
    # system packages too: an apt-get line in .ci/run is one the README shows a user
    system = [c for c in ci_commands if re.search(r"\bapt(-get)? install", c)]
    extra_system = [c for c in system if c not in commands]
    assert not extra_system, f".ci/run installs system packages the README does not: {extra_system}"
