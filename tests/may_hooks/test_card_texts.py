"""Rules that read like the card: the library's doubled privilege, and a card's `doc:` that
cites a knob's value (`{palace-divisor}`), through `rulebook show` and the web table's words."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.cli.main import main
from interpreter.engine.loader import load_game_and_data
from interpreter.table.presenter import Presentation

ROOT = Path(__file__).resolve().parents[2]
RICH_PALACE = ROOT / "examples" / "variants" / "sj-palace-points.yaml"


def test_the_library_doubles_a_role_it_lists(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["show", "puerto-rico", "--with", "new-buildings", "functions/privilege"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "p.double-privilege > 0 and role in library-doubles" in out
    assert "count(" not in out


@pytest.mark.parametrize(("overlays", "per"), [([], "4"), ([str(RICH_PALACE)], "3")])
def test_the_palace_card_says_the_divisor_in_force(
    capsys: pytest.CaptureFixture[str], overlays: list[str], per: str
) -> None:
    with_ = ["--with", ",".join(overlays)] if overlays else []
    assert main(["show", "san-juan", *with_, "catalogs/cards/entries/palace"]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first == f"# Game end, scored last - 1 VP per {per} VP of all the other points."
    _, data = load_game_and_data("san-juan", 3, overlays)
    assert f"1 VP per {per} VP" in Presentation.from_data(data).doc("palace")
