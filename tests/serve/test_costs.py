"""Option texts name what the deciding seat really pays and why: the ruleset's `cost:` hooks
(presentation/options/F/cost), compiled like rules and evaluated on the live state."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from interpreter.cli.main import main
from interpreter.engine.loader import load_game_and_data
from interpreter.table.offers import options_of
from interpreter.table.option_costs import cost_text
from interpreter.table.presenter import Presentation

PAY = re.compile(r"— (\d+) (\w+)(?:, you pay (\d+)(?: with (.*?))?)?(?:;|$)")


def _build_decisions(game: str, players: int, overlays: tuple[str, ...], seeds: range):
    """(state, presentation) at every decision with a build option, over random games."""
    loaded, data = load_game_and_data(game, players, overlays)
    pres = Presentation.from_data(data)
    for seed in seeds:
        state = loaded.new_state(seed)
        rng = random.Random(seed)
        while not state.is_over:
            legal = state.legal_options()
            if any(o.startswith("build:") for o in legal):
                yield state, pres
            state.apply(rng.choice(legal))


def test_puerto_rico_build_texts_say_what_the_builder_really_pays():
    """The text's "you pay N" is what the seat's doubloons go down by when it builds; the
    reasons name quarries and the privilege when they apply."""
    reasons: set[str] = set()
    checked = 0
    for state, pres in _build_decisions("puerto-rico", 3, (), range(4)):
        seat = state.to_move
        for option in (o for o in options_of(state, pres, seat) if o["family"] == "build"):
            found = PAY.search(option["text"])
            assert found, option["text"]
            price, unit, pay, why = found.groups()
            pay = int(pay if pay is not None else price)
            assert unit == ("doubloon" if price == "1" else "doubloons")
            trial = state.copy()
            before = trial.p[seat]["doubloons"]
            trial.apply(option["id"])
            assert before - trial.p[seat]["doubloons"] == pay, option["text"]
            reasons.update(re.split(r" and |, ", why or ""))
            checked += 1
    assert checked > 100
    assert {"1 quarry", "the builder's privilege"} <= reasons


def test_the_issues_example_reads_as_asked():
    """A builder with an occupied quarry and no privilege: "1 doubloon, you pay 0 with 1 quarry"."""
    for state, pres in _build_decisions("puerto-rico", 3, (), range(6)):
        text = cost_text(state, "build:small-market")
        if text is not None and "with 1 quarry" in text and "privilege" not in text:
            full = pres.option_text("build:small-market", None, text)
            assert full == "Build Small market — 1 doubloon, you pay 0 with 1 quarry; 1 VP"
            return
    pytest.fail("no game of these seeds had a small market to build with one quarry")


def test_san_juan_build_texts_name_the_privilege_and_the_card_discounts():
    texts = []
    for state, pres in _build_decisions("san-juan", 3, (), range(4)):
        options = options_of(state, pres, state.to_move)
        texts += [o["text"] for o in options if o["family"] == "build"]
    assert all(re.search(r"— \d+ cards?", t) for t in texts)
    assert any("you pay" in t and "with the builder's privilege" in t for t in texts)
    assert any("the smithy" in t or "the quarry" in t for t in texts)


def test_evaluating_a_cost_changes_nothing():
    loaded, _ = load_game_and_data("san-juan", 2)
    state = loaded.new_state(3)
    rng = random.Random(3)
    while not any(o.startswith("build:") for o in state.legal_options()):
        state.apply(rng.choice(state.legal_options()))
    scratch = dict(state.t)
    digest = repr((state.g, state.p, state.v))
    for option in state.legal_options():
        cost_text(state, option)
    assert state.t == scratch and repr((state.g, state.p, state.v)) == digest


def test_a_ruleset_without_cost_hooks_has_no_cost_texts():
    toy = Path(__file__).resolve().parents[1] / "toy" / "ruleset.yaml"
    loaded, _ = load_game_and_data(str(toy), 2)
    state = loaded.new_state(1)
    assert loaded.rules.costs == {}
    assert all(cost_text(state, o) is None for o in state.legal_options())


def test_a_slip_in_a_cost_hook_is_a_located_diagnostic(tmp_path, capsys):
    bad = tmp_path / "bad-cost.yaml"
    bad.write_text(
        "overlay: bad-cost\nextends: puerto-rico\nreplace:\n"
        "  presentation/options/build/cost/pay: build-cst(p, b)\n"
    )
    assert main(["validate", str(bad)]) == 1
    err = capsys.readouterr()
    text = err.out + err.err
    assert f"{bad}:4:40: error[D003]: unknown function 'build-cst'" in text
    assert "did you mean 'build-cost'?" in text
