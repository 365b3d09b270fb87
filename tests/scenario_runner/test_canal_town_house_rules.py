"""Issue 16: each new language feature has a scenario through a real game's rules. Canal Town's
house rules (examples/games/canal-town: first-game.yaml, sealed-stores.yaml, late-seats.yaml)
use `ask-when-only-one` on the flow and on a choose, and `range(a, b)`; their scenarios
(scenarios/house-rules.yaml) pass, fail when an expectation is wrong, and fail when the
feature is taken out of the overlay."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from interpreter.scenario import load_scenarios, run_scenario

ROOT = Path(__file__).resolve().parents[2]
CANAL = ROOT / "examples" / "games" / "canal-town"
SCENARIOS = Path("scenarios") / "house-rules.yaml"

FIRST_ASKED = "first game, a seat with nothing to sell is asked at the market"
FIRST_EXTRA = "first game, the farmer is asked for his only extra ware"
FIRST_DEALT = "first game, the last role of a 4-player round is dealt without asking"
SEALED_ASKED = "sealed stores, a seat with nothing to sell is asked like the others"
SEALED_FORCED = "sealed stores, the farmer's only extra ware is still taken for him"
LATE_3 = "late seats, 3 players, seats 1 and 2 start with 1 coin more"
LATE_4 = "late seats, 4 players, seats 1 to 3 start with 1 coin more"


def _copy(tmp_path: Path, file: Path | str, old: str, new: str) -> Path:
    """Canal Town copied to tmp_path, with `old` replaced by `new` (once) in `file`."""
    dest = tmp_path / "canal-town"
    shutil.copytree(CANAL, dest)
    f = dest / file
    text = f.read_text(encoding="utf-8")
    assert text.count(old) == 1, (file, old)
    f.write_text(text.replace(old, new), encoding="utf-8")
    return dest


def _outcomes(folder: Path) -> dict[str, object]:
    return {o.name: o for o in map(run_scenario, load_scenarios(folder / SCENARIOS))}


def test_the_house_rule_scenarios_pass():
    outcomes = _outcomes(CANAL)
    assert set(outcomes) == {
        FIRST_ASKED,
        FIRST_EXTRA,
        FIRST_DEALT,
        SEALED_ASKED,
        SEALED_FORCED,
        LATE_3,
        LATE_4,
    }
    assert {name: o.status for name, o in outcomes.items()} == dict.fromkeys(outcomes, "pass")


# A wrong expectation in each scenario fails it, and only it, with the value the rules gave.
@pytest.mark.parametrize(
    "name, old, new, message",
    [
        # a seat with nothing to sell taken for (as without the house rule)
        (
            FIRST_ASKED,
            "      - log lacks: (the only choice)\n      - seat 1: {coins: 4}",
            "      - log contains: Pass (sell a ware) (the only choice)\n"
            "      - seat 1: {coins: 4}",
            "expected the log to contain 'Pass (sell a ware) (the only choice)'",
        ),
        # the extra ware taken for him: the next seat would be choosing its role
        (
            FIRST_EXTRA,
            "      - expect: {seat 0 may: [extra:grain]}   # the one kind he makes",
            "      - expect: {to move: 1}",
            "expected seat 1 to move\n    actual: seat 0",
        ),
        # the last role asked (as the flow's `ask-when-only-one: true` alone would)
        (
            FIRST_DEALT,
            "      - log contains: seat 3 takes the Mason (the only choice)",
            "      - log lacks: (the only choice)",
            "expected the log to lack '(the only choice)'",
        ),
        # the market's pass taken for a seat with nothing to sell (as without the house rule)
        (
            SEALED_ASKED,
            "      - log lacks: Pass (sell a ware) (the only choice)",
            "      - log contains: Pass (sell a ware) (the only choice)",
            "expected the log to contain 'Pass (sell a ware) (the only choice)'",
        ),
        # the farmer's only extra ware asked too (as if the whole flow asked)
        (
            SEALED_FORCED,
            "      - log contains: Extra Grain (the only choice)",
            "      - log lacks: Extra Grain (the only choice)",
            "expected the log to lack 'Extra Grain (the only choice)'",
        ),
        # range(1, players) taken for seats 0 to players - 1, or 1 to players - 2
        (
            LATE_3,
            "== [3, 4, 4]",
            "== [4, 4, 4]",
            "actual: list(player(i).coins for i in seats) = [3, 4, 4]",
        ),
        (
            LATE_4,
            "== [2, 3, 3, 3]",
            "== [2, 3, 3, 2]",
            "actual: list(player(i).coins for i in seats) = [2, 3, 3, 3]",
        ),
    ],
)
def test_a_wrong_expectation_fails_its_scenario(tmp_path, name, old, new, message):
    outcomes = _outcomes(_copy(tmp_path, SCENARIOS, old, new))
    failed = {n for n, o in outcomes.items() if o.status != "pass"}
    assert failed == {name}
    assert outcomes[name].status == "fail" and message in outcomes[name].message


# The feature taken out of (or changed in) the overlay fails exactly the scenarios that use it.
@pytest.mark.parametrize(
    "overlay, old, new, failing",
    [
        # the flow's default: every choose with one legal option taken by the engine again
        (
            "first-game.yaml",
            "  flow/ask-when-only-one: true\n",
            "",
            {FIRST_ASKED, FIRST_EXTRA, FIRST_DEALT},
        ),
        # the one choose that opts back out: the last role is asked too
        (
            "first-game.yaml",
            "  flow/round/1/each-player/steps/0/choose/ask-when-only-one: false\n",
            "",
            {FIRST_DEALT},
        ),
        # wares in the open: the market reads no hidden field, so a seat with nothing to sell
        # is skipped again (the engine asks a lone option only where a secret decides it)
        (
            "sealed-stores.yaml",
            "  state/player/store: {hidden: true}\n",
            "  state/player/store: {hidden: false}\n",
            {SEALED_ASKED},
        ),
        ("late-seats.yaml", "in range(1, players):", "in range(0, players):", {LATE_3, LATE_4}),
        ("late-seats.yaml", "in range(1, players):", "in range(1, players - 1):", {LATE_3, LATE_4}),
        ("late-seats.yaml", "in range(1, players):", "in range(2, players):", {LATE_3, LATE_4}),
    ],
)
def test_the_scenarios_fail_without_the_feature(tmp_path, overlay, old, new, failing):
    outcomes = _outcomes(_copy(tmp_path, overlay, old, new))
    assert {n for n, o in outcomes.items() if o.status != "pass"} == failing
