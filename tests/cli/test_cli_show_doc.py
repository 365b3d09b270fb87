"""`rulebook show` says what a rule is for before printing it: an entry's own `doc:`, a table's
text under `presentation: docs:`; through the shipped rulesets."""

from __future__ import annotations

import json

from interpreter.cli.main import main


def test_a_catalog_entry_is_shown_with_its_doc(capsys):
    code = main(["show", "puerto-rico", "catalogs/buildings/entries/harbor"])
    out = capsys.readouterr().out.splitlines()
    assert code == 0
    assert out[0].startswith("# ") and "captain phase" in out[0]
    assert out[1] == "catalogs/buildings/entries/harbor:"


def test_json_carries_the_doc_or_null(capsys):
    assert main(["show", "puerto-rico", "catalogs/buildings/entries/harbor", "--json"]) == 0
    shown = json.loads(capsys.readouterr().out.splitlines()[-1])
    assert "captain phase" in shown["doc"]
    assert main(["show", "puerto-rico", "flow/round/reset-picks", "--json"]) == 0
    assert json.loads(capsys.readouterr().out.splitlines()[-1])["doc"] is None


def test_paths_are_printed_by_name_as_an_overlay_should_write_them(capsys):
    assert main(["show", "san-juan", "phases/builder/3"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == "phases/builder/check-city-full:"
    income = "examples/variants/pr-round-income.yaml"
    assert main(["show", "puerto-rico", "--with", income, "flow/round"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert any(line.startswith("#   flow/round/round-income: ") for line in out), out
