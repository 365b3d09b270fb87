"""What a person reads at the web table is words from the rulebooks, never the engine's ids or
bookkeeping: the fields each seat's page shows (a reviewed list per game), option texts that say
what they give and cost, tooltips from the cards' texts, a new-game form that names each option
by its text. Everything goes through the real server (Starlette's TestClient) and the shipped
rule files."""

from __future__ import annotations

import random
import re
from html import unescape

import pytest

from helpers.serve_api import ask_everything, move, new_table, state_of
from interpreter.engine.loader import load_game_and_data
from interpreter.table.presenter import Presentation

# Every field label a seat's page shows, per game and expansion: each one a thing its rulebook
# names (reviewed). A new state field shows up here first: a label, or `presentation: internal:`.
PUERTO_RICO = [
    "Bank",
    "Bonus VP",
    "Buildings for sale",
    "City",
    "Colonist ship",
    "Colonist supply",
    "Colonists waiting",
    "Doubloons",
    "Doubloons on roles",
    "Game ends after this round",
    "Goods",
    "Goods supply",
    "Governor",
    "Island",
    "Plantations (discarded)",
    "Plantations (face down)",
    "Plantations (face up)",
    "Quarries left",
    "Roles",
    "Roles taken",
    "Ships",
    "Trading house",
    "VP (no chips left)",
    "VP chips",
]
PR_NEW_BUILDINGS = [
    "Buildings drafted",
    "Goods in the storehouse",
    "Goods on the small wharf",
    "Plantations under forests",
]
PR_NOBLES = ["Noble supply", "Nobles on the ship", "Nobles waiting"]
SAN_JUAN = [
    "Being built",
    "Bonus VP",
    "Cards drawn (to choose from)",
    "Cards turned up",
    "Cards under the chapel",
    "City",
    "Covered by a crane",
    "Deck",
    "Discard",
    "Game ends after this round",
    "Goods cards",
    "Governor",
    "Hand",
    "Palace VP",
    "Price tiles (face down)",
    "Roles taken",
    "Trader's price tile",
]
SJ_NEW_BUILDINGS = ["Cards under the harbor", "Cathedral on the table"]

COMPOSITIONS = [
    ("puerto-rico", 3, [], PUERTO_RICO),
    ("puerto-rico", 4, ["new-buildings"], PUERTO_RICO + PR_NEW_BUILDINGS),
    ("puerto-rico", 4, ["nobles"], PUERTO_RICO + PR_NOBLES),
    (
        "puerto-rico",
        5,
        ["new-buildings", "nobles"],
        PUERTO_RICO + PR_NEW_BUILDINGS + PR_NOBLES,
    ),
    ("san-juan", 2, [], SAN_JUAN),
    ("san-juan", 4, ["new-buildings"], SAN_JUAN + SJ_NEW_BUILDINGS),
    ("san-juan", 3, ["setup-variation"], SAN_JUAN),
    ("san-juan", 4, ["new-buildings", "setup-variation"], SAN_JUAN + SJ_NEW_BUILDINGS),
]

_FIELD_LABEL = re.compile(r"<tr data-field='[^']*'><th[^>]*>([^<]*)</th>")
# a developer's words: a phase or field id in backticks, how the engine asks a question
_NOTE = re.compile(r"`|asked in the phase|bookkeeping", re.IGNORECASE)


def _play(client, game, players, overlays, decisions, seed=3):
    """Play ``decisions`` random moves of people's seats; yield each seat's message per move."""
    table = new_table(
        client,
        game=game,
        players=players,
        seats=["human"] * players,
        overlays=overlays,
        seed=seed,
    )
    ask_everything(client, table)  # every move is the test's own
    rng = random.Random(seed)
    message = state_of(client, table, None)
    for _ in range(decisions):
        if message["over"]:
            return
        seats = [state_of(client, table, seat) for seat in range(players)]
        yield seats
        mover = seats[message["to_move"]]
        choice = rng.choice([o["id"] for o in mover["options"]])
        response = move(client, table, message["to_move"], choice, mover["decision"])
        assert response.status_code == 200, response.text
        message = response.json()


def _field_labels(board_html: str) -> set[str]:
    return {unescape(label) for label in _FIELD_LABEL.findall(board_html)}


@pytest.mark.parametrize(
    "game, players, overlays, expected",
    COMPOSITIONS,
    ids=[f"{g}-{'+'.join(o) or 'base'}" for g, _n, o, _e in COMPOSITIONS],
)
def test_every_field_a_seat_sees_is_named_by_the_rulebook(
    client, game, players, overlays, expected
):
    shown: set[str] = set()
    for seats in _play(client, game, players, overlays, 36):
        for message in seats:
            shown |= _field_labels(message["board"])
    assert sorted(shown) == sorted(expected)
    # the bookkeeping the issue found on every seat is gone, at the table and in every field
    for hidden in ("Hospice offer", "University offer", "Privilege vp offer", "Vp offers"):
        assert hidden not in shown


def test_internal_fields_are_declared_for_the_offers_of_both_expansions():
    _, data = load_game_and_data("puerto-rico", 4, ["new-buildings", "nobles"])
    # what the cards' `may:` offers waits in fields the engine keeps internal itself: the
    # buildings', the captain's privilege (a role card) and the aqueduct's, by good
    internal = Presentation.from_data(data).internal
    assert {"may-buildings", "may-roles", "may-aqueduct"} <= internal


def _sj_tile_prices(overlays=()):
    _, data = load_game_and_data("san-juan", 4, list(overlays))
    cards = data["catalogs"]["cards"]
    return data["tables"]["tile-prices"], cards["entries"], cards["defaults"]


def test_a_san_juan_sale_says_how_many_cards_it_brings(client):
    prices, entries, _defaults = _sj_tile_prices()
    checked = 0
    for seed in (3, 4):
        for seats in _play(client, "san-juan", 3, [], 220, seed=seed):
            for message in seats:
                sells = [o for o in message["options"] if o["family"] == "sell"]
                if not sells:
                    continue
                board = message["board"]
                # the trader's tile shows as its name and printed numbers, never as an id
                tile = re.search(r"Tile (\d): indigo \d, sugar \d", board)
                assert tile is not None and "tile-" not in re.sub(r"<[^>]+>", "", board)
                row = prices[f"tile-{tile.group(1)}"]
                own = re.split(r"class='zone seat own[^']*'", board, maxsplit=1)[1]
                own = own.split("</section>", 1)[0]
                draws_more = "Market hall" in own or "Market stand" in own
                for option in sells:
                    found = re.search(r" — you get (\d+) cards?$", option["text"])
                    assert found, option["text"]
                    price = row[entries[option["id"].split(":")[1]]["produces"]]
                    got = int(found.group(1))
                    assert got == price or (draws_more and got > price), option["text"]
                    assert ("1 card" in option["text"]) == (got == 1)
                    checked += 1
    assert checked >= 3


def test_a_san_juan_hand_card_says_its_cost_and_vp(client):
    _prices, entries, defaults = _sj_tile_prices(["new-buildings"])
    seen: set[str] = set()
    for seats in _play(client, "san-juan", 3, ["new-buildings"], 160):
        for message in seats:
            for option in message["options"]:
                if option["family"] not in ("keep", "discard", "pay", "chapel", "gold-keep"):
                    continue
                card = option["id"].split(":")[1]
                attrs = {**defaults, **entries[card]}
                assert option["text"].endswith(f" — cost {attrs['cost']}, {attrs['vp']} VP")
                seen.add(option["family"])
    assert {"keep", "discard", "pay"} <= seen


def test_keep_well_reads_as_in_the_issue():
    from interpreter.table.presenter import Presentation

    _, data = load_game_and_data("san-juan", 2, [])
    pres = Presentation.from_data(data)
    assert pres.option_text("keep:well") == "Keep Well — cost 2, 1 VP"
    assert pres.doc("tile-2").startswith("Tile 2: indigo 1, sugar 1, tobacco 2")


@pytest.mark.parametrize(
    "game, players, overlays",
    [("puerto-rico", 4, ["new-buildings", "nobles"]), ("san-juan", 4, ["new-buildings"])],
)
def test_tooltips_are_card_texts_not_notes(client, game, players, overlays):
    docs: dict[str, str] = {}
    for seats in _play(client, game, players, overlays, 80):
        for message in seats:
            for option in message["options"]:
                docs[option["id"]] = option["doc"]
            for tip in re.findall(r"title='([^']*)'", message["board"]):
                docs.setdefault(f"board:{tip[:30]}", unescape(tip))
    assert docs
    notes = {key: doc for key, doc in docs.items() if _NOTE.search(doc)}
    assert notes == {}
    if game == "san-juan":  # every role a person can take says what it does
        roles = {key: doc for key, doc in docs.items() if key.startswith("role:")}
        assert roles and all(roles.values()), roles


def test_the_hospice_tooltip_is_the_cards_text():
    from interpreter.table.presenter import Presentation

    _, data = load_game_and_data("puerto-rico", 3, [])
    pres = Presentation.from_data(data)
    for building in ("hospice", "university", "harbor"):
        assert pres.doc(building) and not _NOTE.search(pres.doc(building)), building


def test_the_new_game_form_names_options_by_their_text(client):
    page = client.get("/new").text
    labels = re.findall(
        r'<label class="game-option" title="([^"]*)">([^<]*) <select name="option:[^:]+:([^"]+)"',
        page,
    )
    assert len(labels) >= 9
    for doc, text, option_id in labels:
        text = unescape(text).strip()
        assert text and text != option_id and "-" not in text.split(" ")[0], (text, option_id)
        assert doc  # the whole doc on hover
    named = {option_id: unescape(text).strip() for _doc, text, option_id in labels}
    assert named["vp-chips-5p"] == "VP chips with 5 players"
    assert named["harbor-small-wharf"] == "The harbor's extra VP when loading with the small wharf"
    assert named["building-selection"] == "Building selection"
    # no id beside an option or an expansion: the words only
    assert "<code>" not in page
    # each game's own bot is offered for that game only (forms.js hides the others), by its
    # title, with its one line; it is the default opponent of its game, not random
    assert re.search(
        r'<option value="sj-heuristic" data-game="san-juan" data-doc="San Juan: [^"]+">'
        r"Heuristic bot</option>",
        page,
    )
    assert re.search(r'<option value="pr-heuristic" selected data-game="puerto-rico"', page)
    assert re.search(r'<option value="random" data-doc="picks uniformly[^"]*">Random bot<', page)
    assert 'data-bot="san-juan"' not in page and 'data-bot="sj-heuristic"' in page
    listing = client.get("/api/games").json()
    for game in listing["games"]:
        assert game["bot"] == {"puerto-rico": "pr-heuristic", "san-juan": "sj-heuristic"}.get(
            game["name"], "random"
        )
        for option in game["options"]:
            assert option["label"] and option["label"] != option["name"]
    assert all(bot["title"] and bot["doc"] for bot in listing["bots"])


def test_score_headers_and_the_end_are_the_rulesets_words():
    from interpreter.table.endings import score_rows
    from interpreter.table.presenter import Presentation

    _, data = load_game_and_data("puerto-rico", 4, ["nobles"])
    pres = Presentation.from_data(data)
    result = {
        "scores": [
            {"seat": s, "total": 3, "tiebreak": s, "components": {n: 1 for n in pres.score_labels}}
            for s in range(4)
        ],
        "winner": 3,
        "winners": [3],
    }
    rows = score_rows(result, ["human"] * 4, ["Ana", "Bo", "Cy", "Di"], pres)
    assert rows[0] == [
        "",
        "Player",
        "VP chips",
        "Buildings",
        "Large buildings' bonus",
        "Nobles",
        "Total",
        "Doubloons and goods",
    ]
    assert [row[1] for row in rows[1:]] == ["Ana", "Bo", "Cy", "Di"] and rows[4][0] == "*"
    assert [pres.end_text(t) for t in ("vp-chips", "colonists", "city")] == [
        "the VP chips ran out",
        "the colonists ran out",
        "a city is full",
    ]
    # the log's lines that name the trigger say it in words too (the rules' text and the
    # engine's last line keep the id: saves and goldens)
    from interpreter.table.endings import worded_end

    assert (
        worded_end("the game will end after this round (vp-chips)", pres)
        == "the game will end after this round (the VP chips ran out)"
    )
    assert worded_end("game over (city)", pres) == "game over (a city is full)"
    assert worded_end("seat 1 takes 1 VP (privilege)", pres) == "seat 1 takes 1 VP (privilege)"
    # every shipped trigger has its words (a trigger the rules set is a quoted id)
    for game in ("puerto-rico", "san-juan"):
        _, data = load_game_and_data(game, 4, [])
        said = Presentation.from_data(data).ends
        text = str(data)
        for trigger in re.findall(r'trigger-end\("([a-z-]+)"\)|end-trigger = "([a-z-]+)"', text):
            assert (trigger[0] or trigger[1]) in said


def test_the_doubloons_on_roles_say_how_many_doubloons(client):
    table = new_table(client, game="puerto-rico", players=3, seats=["human"] * 3, seed=5)
    message = state_of(client, table, None)
    for _ in range(40):  # a round: the roles nobody took get a doubloon each
        mover = state_of(client, table, message["to_move"])
        choice = mover["options"][0]["id"]
        message = move(client, table, message["to_move"], choice, mover["decision"]).json()
        if re.search(
            r"data-field='role-coins'><th[^>]*>[^<]*</th><td><span class='chip", message["board"]
        ):
            break
    row = re.search(r"data-field='role-coins'>(.*?)</tr>", message["board"]).group(1)
    chips = re.findall(r"<span class='chip'[^>]*>([^<]*)</span>", row)
    assert chips and all(re.fullmatch(r"[A-Z][a-z]+ \(\d+ doubloons?\)", c) for c in chips), chips
    # a row of slots without a capacity says what its number counts
    face_up = re.search(r"data-field='tile-row'>(.*?)</tr>", message["board"]).group(1)
    assert re.search(r"<span class='s-count'>\d+ in all</span>", face_up)
