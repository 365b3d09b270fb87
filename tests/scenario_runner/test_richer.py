"""The richer scenario language (issue 14): what a seat sees, checks of a seat that does not
decide, piles in any order, the order of log events, a deck stacked in one set-up, unknown
cards in a set-up, `rulebook test --seed`. Each has a passing scenario in tests/scenarios/
(views-and-order.yaml, views.yaml) and here a failing one with its exact message."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.cli.main import main
from interpreter.scenario import load_scenarios, run_scenario
from interpreter.scenario.games import scenario_game
from interpreter.scenario.runner import _Run

FIXTURES = Path(__file__).resolve().parent / "language"  # apart: fixtures/ has fixed counts
ROOT = FIXTURES.parents[2]
OUTCOMES = {o.name: o for o in map(run_scenario, load_scenarios(FIXTURES / "richer.yaml"))}
CARDS_LEFT = (
    "aqueduct x3, archive x3, black-market x3, carpenter x2, chapel x3, city-hall x2, "
    "coffee-roaster x8, crane x3, gold-mine x3"
)

EXPECTED = {
    "sees a secret hand": (
        "fail",
        14,
        "expected seat 1 sees seat 0 hand\n"
        "    actual: seat 0 hand is shown as a count to seat 1: 2",
    ),
    "does not see a city": (
        "fail",
        18,
        "expected seat 1 does not see seat 0 city\n"
        "    actual: seat 0 city is shown to seat 1: [{type: indigo-plant, good: 0, fresh: 0}]",
    ),
    "sees a count that is wrong": (
        "fail",
        22,
        "expected seat 1 sees seat 0 hand as a count of 3\n"
        "    actual: seat 0 hand is shown as a count to seat 1: 2",
    ),
    "may not for a seat that does not decide": (
        "error",
        26,
        "`seat 2 may not: [role:builder]` checks what seat 2 may do, but seat 0 is to decide: "
        "it would pass whatever the rules say; put it where seat 2 decides",
    ),
    "refused for a seat that does not decide": (
        "error",
        30,
        "`refused: seat 1: role:builder` checks what seat 1 may do, but seat 0 is to decide: "
        "it would pass whatever the rules say; put it where seat 1 decides",
    ),
    "a hand in any order, wrong": (
        "fail",
        34,
        "expected seat 0 hand: {any order: [library, palace, palace]}\n"
        "    actual: [palace, library]",
    ),
    "the log out of order": (
        "fail",
        41,
        "expected the log in the order [seat 0 keeps, seat 0 takes the Councillor]\n"
        "    but 'seat 0 takes the Councillor' does not follow after line 3: 'seat 0 keeps a "
        "card'; it is only before, in line 2: 'seat 0 takes the Councillor'",
    ),
    "a stacked card that is not in the deck": (
        "error",
        46,
        "set-up refused: global deck top: no 'guild-hall' left in global deck to put on top "
        f"(looked in global deck: it holds 99: {CARDS_LEFT}, hero x3, ",
    ),
    "a stacked card that does not exist": (
        "error",
        50,
        "set-up refused: global deck top: unknown id 'librery'; did you mean 'library'? "
        f"(looked in global deck; it holds 97: {CARDS_LEFT}, guild-hall x2, ",
    ),
    "a card that does not exist in a hand": (
        "error",
        54,
        "set-up refused: seat 1 hand: unknown id 'librery'; did you mean 'library'? (seat 1 "
        "hand holds the ids of its set, 29: aqueduct, archive, black-market, carpenter, ",
    ),
}


@pytest.mark.parametrize("name", list(EXPECTED))
def test_a_wrong_scenario_says_exactly_what(name):
    status, line, message = EXPECTED[name]
    o = OUTCOMES[name]
    assert (o.status, o.where.line) == (status, line), o.message
    if message.endswith(", "):  # a pile's whole contents follow: the start is enough
        assert o.message.startswith(message), o.message
    else:
        assert o.message == message


def test_every_failing_scenario_is_checked():
    assert set(OUTCOMES) == set(EXPECTED)


def test_the_passing_scenarios_of_each_feature_pass():
    files = ["san-juan/views-and-order.yaml", "puerto-rico/views.yaml"]
    outcomes = [
        run_scenario(sc) for f in files for sc in load_scenarios(ROOT / "tests" / "scenarios" / f)
    ]
    assert [o.status for o in outcomes] == ["pass"] * 3, [o.message for o in outcomes]


def _cards(s) -> list[str]:
    return sorted([*s.g["deck"], *s.g["discard"], *(c for p in s.p for c in p["hand"])])


def test_a_stacked_deck_is_drawn_first_listed_first_and_keeps_its_totals():
    sc = load_scenarios(ROOT / "tests/scenarios/san-juan/views-and-order.yaml")[0]
    game, info = scenario_game(sc)
    run = _Run(sc, game, info)
    for setup in sc.setups:
        run.setup(setup)
    deck = run.s.g["deck"]
    assert deck[-9:] == [
        "crane", "well", "chapel", "tower", "smithy", "archive", "quarry", "statue", "library"
    ]  # fmt: skip
    assert _cards(run.s) == _cards(game.new_state(sc.seed))


def test_seed_overrides_the_scenarios_own(capsys):
    seeded = str(FIXTURES / "seeded.yaml")
    assert main(["test", seeded]) == 0
    capsys.readouterr()
    assert main(["test", seeded, "--seed", "7", "--no-steps"]) == 1
    out = capsys.readouterr().out
    assert (
        "seeded.yaml:6:14: expected seat 0 hand: {any order: [aqueduct, guild-hall, sugar-mill, "
        "triumphal-arch]}\n    actual: [smithy, tobacco-storage, poor-house, market-hall]"
    ) in out
    assert main(["test", seeded, "--seed", "-1"]) == 2
