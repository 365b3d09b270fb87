"""The board drawn from the ruleset (`presentation: cards:` and `draw:`, table/field_drawing.py and
serve/render_draw.py), built from the shipped rulesets' YAML and states of real games: the
island's and city's spaces, a ship's slots from its catalog entry, occupant circles, a hand of
cards with cost and VP, the others' hands as face-down stacks, a knob that changes the drawing,
and a ruleset without `draw:` drawn as before."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

from interpreter.engine.loader import load_game_and_data
from interpreter.serve.render import board_html
from interpreter.table.presenter import Presentation

TOY = Path(__file__).resolve().parents[1] / "toy" / "ruleset.yaml"
CANAL = Path(__file__).resolve().parents[2] / "examples" / "games" / "canal-town" / "ruleset.yaml"


def _played(game: str, decisions: int, overlays: tuple[str, ...] = (), seed: int = 4) -> Any:
    loaded, data = load_game_and_data(game, 3, list(overlays))
    state = loaded.new_state(seed)
    rng = random.Random(seed)
    for _ in range(decisions):
        if state.is_over:
            break
        state.apply(rng.choice(state.legal_options()))
    return state, Presentation.from_data(data)


def _field(board: Any, seat: int | None, name: str) -> Any:
    zones = board.zones if seat is None else [z for z in board.seats if z.seat == seat]
    return next(f for z in zones for f in z.fields if f.name == name)


def test_the_island_and_city_have_their_twelve_spaces_and_large_buildings_take_two():
    state, pres = _played("puerto-rico", 200, ("new-buildings", "nobles"))
    board = pres.board(state.view(0))
    for seat in range(3):
        island = _field(board, seat, "island").drawing
        assert island.kind == "grid" and island.max == 12
        assert sum(s.width for s in island.spaces) == 12
        city = _field(board, seat, "city").drawing
        assert sum(s.width for s in city.spaces) == 12
        pieces = state.view(0)["players"][seat]["city"]
        for space, piece in zip(city.spaces[: len(pieces)], pieces, strict=True):
            assert space.face.key == piece["type"]
            assert space.width == pres.pieces[piece["type"]]["spaces"]
            assert space.capacity == pres.pieces[piece["type"]]["circles"]
            # nobles are occupants too (the nobles overlay adds them to the drawing)
            # (`workers` counts the nobles too: they are drawn apart)
            assert dict(space.occupants) == {
                "colonists": piece["workers"] - piece["nobles"],
                "Nobles": piece["nobles"],
            }
            assert space.occupants[0][1] + space.occupants[1][1] <= space.capacity


def test_occupant_circles_read_as_so_many_of_the_capacity():
    for decisions in range(60, 400, 20):
        state, pres = _played("puerto-rico", decisions)
        view = state.view(0)
        found = [
            (b["workers"], pres.pieces[b["type"]]["circles"])
            for p in view["players"]
            for b in p["city"]
            if b["workers"] and pres.pieces[b["type"]]["circles"] == 3
        ]
        if found:
            break
    else:
        raise AssertionError("no building with 3 circles occupied in these games")
    html = board_html(pres.board(view), pres, 0)
    workers, circles = found[0]
    assert f"title='{workers} of {circles}: colonists {workers}'" in html
    assert html.count("<i class='o f0'></i>") == sum(
        b["workers"] for p in view["players"] for b in p["city"] + p["island"]
    )


def test_a_ship_has_the_capacity_of_its_entry_and_its_cargo_in_slots():
    state, pres = _played("puerto-rico", 260)
    view = state.view(0)
    ships = _field(pres.board(view), None, "ships").drawing
    assert ships.kind == "slots" and len(ships.rows) == len(view["global"]["ships"])
    for row, ship in zip(ships.rows, view["global"]["ships"], strict=True):
        assert row.capacity == pres.pieces[ship["type"]]["capacity"]
        assert len(row.filled) == ship["load"]
        if ship["load"]:
            assert row.filled[0].name == pres.label(ship["cargo"])
    assert any(s["load"] for s in view["global"]["ships"]), "no ship loaded: play longer"
    house = _field(pres.board(view), None, "trading-house").drawing
    assert house.rows[0].capacity == 4  # the trading-house-size knob


def test_a_hand_is_drawn_as_cards_with_cost_and_vp_and_other_hands_as_stacks():
    state, pres = _played("san-juan", 40)
    view = state.view(0)
    board = pres.board(view)
    hand = _field(board, 0, "hand").drawing
    assert hand.kind == "cards" and [f.key for f in hand.faces] == view["players"][0]["hand"]
    for face in hand.faces:
        assert (face.cost, face.vp) == (pres.pieces[face.key]["cost"], pres.pieces[face.key]["vp"])
        assert face.kind in ("Production", "City") and face.name == pres.label(face.key)
    other = _field(board, 1, "hand").drawing
    assert other.kind == "stack" and other.value == len(state.view(1)["players"][1]["hand"])
    assert other.faces == []
    # the governor is a seat, and the viewer reads "you"
    governor = view["global"]["governor"]
    assert [c.text for c in _field(board, None, "governor").chips] == [
        "you" if governor == 0 else f"Seat {governor}"
    ]


def test_another_seats_hand_never_reaches_the_page_of_a_seat():
    checked = 0
    for decisions in (10, 40, 80, 120):
        state, pres = _played("san-juan", decisions, ("new-buildings",))
        view = state.view(0)
        html = board_html(pres.board(view), pres, 0)
        seen = json.dumps(view)
        for seat in (1, 2):
            for card in state.view(seat)["players"][seat]["hand"]:
                if f'"{card}"' in seen:
                    continue  # the same card is somewhere seat 0 sees
                name = re.escape(pres.label(card))
                assert not re.search(rf">{name}<|title='{name}[ :(]", html), card
                checked += 1
    assert checked > 10


def test_the_trader_tile_is_drawn_with_its_printed_numbers():
    for decisions in range(20, 300, 10):
        state, pres = _played("san-juan", decisions)
        tile = state.view(0)["global"]["price-tile"]
        if tile:
            break
    else:
        raise AssertionError("no price tile turned up")
    drawing = _field(pres.board(state.view(0)), None, "price-tile").drawing
    row = pres.tables["tile-prices"][tile]
    assert drawing.kind == "tile" and drawing.title == pres.label(tile)
    assert [(name, n) for _c, name, n in drawing.cells] == [
        (pres.label(k), v) for k, v in row.items()
    ]


def test_a_knob_changes_the_drawing(tmp_path):
    overlay = tmp_path / "big-city.yaml"
    overlay.write_text(
        "overlay: big-city\nextends: san-juan\ntitle: Big city\nreplace: {tables/city-size: 16}\n"
    )
    for overlays, size in (((), 12), ((str(overlay),), 16)):
        loaded, data = load_game_and_data("san-juan", 3, list(overlays))
        pres = Presentation.from_data(data)
        state = loaded.new_state(1)
        city = _field(pres.board(state.view(0)), 0, "city").drawing
        assert city.max == size and len(city.spaces) == size
        assert f"1 of {size} spaces" in board_html(pres.board(state.view(0)), pres, 0)


def test_canal_town_draws_its_town_and_its_buildings_for_sale():
    state, pres = _played(str(CANAL), 30)
    board = pres.board(state.view(0))
    town = _field(board, 0, "town").drawing
    assert town.kind == "grid" and len(town.spaces) == pres.tables["town-size"]
    supply = _field(board, None, "building-supply").drawing
    assert supply.kind == "cards" and all(f.cost is not None for f in supply.faces)


def test_a_ruleset_without_draw_keeps_its_chips():
    loaded, data = load_game_and_data(str(TOY), 2)
    pres = Presentation.from_data(data)
    assert not pres.draw
    state = loaded.new_state(1)
    board = pres.board(state.view(0))
    assert all(f.drawing is None for z in board.zones + board.seats for f in z.fields)
    html = board_html(board, pres, 0)
    assert "class='drawn" not in html and "class='chip'" in html


def test_every_text_of_a_card_is_escaped():
    data = {
        "tables": {"room": 3},
        "catalogs": {
            "things": {"entries": {"odd-hat": {"cost": 2, "doc": "<script>x()</script> & more"}}}
        },
        "presentation": {
            "labels": {"odd-hat": "Hat <b>"},
            "draw": {"shelf": {"as": "grid", "spaces": "room"}},
        },
    }
    pres = Presentation.from_data(data)
    view = {"seat": 0, "round": 1, "global": {"shelf": [{"type": "odd-hat"}]}, "players": []}
    html = board_html(pres.board(view), pres, 0)
    assert "<script>" not in html and "<b>" not in html
    assert "&lt;script&gt;x()&lt;/script&gt; &amp; more" in html and "Hat &lt;b&gt;" in html
    assert html.count("class='space empty'") == 2


def test_the_terminal_and_the_table_show_one_card_face():
    from interpreter.cli.calm import describe
    from interpreter.serve.render_draw import drawing_html
    from interpreter.table.field_drawing import Drawing

    _, data = load_game_and_data("puerto-rico", 3)
    pres = Presentation.from_data(data)
    face = pres.card_face("hospice")
    text = describe(pres, "hospice", 90)
    assert text[:2] == ["Hospice  [hospice]", "  Cost 4 · VP 2 · Violet"]
    assert "Copies" not in "\n".join(text) and face.doc.split()[0] in text[2]
    html = drawing_html(Drawing("cards", faces=[face]))
    assert "<span class='c-cost' title='cost'>4</span>" in html
    assert "<span class='c-vp' title='VP'>2</span>" in html
    assert "title='Hospice (cost 4, 2 VP, violet): When its owner" in html


def test_ship_and_trading_house_goods_and_occupants_have_words_beyond_a_hover():
    """A loaded ship's goods and a building's colonists are coloured marks: each says what it
    is to a screen reader (and a touch) by its aria-label, not only in a hover's title."""
    state, pres = _played("puerto-rico", 260)
    html = board_html(pres.board(state.view(0)), pres, 0)
    goods = re.findall(r"<i class='slot full' [^>]*>", html)  # a good of a known kind
    assert goods, "no good on a ship or in the trading house: play longer"
    names = {pres.label(g) for g in ("corn", "indigo", "sugar", "tobacco", "coffee")}
    for mark in goods:
        said = re.search(r"role='img' aria-label='([^']+)'", mark)
        assert said and said.group(1) in names, mark
    occupants = re.findall(r"<span class='occ'[^>]*>", html)
    assert occupants and all(re.search(r"aria-label='\d+ of \d+", o) for o in occupants)
