"""A fault in a rule the engine writes from a card's `may:` names the card's own path, one an
overlay can write (`/catalogs/.../may/do`), never the engine-written phase `may`
(`/phases/may/1/then/1/...`): at load (`rulebook validate`) and while a game runs (E001).

Through the real CLI and engine, on the toy games of this folder (``charms``: offers without
`for:`, ``crown``: one with `for:`).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers.toy_rules import copy_with, play
from interpreter.cli.main import main
from interpreter.diagnostics.errors import RulesError
from interpreter.engine.loader import load_game_and_data

HERE = Path(__file__).resolve().parent
CHARMS = HERE / "charms" / "ruleset.yaml"
CROWN = HERE / "crown" / "ruleset.yaml"
CLOVER = "/catalogs/charms/entries/clover/on/rolled/may"
HORSESHOE = "/catalogs/charms/entries/horseshoe/on/rolled/may"
GEM = "/catalogs/titles/entries/crown/on/rolled/may"


@pytest.mark.parametrize(
    ("game", "old", "new", "path"),
    [
        # an offer with an `if:` (the engine writes it as a step around the question)
        (CHARMS, "do: owner.points += amount", "do: owner.pointz += amount", f"{CLOVER}/do"),
        (CHARMS, "if: owner.points < 10", "if: owner.pointz < 10", f"{CLOVER}/if"),
        (CHARMS, "takes {amount} points", "takes {amout} points", f"{CLOVER}/log"),
        # an offer without one
        (CHARMS, "do: owner.points += 2 * amount", "do: owner.pointz += 2", f"{HORSESHOE}/do"),
        # an offer `for:` each value: its option line, its `if`, its `do`
        (CROWN, "takes a {c} gem", "takes a {colour} gem", f"{GEM}/log"),
        (CROWN, "if: stock[c] > 0", "if: stok[c] > 0", f"{GEM}/if"),
    ],
)
def test_a_fault_in_a_may_names_the_cards_path(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    game: Path,
    old: str,
    new: str,
    path: str,
) -> None:
    copy = copy_with(game, tmp_path, old, new)
    assert main(["validate", str(copy)]) == 1
    out = capsys.readouterr().out
    assert f"(at {path})" in out or f"(at {path};" in out, out
    assert "/phases/may" not in out, out


def test_an_overlay_mends_the_fault_at_the_path_it_names(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    broken = copy_with(CHARMS, tmp_path, "do: owner.points += amount", "do: owner.pointz += 1")
    assert main(["validate", str(broken)]) == 1
    out = capsys.readouterr().out
    named = out.split("(at /", 1)[1].split(")", 1)[0].split(";", 1)[0]
    assert named == CLOVER[1:] + "/do", out
    mend = tmp_path / "mend.yaml"
    mend.write_text(
        f"overlay: mend\nextends: charms\ntitle: t\nreplace:\n  {named}: owner.points += amount\n",
        encoding="utf-8",
    )
    game, _data = load_game_and_data(str(broken), 2, [str(mend)])
    s = game.new_state(seed=1)
    for option in ["roll:1", "roll:1", "take:clover"]:
        s.apply(option)
    assert game.view(s, 0)["players"][0]["points"] == 2


def test_a_rule_failing_in_a_may_while_a_game_runs_names_the_card(tmp_path: Path) -> None:
    copy = copy_with(
        CHARMS,
        tmp_path,
        "do: owner.points += amount",
        "do: owner.points += amount // (amount - amount)",
    )
    _game, s = play(copy, ["roll:1", "roll:1"])
    with pytest.raises(RulesError) as failed:
        s.apply("take:clover")
    (d,) = failed.value.diagnostics
    assert d.code == "E001" and "division by zero" in d.message, d
    assert d.json_path == f"{CLOVER}/do", d
