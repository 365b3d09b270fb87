"""Finding scenario files below the paths given, and loading them: the files that cannot be
loaded become outcomes of their own (an error with the file's position)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

from interpreter.diagnostics.errors import RulesError
from interpreter.scenario.format import Scenario, Where, load_scenarios
from interpreter.scenario.outcome import Outcome

__all__ = ["collect", "discover"]


def discover(paths: Sequence[str | Path]) -> list[Path]:
    """Scenario files: each file given, and every scenario file below each folder given (the
    rule files of a game folder beside its scenarios, and files left out by a
    ``.rulebookignore`` or ``# rulebook: ignore``, are not taken: see docs/validate.md)."""
    from interpreter.load.discovery import classify, discover as yaml_files, read_head

    files: list[Path] = []
    for p in paths:
        path = Path(p)
        if path.is_dir():
            found = [Path(f) for f in yaml_files([path])]
            files.extend(f for f in found if classify(read_head(str(f)) or "") == "scenario")
        elif path.exists():
            files.append(path)
        else:
            raise FileNotFoundError(2, "No such file or directory", str(path))
    return files


def collect(files: Iterable[Path]) -> tuple[list[Scenario], list[Outcome]]:
    """Load every file: (scenarios, outcomes of files that could not be loaded)."""
    scenarios: list[Scenario] = []
    broken: list[Outcome] = []
    for f in files:
        try:
            scenarios.extend(load_scenarios(f))
        except RulesError as e:
            d = e.diagnostics[0] if e.diagnostics else None
            where = Where(d.file or str(f), d.line, d.column) if d else Where(str(f))
            broken.append(Outcome(None, "error", str(e), where, file=str(f)))
    return scenarios, broken
