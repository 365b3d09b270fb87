"""The command line keeps its promises: `-q` and `-j` where they make sense, "did you mean" for
a mistyped option value, a clear word when `test` has nothing to run by default."""

from __future__ import annotations

import json

import pytest

from interpreter.cli.main import main

BROKEN = """\
overlay: hand-limit-eight
extends: san-juan
title: Hand limit eight
replace:
  tables/normal-hand-limit: eight
"""


def test_a_mistyped_option_value_gets_a_did_you_mean(capsys):
    code = main(["play", "puerto-rico", "-p", "3", "-o", "bank=limitd", "--quiet"])
    err = capsys.readouterr().err
    assert code == 1
    assert "option 'bank' cannot be 'limitd'; did you mean 'limited'?" in err
    assert "choose one of: unlimited, limited" in err


def test_validate_quiet_prints_nothing_for_a_clean_run_and_only_findings_otherwise(
    capsys, tmp_path
):
    assert main(["validate", "rulesets/san-juan", "-q", "-j", "1"]) == 0
    assert capsys.readouterr().out == ""
    assert main(["validate", "rulesets/san-juan", "-j", "1"]) == 0
    assert "no problems found" in capsys.readouterr().out
    bad = tmp_path / "hand-limit-eight.yaml"
    bad.write_text(BROKEN, encoding="utf-8")
    assert main(["validate", str(bad), "-q"]) == 1
    out = capsys.readouterr().out
    assert "error[" in out and "checked" not in out  # the findings, no summary line


def test_validate_jobs_must_be_a_positive_number(capsys):
    assert main(["validate", "rulesets/san-juan", "-j", "0"]) == 2
    assert "-j" in capsys.readouterr().err


@pytest.mark.slow
def test_validate_jobs_gives_the_same_report_in_one_process_and_in_two(capsys):
    reports = []
    for jobs in ("1", "2"):
        # two games (two groups of folders to share out) and scenarios of one of them
        paths = ["rulesets/san-juan", "tests/scenarios/san-juan/councillor.yaml", "tests/toy"]
        assert main(["validate", *paths, "--json", "-j", jobs]) == 0
        doc = json.loads(capsys.readouterr().out.splitlines()[-1])
        reports.append((doc["files"], doc["diagnostics"]))
    assert reports[0] == reports[1] and reports[0][0]


def test_test_quiet_prints_failures_and_the_summary_only(capsys):
    assert main(["test", "tests/scenarios/san-juan", "-k", "trader", "-q"]) == 0
    out = capsys.readouterr().out
    assert not any(line.startswith("ok ") for line in out.splitlines())
    assert "passed" in out.splitlines()[-1]
    assert main(["test", "tests/scenarios/san-juan", "-k", "trader"]) == 0
    assert any(line.startswith("ok ") for line in capsys.readouterr().out.splitlines())


def test_test_without_a_path_says_what_it_looked_for(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["test"]) == 2
    err = capsys.readouterr().err
    assert "no PATH given" in err and "tests/scenarios/" in err and str(tmp_path) in err


@pytest.mark.parametrize("words", [["simulate", "--help"], ["validate", "--help"]])
def test_jobs_is_spelt_alike_in_every_command(capsys, words):
    assert main(words) == 0
    assert "--jobs J, -j J" in capsys.readouterr().out
