"""A game's load reads its typed rules once: the flow the compiler runs is the loader's typed
flow with the phase `may` (written from the cards' offers) added (`FlowSection.extended_by`),
and it must be exactly the flow read anew from the tree with that phase written in."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.compose.rulefiles import load_rules_data
from interpreter.model.may import ASK_PHASE, expand_may
from interpreter.ruleset.flow_steps import FlowSection
from interpreter.ruleset.ruleset import Ruleset

HERE = Path(__file__).resolve().parent


GAMES = {
    "puerto-rico": "puerto-rico",
    "charms": str(HERE / "charms" / "ruleset.yaml"),
    "crown": str(HERE / "crown" / "ruleset.yaml"),  # an offer `for:` each value
}


@pytest.mark.parametrize("game", list(GAMES.values()), ids=list(GAMES))
def test_the_loaders_flow_with_the_may_phase_is_the_flow_read_anew(game: str) -> None:
    ruleset = Ruleset.from_data(load_rules_data(game, [])[0])
    written = expand_may(ruleset)
    assert written is not ruleset.data  # the cards' offers wrote the phase in
    extended = ruleset.flow.extended_by(written)
    assert ASK_PHASE in extended.phases and ASK_PHASE not in ruleset.flow.phases
    assert extended == FlowSection.from_data(written)
