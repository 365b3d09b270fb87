"""A ruleset is checked for every player count it allows; when no check read the count's value
(only its type, the same for every count), one count's findings stand for all of them."""

from __future__ import annotations

import typing
from dataclasses import replace
from pathlib import Path

import pytest

from interpreter.check import validate
from interpreter.check.compile import check_ruleset
from interpreter.diagnostics.errors import RulesError
from interpreter.dsl.compiler import Compiler, Emit, EmitPlan
from interpreter.load.yamlload import load_yaml_file
from interpreter.model import rules

TOY = Path(__file__).resolve().parents[1] / "toy" / "ruleset.yaml"


def _toy_with(tmp_path: Path, old: str, new: str) -> Path:
    folder = tmp_path / "toy"
    folder.mkdir()
    text = TOY.read_text(encoding="utf-8")
    assert old in text
    (folder / "ruleset.yaml").write_text(text.replace(old, new, 1), encoding="utf-8")
    return folder / "ruleset.yaml"


def _counting_builds(monkeypatch) -> list[int]:
    seen: list[int] = []
    build = rules.compile_rules

    def counted(data, players, *args, **kwargs):
        seen.append(players)
        return build(data, players, *args, **kwargs)

    monkeypatch.setattr(rules, "compile_rules", counted)
    return seen


def test_a_ruleset_that_never_reads_the_count_is_compiled_once(monkeypatch):
    seen = _counting_builds(monkeypatch)
    assert check_ruleset(load_yaml_file(TOY).data, setup=False) == []
    assert seen == [2]


def test_the_other_counts_are_built_only_to_be_set_up(monkeypatch):
    # the set-up check (check/setup.py) runs for every count: the later counts are built for
    # it lazily (a text is resolved and written only when the set-up runs it, unchecked), so
    # their texts' checks are neither counted twice nor paid for twice
    calls: list[tuple[int, EmitPlan]] = []
    build = rules.compile_rules

    def counted(data, players, options, plan, *args, **kwargs):
        calls.append((players, plan))
        return build(data, players, options, plan, *args, **kwargs)

    monkeypatch.setattr(rules, "compile_rules", counted)
    assert check_ruleset(load_yaml_file(TOY).data) == []
    assert [(n, plan.when) for n, plan in calls] == [
        (2, Emit.ON_FIRST_RUN),
        (3, Emit.UNCHECKED_ON_FIRST_RUN),
        (4, Emit.UNCHECKED_ON_FIRST_RUN),
    ]


def test_a_count_read_into_a_text_has_every_count_checked(tmp_path, monkeypatch):
    # `"harvest-{players}"` names a phase only with 2 players: the fault of 3 and 4 players must
    # still be found, so reading the count's value into a text brings back every count
    path = _toy_with(
        tmp_path,
        "          - phase: card.phase\n",
        "          - phase: card.phase\n          - phase: '\"harvest-{players}\"'\n",
    )
    text = path.read_text(encoding="utf-8").replace(
        "phases:\n  harvest:\n", "phases:\n  harvest-2:\n    - do: pass\n  harvest:\n", 1
    )
    path.write_text(text, encoding="utf-8")
    seen = _counting_builds(monkeypatch)
    report = validate([path])
    assert seen == [2, 3, 4]
    faults = sorted(d.message for d in report.diagnostics if d.severity == "error")
    assert faults == [
        "'\"harvest-{players}\"': 'harvest-3' is not a phase",
        "'\"harvest-{players}\"': 'harvest-4' is not a phase",
    ], [d.format() for d in report.diagnostics]


def test_every_count_is_checked_when_told_so_and_finds_the_same(monkeypatch):
    # the shipped rulesets, each count compiled as before: the same (no) findings
    build = rules.compile_rules

    def every_count(*args, **kwargs):
        return replace(build(*args, **kwargs), count_used=True)

    root = Path(__file__).resolve().parents[2] / "rulesets"
    once = validate([root], jobs=1)
    monkeypatch.setattr(rules, "compile_rules", every_count)
    every = validate([root], jobs=1)
    assert [d.format() for d in once.diagnostics] == [d.format() for d in every.diagnostics]


def test_a_build_returns_its_faults_and_findings_instead_of_raising(tmp_path):
    # validation reads what a build found (whether it read the count, which decisions a
    # hidden field decides) from a build that failed too: the build returns them with its faults
    path = _toy_with(tmp_path, "          - phase: card.phase\n", "          - phase: card.phse\n")
    data = load_yaml_file(path).data
    options = {str(k): v.get("default") for k, v in data["options"].items()}
    built = rules.compile_rules(data, 2, options, EmitPlan(Emit.CHECK_ONLY))
    assert built.rules is None
    assert [(d.code, d.line) for d in built.faults] == [("D003", 223)]
    assert built.count_used is False and built.texts is not None and built.marks
    with pytest.raises(RulesError) as err:
        built.rules_or_raise()
    assert err.value.diagnostics == list(built.faults)


def test_no_build_takes_a_mode_switch():
    # what a build makes of its texts is one typed plan (EmitPlan), not a row of flags
    for build in (rules.build_rules, rules.compile_rules, Compiler.__init__):
        hints = typing.get_type_hints(build)
        assert bool not in hints.values(), build
        assert "plan" in hints, build
