"""``rulebook validate DIR`` checks the house rules of a folder together, as ``play --with a,b``
would load them: each pair of overlays of one game in the folder, and each overlay with the
shipped expansions of its game. A stack that does not load is *refused*: a warning (the
overlays are each valid; they only do not go together), at the line of each file it names, so
``--strict`` fails on it, as ``--smoke`` says of the stacks it plays."""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers.validate_runs import WINDROSE, validate_cli

ROOT = Path(__file__).resolve().parents[2]
PUERTO_RICO = ROOT / "rulesets" / "puerto-rico"

# Two house rules of Puerto Rico, each valid alone, that change the same table.
FEWER_CHIPS = """\
overlay: fewer-chips
extends: puerto-rico
title: Fewer victory point chips
patch:
  tables/vp-chips-start: {3: 50}
"""

EVEN_CHIPS = """\
overlay: even-chips
extends: puerto-rico
title: The same chips at every count
replace:
  tables/vp-chips-start: {2: 60, 3: 60, 4: 60}
"""


def _folder(tmp_path: Path, **files: str) -> Path:
    folder = tmp_path / "house-rules"
    folder.mkdir()
    for name, text in files.items():
        (folder / f"{name}.yaml").write_text(text, encoding="utf-8")
    return folder


def test_two_house_rules_of_a_folder_that_conflict_fail_strict(tmp_path: Path) -> None:
    folder = _folder(tmp_path, **{"fewer-chips": FEWER_CHIPS, "even-chips": EVEN_CHIPS})
    run = validate_cli("--strict", str(folder), jobs=1)
    assert run.returncode == 1, run.stdout + run.stderr
    even, fewer = folder / "even-chips.yaml", folder / "fewer-chips.yaml"
    stack = "puerto-rico + even-chips + fewer-chips"
    out = run.stdout
    # at the line of each file, naming the other
    assert f"{fewer}:5:3: warning[O008]: stack {stack} refused: conflicting overlays:" in out, out
    assert f"{even}:5:3: warning[O008]: stack {stack} refused: clashes with {fewer}:5:3" in out
    # without --strict the run passes: each house rule is valid, only the pair is refused
    assert validate_cli(str(folder), jobs=1).returncode == 0
    # a file named alone (a pre-commit hook, an upload) is not paired with what lies beside it
    assert validate_cli("--strict", str(fewer), jobs=1).returncode == 0


def test_a_house_rule_that_cannot_join_an_expansion_fails_strict(tmp_path: Path) -> None:
    folder = _folder(tmp_path, windrose=WINDROSE)
    run = validate_cli("--strict", str(folder), jobs=1)
    assert run.returncode == 1, run.stdout + run.stderr
    house = folder / "windrose.yaml"
    for stack in (
        "puerto-rico + nobles + windrose",
        "puerto-rico + new-buildings + nobles + windrose",
    ):
        assert f"{house}:5:3: warning[O008]: stack {stack} refused: conflicting overlays:" in (
            run.stdout
        ), run.stdout
    assert "stack puerto-rico + new-buildings + windrose refused" not in run.stdout


def test_house_rules_that_go_together_pass_strict(tmp_path: Path) -> None:
    other = FEWER_CHIPS.replace("fewer-chips", "more-doubloons").replace(
        "tables/vp-chips-start: {3: 50}", "tables/colonist-supply-start: {3: 50}"
    )
    folder = _folder(tmp_path, **{"fewer-chips": FEWER_CHIPS, "more-doubloons": other})
    run = validate_cli("--strict", str(folder), jobs=1)
    assert run.returncode == 0, run.stdout + run.stderr


def _stacks_refused(path: str) -> list[str]:
    """What the stacks check says of one house rule, in a run of its own."""
    from interpreter.check.session import Session
    from interpreter.check.stacks import check_stacks

    run = Session()
    run.note_given(path, "overlay", None)
    check_stacks(run, path)
    return sorted(d.format() for d in run.out)


def test_a_stack_judged_again_in_one_process_is_judged_as_the_first_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The stacks a process has judged are remembered by their files' texts
    (check/judged.py): judged again, by the same name or another, or after an edit, a stack
    gets the verdict a first judgement gives, its faults named by the names given now."""
    from interpreter.check.judged import forget

    folder = _folder(tmp_path, windrose=WINDROSE)
    monkeypatch.chdir(tmp_path)
    named, renamed = str(folder / "windrose.yaml"), "house-rules/windrose.yaml"
    forget()
    first = _stacks_refused(named)
    # refused with The Nobles, alone and with The New Buildings too
    assert len([x for x in first if x.startswith(f"{named}:5:3: warning[O008]")]) == 2, first
    assert _stacks_refused(named) == first
    by_another_name = _stacks_refused(renamed)
    assert by_another_name != first
    forget()
    assert _stacks_refused(renamed) == by_another_name
    assert _stacks_refused(named) == first
    # edited so that it goes with The Nobles: the same names, another text
    (folder / "windrose.yaml").write_text(
        FEWER_CHIPS.replace("fewer-chips", "windrose"), encoding="utf-8"
    )
    assert _stacks_refused(named) == []


TYPO = """\
overlay: typo
extends: puerto-rico
title: A misspelt table
patch:
  tables/vp-chips-strat: {3: 50}
"""


def test_a_folder_of_house_rules_spread_over_two_processes_reads_as_in_one(
    tmp_path: Path,
) -> None:
    """House rules of installed games share no base in their folder: they are spread over the
    processes (each compiles its own stacks), and the report is the same to the byte."""
    from interpreter.check.pipeline import _work_lists

    folder = _folder(
        tmp_path,
        **{"fewer-chips": FEWER_CHIPS, "even-chips": EVEN_CHIPS, "windrose": WINDROSE},
        typo=TYPO,
    )
    files = sorted(str(f) for f in folder.iterdir())
    assert len(_work_lists(files, dict.fromkeys(files, "overlay"), 2)) == 2
    one = validate_cli("--strict", str(folder), jobs=1)
    two = validate_cli("--strict", str(folder), jobs=2)
    assert one.returncode == two.returncode == 1, one.stdout + one.stderr
    assert "error[" in one.stdout and "warning[O008]" in one.stdout, one.stdout
    assert two.stdout == one.stdout
