"""A game's load reads its typed rules once: the flow the compiler runs is the loader's typed
flow with the phase `may` (written from the cards' offers) added (`FlowSection.extended_by`),
and it must be exactly the flow read anew from the tree with that phase written in; likewise
the state, with the bags the offers wait in (`pending_fields`)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from interpreter.compose.rulefiles import load_rules_data
from interpreter.model.may import ASK_PHASE, expand_may, pending_fields
from interpreter.ruleset.flow_steps import FlowSection
from interpreter.ruleset.nodes import NOWHERE
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


@pytest.mark.parametrize("game", list(GAMES.values()), ids=list(GAMES))
def test_the_typed_state_with_the_offers_bags_is_the_state_read_anew(game: str) -> None:
    """The state the compiler declares is the loader's typed fields with the bags the offers
    wait in (`pending_fields`): exactly the fields read anew from the tree they are written
    into, in the same order (where each was written aside: the engine writes the bags)."""
    ruleset = Ruleset.from_data(load_rules_data(game, [])[0])
    added = pending_fields(ruleset)
    assert added and all(f.scope == "player" and f.kind == "bag" for f in added)
    anew = Ruleset.from_data(expand_may(ruleset)).fields
    assert [replace(f, pos=NOWHERE) for f in (*ruleset.fields, *added)] == [
        replace(f, pos=NOWHERE) for f in anew
    ]
