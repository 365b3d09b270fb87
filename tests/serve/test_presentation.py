"""The presentation: a ruleset without a `presentation:` section still reads well; the shipped
ones hide their internal fields, at the web table and at the terminal."""

from __future__ import annotations

import io
import random
from pathlib import Path

from interpreter.cli.board import option_lines, print_board
from interpreter.engine.loader import load_game_and_data
from interpreter.table.offers import options_of
from interpreter.table.presenter import Presentation

TOY = Path(__file__).resolve().parents[1] / "toy" / "ruleset.yaml"


def test_a_ruleset_without_presentation_reads_from_its_ids_and_docs():
    game, data = load_game_and_data(str(TOY), 2)
    assert "presentation" not in data
    pres = Presentation.from_data(data)
    state = game.new_state(1)
    board = pres.board(state.view(0))
    labels = [f.label for zone in board.zones + board.seats for f in zone.fields]
    assert labels and all(label[:1].isupper() and "-" not in label for label in labels)
    for option in state.legal_options():
        text = pres.option_text(option)
        assert text and ":" not in text


def test_internal_fields_never_show_at_the_terminal_or_the_table():
    game, data = load_game_and_data("puerto-rico", 3)
    pres = Presentation.from_data(data)
    assert {"done-loading", "used-own-ship", "protected", "produced"} <= pres.internal
    state = game.new_state(4)
    rng = random.Random(4)
    for _ in range(120):
        state.apply(rng.choice(state.legal_options()))
    out = io.StringIO()
    print_board(state.view(0), pres, out, 100)
    text = out.getvalue()
    for name in pres.internal:
        assert name not in text and pres.label(name) not in text
    assert "Doubloons" in text and "Seat 0 (you)" in text
    lines = option_lines(options_of(state, pres, state.to_move))
    assert lines[0].startswith(" ") and lines[0].endswith(":")  # a group heading
    assert all("[" in line for line in lines if ")" in line)


def test_an_overlay_adds_to_the_presentation():
    _, data = load_game_and_data("puerto-rico", 3, ["new-buildings", "nobles"])
    pres = Presentation.from_data(data)
    assert {"guest-seat", "supplied"} <= pres.internal and "done-loading" in pres.internal
    assert pres.option_text("noble:hacienda") == "Place a noble on Hacienda"
