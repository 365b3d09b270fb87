"""San Juan's log names a seat's hidden cards to that seat only: a build is one line,
"seat 0 builds the Market hall for 3 cards", said when chosen where nothing can change its
price (no crane, no black market), else once paid, and then "you build the Market hall with
Well, Tower and Smithy" for the builder (``State.log_for``), as when the whole hand pays;
discards, keeps and chapel cards likewise. Through the real engine and the real ruleset."""

from __future__ import annotations

import json
import pickle
import random

from helpers.moves import play
from interpreter.dsl.runtime.loglines import OwnLine

from .cities import give_building, set_city
from .conftest import get_game, start
from .helpers import check_cards, give_hand


def _new_lines(s, mark: int, seat: int | None) -> list[str]:
    return [text for _r, _seat, text in s.log_for(seat)[mark:]]


def test_a_build_is_one_line_with_its_price_when_chosen_no_card_named():
    s = start()
    set_city(s, 0, "indigo-plant")
    give_hand(s, 0, "market-hall", "well", "tower", "smithy", "chapel")
    mark = len(s.log)
    play(s, "role:builder", "build:market-hall")  # 4, less the builder's privilege: 3 cards
    # nothing can change the price: the build and its price in one line, for every reader
    said = ["seat 0 takes the Builder", "seat 0 builds the Market hall for 3 cards"]
    assert _new_lines(s, mark, None) == said
    play(s, "pay:well", "pay:tower", "pay:smithy")  # no line for each card, nor after them
    check_cards(s)
    assert s.p[0]["hand"] == ["chapel"] and s.p[0]["paid"] == []
    for reader in (0, 1, 2, 3, None, -1):
        lines = _new_lines(s, mark, reader)
        assert lines == said
        assert not any(name in line for line in lines for name in ("Well", "Tower", "Smithy"))


def test_a_build_paid_after_a_question_is_named_to_the_payer_only():
    s = start()
    set_city(s, 0, "indigo-plant", "black-market")
    give_building(s, 0, "sugar-mill", good=True)
    give_hand(s, 0, "market-hall", "well", "tower", "smithy", "chapel")
    mark = len(s.log)
    play(s, "role:builder", "build:market-hall")  # 3 cards, or a good and 2 cards
    assert _new_lines(s, mark, None) == [
        "seat 0 takes the Builder",
        "seat 0 chooses to build the Market hall",
    ]
    play(s, "keep-goods", "pay:well", "pay:tower", "pay:smithy")
    check_cards(s)
    public = _new_lines(s, mark, None)
    assert public[2:] == ["Keep the goods", "seat 0 builds the Market hall for 3 cards"]
    assert _new_lines(s, mark, 0)[3] == "you build the Market hall with Well, Tower and Smithy"
    for reader in (1, 2, 3, None, -1):  # the other seats and a spectator: the public text
        lines = _new_lines(s, mark, reader)
        assert lines == public
        assert not any(name in line for line in lines for name in ("Well", "Tower", "Smithy"))
    # state.log keeps its public shape for every reader that does not ask for a seat's
    entry = s.log[mark + 3]
    assert entry[:2] == (1, None) and entry[2] == "seat 0 builds the Market hall for 3 cards"
    assert isinstance(entry[2], OwnLine) and entry[2].seat == 0
    assert json.loads(json.dumps(entry))[2] == "seat 0 builds the Market hall for 3 cards"
    assert pickle.loads(pickle.dumps(entry[2])).own == (
        "you build the Market hall with Well, Tower and Smithy"
    )


def test_a_whole_hand_a_single_card_and_a_crane_build_in_one_line_too():
    s = start()
    set_city(s, 0, "indigo-plant")
    give_hand(s, 0, "tobacco-storage", "well", "tower")  # 3 - 1: the whole hand
    mark = len(s.log)
    play(s, "role:builder", "build:tobacco-storage")
    assert s.p[0]["hand"] == []
    assert _new_lines(s, mark, 1)[1:] == ["seat 0 builds the Tobacco storage for 2 cards"]
    assert _new_lines(s, mark, 0)[1:] == ["you build the Tobacco storage with Well and Tower"]

    s = start()
    set_city(s, 0, "indigo-plant")
    give_hand(s, 0, "sugar-mill", "well", "tower")  # 2 - 1: one card of two
    mark = len(s.log)
    play(s, "role:builder", "build:sugar-mill")
    assert _new_lines(s, mark, 2)[1:] == ["seat 0 builds the Sugar mill for 1 card"]
    play(s, "pay:tower")
    assert _new_lines(s, mark, 0)[1:] == ["seat 0 builds the Sugar mill for 1 card"]

    s = start()
    set_city(s, 0, "indigo-plant", "crane", "smithy")
    give_hand(s, 0, "tower", "well", "chapel", "prefecture")  # 3 - 1 - 1 (the smithy covered)
    mark = len(s.log)
    play(s, "role:builder", "build:tower", "cover:smithy", "pay:well")
    assert _new_lines(s, mark, 1) == [
        "seat 0 takes the Builder",
        "seat 0 chooses to build the Tower",
        "Build over Smithy (crane)",
        "seat 0 builds the Tower over the Smithy for 1 card",
    ]
    assert _new_lines(s, mark, 0)[3] == "you build the Tower over the Smithy with Well"


def test_each_seat_reads_its_own_lines_in_a_whole_game():
    """Every line with an own text names cards only in that text; the public text of each is
    what a spectator reads, and the seat's information state holds its own version."""
    s = get_game(3, "new-buildings").new_state(5)
    s.record()
    rng = random.Random(5)
    while not s.is_over:
        s.apply(rng.choice(s.legal_options()))
    own = [(i, text) for i, (_r, _s, text) in enumerate(s.log) if isinstance(text, OwnLine)]
    kinds = {text.own.split(" ")[1] for _i, text in own}
    assert {"build", "keep"} <= kinds, kinds
    words = s.game.rules.words
    cards = {words.text(c) for c, attrs in s.game.env.attrs.items() if "cost" in attrs}
    assert "Well" in cards and "Builder" not in cards
    for i, text in own:
        assert s.log_for(text.seat)[i][2] == text.own
        assert s.log_for(None)[i][2] == str(text)
        for other in range(3):
            if other != text.seat:
                assert s.log_for(other)[i][2] == str(text)
        # the own text names the cards paid, which the public text only counts
        assert text.own != str(text)
        assert any(n in text.own for n in cards), text.own
    seat = own[0][1].seat
    mine = [line for step in s.information_state(seat) for line in step["log"]]
    theirs = [line for step in s.information_state((seat + 1) % 3) for line in step["log"]]
    assert own[0][1].own in mine and own[0][1].own not in theirs


def test_hand_limit_councillor_and_chapel_lines_name_the_card_to_its_owner():
    s = start()
    set_city(s, 0, "indigo-plant", "chapel")
    give_hand(s, 0, "well", "tower", "smithy")
    # the chapel asks at the start of the next round: play this one out, passing
    while not any(o.startswith("chapel:") for o in s.legal_options()):
        options = s.legal_options()
        s.apply("pass" if "pass" in options else options[0])
    mark = len(s.log)
    play(s, "chapel:tower")
    assert _new_lines(s, mark, 1)[0] == "seat 0 puts a card under the chapel"
    assert _new_lines(s, mark, 0)[0] == "you put Tower under the chapel"
