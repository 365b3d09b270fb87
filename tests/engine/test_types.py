"""The type rules of the effect language (interpreter/dsl/resolve/type_checker.py), on the toy
game's names: each ill-typed text is refused at load with its code, at the offending token, with a
message that says what was expected and what was found; well-typed texts pass."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.dsl.compiler import Compiler, Emit, EmitPlan, Scope
from interpreter.dsl.parse.parser import DslSyntaxError, parse
from interpreter.dsl.parse.unparse import show_tree
from interpreter.dsl.resolve.types import SEAT
from interpreter.engine.loader import load_game

TOY = Path(__file__).resolve().parents[1] / "toy" / "ruleset.yaml"


@pytest.fixture(scope="module")
def dsl() -> Compiler:
    game = load_game(str(TOY), players=3)
    root = Scope(None)
    root.bindings["chooser"] = ("var", "chooser")
    game.env.types.variables["chooser"] = SEAT
    return Compiler(game.env, root, EmitPlan(Emit.CHECK_ONLY))


def fault(dsl: Compiler, text: str, statements: bool = False) -> DslSyntaxError:
    with pytest.raises(DslSyntaxError) as err:
        if statements:
            dsl.statements(text, dsl.root.child())
        else:
            dsl.expression(text, dsl.root.child())
    return err.value


@pytest.mark.parametrize(
    ("text", "code", "column", "words"),
    [
        ('"x" + 3', "D008", 1, "'+' needs numbers, got a text ('x')"),
        ("turnip + 1", "D008", 1, "got an id of crops ('turnip')"),
        ("stall-row + 1", "D008", 1, "a pile of stalls"),
        ("-turnip", "D008", 1, "'-' needs numbers"),
        ("turnip == 3", "D008", 1, "compares an id of crops ('turnip') with a whole number"),
        ("turnip == bell", "D008", 1, "with an id of stalls ('bell')"),
        ("chooser.stalls <= 1", "D008", 1, "compares an area of stalls with a whole number"),
        (
            "bell in crops",
            "D008",
            1,
            "looks for an id of stalls ('bell') in a list of ids of crops",
        ),
        ("3 in 4", "D008", 1, "not a collection"),
        ("price[chooser]", "D008", 7, "a table by crops is read by a key: expected an id of"),
        ("crop-pool[bell]", "D008", 11, "a bag of crops is read by a key"),
        ("start-coins[turnip]", "D008", 13, "a table by number"),
        ("stall-row[turnip]", "D008", 11, "a list's position"),
        ("len(3)", "D008", 5, "len() of a whole number"),
        ("total(stall-row)", "D008", 7, "total() of a pile of stalls"),
        ("sum(crops)", "D008", 5, "sum() of a list of ids of crops"),
        ("player(turnip)", "D008", 8, "player() needs numbers"),
        ("chooser.stalls.cost", "D009", 16, "field 'cost' of an area of stalls"),
        ("turnip.cost", "D009", 8, "of an id of crops ('turnip'), which has no fields"),
        ("bell.staffed", "D009", 6, "a field of a placed piece"),
        ("host.coins", "D009", 6, "of a whole number"),
        ("has(chooser.stalls, turnip)", "D008", 21, "expected an id of stalls"),
        ("find(stall-row, bell)", "D008", 6, "expected an area, got a pile of stalls"),
        ("1 if 2 else 3", "D008", 6, "a condition must be true or false"),
    ],
)
def test_ill_typed_expressions(dsl, text, code, column, words):
    err = fault(dsl, text)
    assert (err.code, err.column) == (code, column), err.message
    assert words in err.message


@pytest.mark.parametrize(
    ("text", "column", "words"),
    [
        (
            "place(harvest, chooser.stalls)",
            7,
            "argument 1 of 'place': expected an id of stalls, got an id of cards ('harvest')",
        ),
        ("place(bell, stall-row)", 13, "argument 2 of 'place': expected an area, got a pile"),
        ("push(stall-row, turnip)", 17, "expected an id of stalls, got an id of crops"),
        ("remove(chooser.stalls, bell)", 24, "expected a piece of stalls, got an id of stalls"),
        ("earn(chooser, turnip)", 15, "argument 2 of 'earn': expected a whole number"),
        ("chooser.coins += turnip", 18, "'+=' needs numbers"),
        ("chooser.stalls = 3", 1, "cannot be replaced"),
        ("crop-pool[turnip] = bell", 21, "expected a whole number, got an id of stalls"),
        ("if chooser.coins:\n  pass", 4, "a condition must be true or false"),
        ("for x in 3:\n  pass", 10, "cannot loop over a whole number"),
    ],
)
def test_ill_typed_statements(dsl, text, column, words):
    err = fault(dsl, text, statements=True)
    assert err.code == "D008" and err.column == column, err.message
    assert words in err.message


@pytest.mark.parametrize(
    "text",
    [
        "max(0, bell.cost - (1 if chooser == chooser else 0))",
        "sum(x.renown for x in chooser.stalls if x.staffed > 0)",
        "count(k for k in crops if chooser.basket[k] > 0 and buyers[k] > 0)",
        "list(x.type for x in chooser.stalls) + list(stall-row)",
        "len(distinct(stall-row)) + total(buyers) + start-coins[players] + price[turnip]",
        "option.coin-rate == thrifty and option.last-round > round",
        "first(x for x in chooser.stalls if x.crop == turnip) == none",
        "player(chooser + 1).coins // 3 % players",
        "find(chooser.stalls, bell).staffed + len(keys(crop-pool))",
    ],
)
def test_well_typed_texts_pass(dsl, text):
    dsl.expression(text, dsl.root.child())


def test_functions_are_checked_with_the_arguments_types(dsl):
    # can-buy(p, st) reads st.cost: a crop has none, and the fault is the call's argument
    err = fault(dsl, "can-buy(chooser, turnip)")
    assert err.code == "D009" and err.column == 18
    assert err.message.startswith("argument 2 of 'can-buy': an id of crops ('turnip') does not")


@pytest.mark.parametrize(
    "text",
    ["a - (b - c)", "(a + b) * c", "not (a or b)", "f(x for x in y if z)", "p.q[r].s", "-(a + 1)"],
)
def test_messages_show_the_text_as_written(text):
    assert show_tree(parse(text, "expr")) == text


# -- ids of one of several catalogs (OneOf) -------------------------------------------------------
MIXED = "(stall-row + cards-in-play)[0]"  # an id of cards or stalls (a first(...): or none)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        (
            f"{MIXED}.cost",
            "reads 'cost' of an id of cards or stalls, but cards has no field 'cost'",
        ),
        (f"{MIXED} == chooser", "compares an id of cards or stalls with a seat"),
        (f"{MIXED} == turnip", "compares an id of cards or stalls with an id of crops"),
        (f"len(chooser.stalls) + {MIXED}", "'+' needs numbers, got an id of cards or stalls"),
    ],
)
def test_an_id_of_one_of_several_catalogs_is_not_any(dsl, text, words):
    err = fault(dsl, text)
    assert words in err.message, err.message


@pytest.mark.parametrize("text", [f"{MIXED} == bell", f"{MIXED} in stall-row", f"{MIXED} != none"])
def test_an_id_of_one_of_several_catalogs_compares_with_an_id_of_either(dsl, text):
    dsl.expression(text, dsl.root.child())


def test_one_of_fits_where_each_member_fits_and_not_where_only_one_does():
    from interpreter.dsl.resolve.types import (
        ANY,
        Id,
        ListOf,
        OneOf,
        Pile,
        assignable,
        describe,
        one_of,
    )

    mixed = one_of(Pile("stalls"), Pile("cards"))
    assert mixed == ListOf(OneOf((Id("cards"), Id("stalls"))))
    assert describe(mixed.item) == "an id of cards or stalls"
    assert not assignable(mixed.item, Id("stalls")) and not assignable(mixed.item, SEAT)
    assert assignable(Id("stalls"), mixed.item) and assignable(mixed.item, ANY)
    assert one_of(Id("stalls"), Id("stalls")) == Id("stalls")
