"""`rulebook show GAME WORD`: a word that is no path lists every rule whose name or text holds
it, by the path an overlay writes; `show GAME tables` says what each knob is for; a misspelt
step gets a did-you-mean at a path spelt by names. Through the real CLI and shipped rulesets."""

from __future__ import annotations

import json

import pytest

from interpreter.cli.main import main
from interpreter.compose.paths import find_item
from interpreter.compose.rulefiles import load_rules_data
from interpreter.load.locate import split_path


def _show(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["show", *argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def _finds(game: str, overlays: list[str], path: str) -> bool:
    """Whether `path` (as an overlay writes it) finds an entry of the composed game."""
    node, *_ = load_rules_data(game, overlays)
    for segment in split_path(path):
        lookup = find_item(node, segment)
        if not lookup.found:
            return False
        node = node[lookup.key]
    return True


def test_a_word_lists_who_offers_quarries(capsys):
    code, out, err = _show(capsys, "puerto-rico", "--with", "new-buildings", "quarry")
    assert code == 0, err
    paths = [line.split("  [")[0] for line in out.splitlines() if "  [" in line]
    offers = "phases/settler/take-tiles/each-player/steps/take-tile/choose/options/tile:quarry"
    library = (
        "phases/settler/refill-row/then/library-tile/then/take-library-tile/choose/options/"
        "tile:quarry"
    )
    assert offers in paths and library in paths  # both options that offer a quarry
    assert "tables/settler-quarry" in paths and "catalogs/tiles/entries/quarry" in paths
    assert f"{offers}  [option `tile:quarry`]  rulesets/puerto-rico/ruleset.yaml:" in out
    # every path listed is one an overlay can write
    assert all(_finds("puerto-rico", ["new-buildings"], p) for p in paths)


def test_an_event_lists_who_emits_and_who_listens(capsys):
    code, out, _ = _show(capsys, "san-juan", "--with", "new-buildings", "trader-ended", "--json")
    assert code == 0
    found = {m["path"]: m["what"] for m in json.loads(out.splitlines()[-1])["matches"]}
    assert found["events/trader-ended"] == "event"
    assert found["catalogs/cards/entries/hut/on/trader-ended"] == "listens to trader-ended"
    assert "emits trader-ended" in found["phases/trader/trader-ended"]


def test_a_word_nothing_holds_is_still_a_usage_error(capsys):
    code, _, err = _show(capsys, "puerto-rico", "zeppelin")
    assert code == 2 and "no entry 'zeppelin'" in err and "no rule holds the word" in err


def test_tables_says_what_each_knob_is_for(capsys):
    code, out, _ = _show(capsys, "puerto-rico", "tables")
    lines = out.splitlines()
    assert code == 0
    at = lines.index("  trader-bonus: 1")
    assert lines[at - 1] == "  # Doubloons more the trader gets for his sale."


@pytest.mark.parametrize(
    ("game", "overlays"),
    [("puerto-rico", "new-buildings,nobles"), ("san-juan", "new-buildings,setup-variation")],
)
def test_every_shipped_table_has_a_description(capsys, game, overlays):
    code, out, _ = _show(capsys, game, "--with", overlays, "tables", "--json")
    doc = json.loads(out.splitlines()[-1])
    assert code == 0
    assert sorted(set(doc["value"]) - set(doc["entry_docs"])) == []


def test_a_misspelt_step_gets_a_guess_at_a_named_path(capsys):
    code, _, err = _show(capsys, "san-juan", "flow/round/choose-roles/repeat/steps/pick-rle")
    assert code == 2
    assert (
        "flow/round/choose-roles/repeat/steps has no entry 'pick-rle' (did you mean 'pick-role'?)"
        in err
    )
