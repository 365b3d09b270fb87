"""A log line may carry a text only one seat reads (the names of its own hidden pieces): an
option's ``log: {text, own}``, a ``log:`` step's ``{text, own, seat}`` and the statement
``log "PUBLIC" own "OWN" for SEAT``. ``state.log`` keeps the public text for every reader;
``state.log_for(seat)`` gives that seat its own. Through the real engine, on the small game of
``tests/validate/fixtures/secrets/own-lines.yml`` (which the leak check passes)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from interpreter.diagnostics.errors import RulesError
from interpreter.dsl.runtime.loglines import OwnLine, Yours, line_for
from interpreter.engine.loader import load_game
from tests.engine.old_policies import taking_every_lone_decision

FIXTURES = Path(__file__).resolve().parents[1] / "validate" / "fixtures"
FIXTURE = FIXTURES / "secrets" / "own-lines.yml"


def _names(game) -> set[str]:
    return {game.rules.words.text(g) for g in ("ruby", "jade", "opal", "onyx", "pearl", "amber")}


def test_options_and_statements_write_lines_whose_own_text_only_their_seat_reads():
    game = load_game(str(FIXTURE), 2)
    s = game.new_state(3)
    hand = list(s.p[0]["hand"])
    gem = hand[0]
    s.apply(f"give:{gem}")
    public = [text for _r, _seat, text in s.log]
    assert public[-2:] == ["seat 0 gives a gem", f"seat 0 holds {len(s.p[0]['hand'])} gems"]
    mine = [text for _r, _seat, text in s.log_for(0)]
    name = game.rules.words.text(gem)
    assert mine[-2] == f"you give {name}"
    assert mine[-1] == f"you hold {game.rules.words.text(s.p[0]['hand'])}"
    assert all(type(t) is Yours for t in mine[-2:])  # a reader puts no "seat 0:" before them
    for reader in (1, None, -1):
        theirs = [text for _r, _seat, text in s.log_for(reader)]
        assert theirs == public
        assert not any(n in line for line in theirs for n in _names(game))
    # the log itself is the public log: saved, dumped and compared as plain text
    assert json.dumps(s.log) == json.dumps(s.log_for(None))
    assert s.log[-2][1] == 0 and s.log_for(0)[-2][1] == 0  # an option's line keeps its seat


def test_a_forced_move_keeps_its_own_text():
    game = load_game(str(FIXTURE), 2)
    # one legal option: the engine takes it (as it took every one, hidden-dependent too)
    s = taking_every_lone_decision(game).new_state(3)
    s.p[0]["hand"][:] = ["opal", "opal"]
    s.pending = None
    s.game.advance(s)  # type: ignore[attr-defined]
    forced = [text for _r, _seat, text in s.log if str(text).endswith("(the only choice)")]
    assert forced and isinstance(forced[0], OwnLine)
    assert str(forced[0]) == "seat 0 gives a gem (the only choice)"
    assert line_for(forced[0], 0) == "you give Opal (the only choice)"


def _rules(tmp_path: Path, step: str) -> str:
    text = FIXTURE.read_text(encoding="utf-8").replace(
        "  end-after-round-if: round >= rounds\n",
        f"    - {step}\n  end-after-round-if: round >= rounds\n",
    )
    path = tmp_path / "own-step.yaml"
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_a_log_step_names_the_seat_that_reads_its_own_text(tmp_path):
    step = 'log: {text: "seat 0 counts", own: "you count {player(0).hand}", seat: "0"}'
    game = load_game(_rules(tmp_path, step), 2)
    s = game.new_state(1)
    while s.round < 2 and not s.is_over:
        s.apply(s.legal_options()[0])
    public = [text for _r, _seat, text in s.log_for(1)]
    assert "seat 0 counts" in public
    assert any(t.startswith("you count ") for _r, _seat, t in s.log_for(0))


def test_a_log_step_without_its_seat_and_an_own_text_for_no_seat_are_errors(tmp_path):
    with pytest.raises(RulesError) as caught:
        load_game(_rules(tmp_path, 'log: {text: "seat 0 counts", own: "you count"}'), 2)
    assert "D002" in str(caught.value) and "seat:" in str(caught.value)
    text = FIXTURE.read_text(encoding="utf-8").replace(
        'own "you hold {actor.hand}" for actor', 'own "you hold {actor.hand}" for actor.hand'
    )
    path = tmp_path / "own-pile.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(RulesError) as caught:
        load_game(str(path), 2)
    assert "D008" in str(caught.value) and "the seat of a log line's own text" in str(caught.value)
