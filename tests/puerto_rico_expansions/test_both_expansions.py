"""Rules where The New Buildings and The Nobles meet, with both overlays in either order.

* Land office + forest house: "Besitzt man neben dem Grundbuchamt auch das Forsthaus, darf man
  die neue Plantage auch als Wald ablegen."
* The general note: "Wird in dieser Regel von 'Kolonisten' gesprochen, gilt dies auch für
  'Adlige'", so a noble may be a guest in the guest house and a black market payment.
"""

from __future__ import annotations

import pytest

from helpers.moves import play
from helpers.puerto_rico import set_doubloons, set_goods

from .helpers import clear_all, give_building, give_tile, totals

ORDERS = [("nobles", "new-buildings"), ("new-buildings", "nobles")]


@pytest.fixture(params=ORDERS, ids=lambda o: "+".join(o))
def s(game, request):
    st = game(4, request.param, **{"building-selection": "all-new"}).new_state(21)
    clear_all(st)
    return st


def types(pieces):
    return [x["type"] for x in pieces]


# -- land office + forest house --------------------------------------------------------------
def test_land_office_plantation_may_be_laid_as_a_forest(s):
    give_building(s, 1, "land-office")
    give_building(s, 1, "forest-house")
    set_doubloons(s, 1, 3)
    top = s.g["tile-stack"][-1]
    play(s, "role:trader", "pass", "pass", "buy-plantation")
    assert types(s.p[1]["island"]) == [top]  # he has seen it
    assert s.to_move == 1 and s.legal_options() == ["forest-face-down", "pass"]
    play(s, "forest-face-down")
    (f,) = s.p[1]["island"]
    assert (f["type"], f["workers"]) == ("forest", 0) and s.p[1]["forest-under"] == [top]
    assert s.p[1]["doubloons"] == 2
    assert s.to_move == 2  # his turn is over


def test_land_office_plantation_may_stay_a_plantation(s):
    give_building(s, 1, "land-office")
    give_building(s, 1, "forest-house")
    set_doubloons(s, 1, 3)
    top = s.g["tile-stack"][-1]
    play(s, "role:trader", "pass", "pass", "buy-plantation", "pass")
    assert types(s.p[1]["island"]) == [top] and s.p[1]["forest-under"] == []


def test_land_office_without_an_occupied_forest_house_lays_no_forest(s):
    give_building(s, 1, "land-office")
    give_building(s, 1, "forest-house", workers=0)
    set_doubloons(s, 1, 3)
    play(s, "role:trader", "pass", "pass", "buy-plantation")
    assert s.to_move == 2 and "forest-face-down" not in s.legal_options()


# -- guest house: nobles are guests too ------------------------------------------------------
def test_a_noble_in_the_guest_house_is_moved_like_a_colonist(s):
    gh = give_building(s, 1, "guest-house", workers=1, nobles=1)
    library = give_building(s, 1, "library", workers=0)
    set_goods(s, 1, corn=1)
    play(s, "role:trader")
    assert s.to_move == 1
    assert sorted(o for o in s.legal_options() if o.startswith("guest")) == [
        "guest-noble:library",
        "guest:library",
    ]
    play(s, "guest-noble:library")
    assert (gh["workers"], gh["nobles"]) == (1, 0)
    assert (library["workers"], library["nobles"]) == (1, 1)
    assert not any(o.startswith("guest") for o in s.legal_options())  # no free circle left


def test_a_guest_may_move_into_the_hunting_lodge_before_it_works(s):
    """The hunting lodge works at the end of the settler phase: a guest moved in just before."""
    gh = give_building(s, 1, "guest-house", workers=1)
    give_building(s, 1, "hunting-lodge", workers=0)
    give_tile(s, 1, "sugar-plantation", workers=0)
    play(s, "role:settler", "pass")  # the start of the phase: he keeps his guest
    play(s, "pass")  # seat 0 takes no tile
    assert s.to_move == 1 and "guest:hunting-lodge" in s.legal_options()
    play(s, "pass", "pass")  # before his turn he keeps it too, and takes no tile
    play(s, "pass", "pass")  # seats 2 and 3 take none
    assert s.to_move == 1 and s.legal_options() == ["guest:hunting-lodge", "pass"]
    play(s, "guest:hunting-lodge")
    assert gh["workers"] == 0
    assert s.legal_options() == ["return-plantation:sugar-plantation", "pass"]
    play(s, "return-plantation:sugar-plantation")
    assert s.p[1]["island"] == [] and "sugar-plantation" in s.g["tile-discard"]


# -- black market: a noble as the colonist ---------------------------------------------------
def test_black_market_takes_a_noble_back_to_the_noble_supply(s):
    give_building(s, 1, "black-market")
    corn = give_tile(s, 1, "corn-plantation", workers=0, nobles=1)
    s.g["building-supply"]["harbor"] = 1
    set_doubloons(s, 1, 6)
    set_goods(s, 1, indigo=1)
    before = totals(s)
    nobles, colonists = s.g["noble-supply"], s.g["colonist-supply"]
    play(s, "role:builder", "pass", "build:harbor")
    opts = s.legal_options()
    assert "pay-noble:corn-plantation" in opts and "pay-good:indigo" in opts
    assert "pay-colonist:corn-plantation" not in opts  # a noble is there, not a colonist
    assert "pay-noble:black-market" not in opts and "pay-colonist:black-market" not in opts
    play(s, "pay-noble:corn-plantation")
    assert not any(o.startswith("pay-colonist") for o in s.legal_options())  # one of the two
    play(s, "pay-good:indigo")
    assert "harbor" in types(s.p[1]["city"]) and s.p[1]["doubloons"] == 0
    assert (corn["workers"], corn["nobles"]) == (0, 0)
    assert (s.g["noble-supply"], s.g["colonist-supply"]) == (nobles + 1, colonists)
    after = totals(s)
    assert (after["nobles"], after["colonists"]) == (before["nobles"], before["colonists"])


def test_black_market_a_noble_on_the_windrose_alone_makes_the_building_affordable(s):
    give_building(s, 1, "black-market")
    s.g["noble-supply"] -= 1
    s.p[1]["san-juan"] += 1
    s.p[1]["san-juan-nobles"] += 1
    s.g["building-supply"]["harbor"] = 1
    set_doubloons(s, 1, 7)
    play(s, "role:builder", "pass")
    assert "build:harbor" in s.legal_options()
    play(s, "build:harbor")
    assert s.legal_options() == ["pay-noble:windrose"]
    play(s, "pay-noble:windrose")
    assert "harbor" in types(s.p[1]["city"])
    assert (s.p[1]["san-juan"], s.p[1]["san-juan-nobles"]) == (0, 0)
