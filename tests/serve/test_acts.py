"""The board's things carry the ids the options name (``presentation: acts:``, static/acts.js):
in a real Puerto Rico game every role option, every build option and every load option has its
role card, its building for sale and its ship on the seat's board, found the way the page finds
it (the field's row, the thing's ``data-key``: the option id's part the ruleset names)."""

from __future__ import annotations

import random
import re
from html import unescape

from interpreter.engine.loader import load_game_and_data
from interpreter.engine.view import seat_view
from interpreter.serve.render import board_html
from interpreter.table.presenter import Presentation


def _things(html: str) -> set[tuple[str, str]]:
    """(field, key) of every keyed thing of the board's HTML."""
    found = set()
    for row in re.finditer(r"<tr data-field='([^']+)'>(.*?)</tr>", html, re.S):
        for key in re.findall(r"data-key='([^']+)'", row.group(2)):
            found.add((row.group(1), unescape(key)))
    return found


def test_every_mapped_option_has_its_thing_on_the_board() -> None:
    game, data = load_game_and_data("puerto-rico", 2)
    pres = Presentation.from_data(data)
    assert set(pres.acts) == {"role", "build", "tile", "load"}
    state = game.new_state(seed=3)
    rng = random.Random(3)
    seen: set[str] = set()
    for _ in range(120):
        if state.is_over:
            break
        seat = state.to_move
        # a quarry comes from a face-down stack: no thing of its own, the option stays a button
        mapped = [
            o for o in state.legal_options() if o.split(":")[0] in pres.acts and o != "tile:quarry"
        ]
        if mapped:
            view = seat_view(game.rules, state, seat, shared=True)
            things = _things(board_html(pres.board(view), pres, seat))
        for option in mapped:
            family, *parts = option.split(":")
            field, part = pres.acts[family]
            assert (field, parts[part - 1]) in things, (option, field)
            seen.add(family)
        state.apply(rng.choice(state.legal_options()))
    assert seen == {"role", "build", "tile", "load"}, seen
