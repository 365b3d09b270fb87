"""A ``{NAME}`` in a card's ``doc:`` shows the table NAME's value; one that names no table is
shown as written, braces and all, so `rulebook validate` warns (W008) at the name inside the
doc, in the file that wrote it (an overlay's patch), with the nearest table's name. A doc that
cites a real table does not warn. Through the real CLI, on the corpus's base (`vbase`)."""

from __future__ import annotations

from pathlib import Path

from interpreter.cli.main import main

DOC = (
    "overlay: card-words\n"
    "extends: vbase\n"
    "title: t\n"
    "patch:\n"
    "  catalogs/cards/entries/work-card:\n"
    "    doc: >-\n"
    "      Each player starts with\n"
    "      {NAME} points.\n"
)


def test_a_misspelt_table_in_a_patched_doc_warns_at_the_name(tmp_path: Path, capsys):
    path = tmp_path / "card-words.yaml"
    path.write_text(DOC.replace("NAME", "start-point"), "utf-8")
    assert main(["validate", "--strict", str(path)]) == 1
    out = capsys.readouterr().out
    assert f"{path}:8:7: warning[W008]: '{{start-point}}' in the doc of 'work-card' names" in out
    assert "did you mean '{start-points}'?" in out


def test_a_doc_that_cites_a_table_does_not_warn(tmp_path: Path, capsys):
    path = tmp_path / "card-words.yaml"
    path.write_text(DOC.replace("NAME", "start-points"), "utf-8")
    assert main(["validate", "--strict", str(path)]) == 0, capsys.readouterr().out
