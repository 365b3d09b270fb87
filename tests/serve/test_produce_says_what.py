"""Issue 48 item 7: "Produce? Produce / Pass" says what would be produced.

Puerto Rico's craftsman asks a seat whether it produces; its `produce` option previews the
seat's goods, a bag (`preview: {goods: "you get {what}"}`): each kind that would change, with
its amount, in the ruleset's words, and exactly what taking it gives.
"""

from __future__ import annotations

import random
import re

from interpreter import load_game
from interpreter.cli.play import presentation_of
from interpreter.table.offers import options_of
from interpreter.table.presenter import preview_changes


def test_produce_names_the_goods_it_would_give() -> None:
    game = load_game("puerto-rico", 3)
    pres = presentation_of("puerto-rico", ())
    state = game.new_state(2)
    rng = random.Random(2)
    while "produce" not in state.legal_options():
        state.apply(rng.choice(state.legal_options()))
    seat = state.to_move
    texts = {o["id"]: o["text"] for o in options_of(state, pres, seat)}
    said = re.fullmatch(r"Produce — you get (.+)", texts["produce"])
    assert said, texts
    before = dict(state.p[seat]["goods"])
    state.apply("produce")
    gained = {k: n - before[k] for k, n in state.p[seat]["goods"].items() if n != before[k]}
    assert gained and said.group(1) == ", ".join(f"{n} {pres.label(k)}" for k, n in gained.items())
    assert texts["pass"] == "Pass"


def test_a_bag_is_previewed_by_its_total_and_each_kind_that_changed() -> None:
    before = {"goods": {"corn": 1, "indigo": 0, "sugar": 2}, "doubloons": 3}
    after = {"goods": {"corn": 2, "indigo": 2, "sugar": 2}, "doubloons": 3}
    assert preview_changes(before, after, ["goods", "doubloons"]) == {
        "goods": 3,
        "goods/corn": 1,
        "goods/indigo": 2,
        "doubloons": 0,
    }
