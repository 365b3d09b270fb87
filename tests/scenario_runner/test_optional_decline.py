"""`optional: decline` answers a decision's own declining option (its `choose` says
`decline: no-thanks`), not only one called `pass`; answers set in advance find the question
too. Through `rulebook test` on a copy of the toy game whose buying decision declines with
`no-thanks`."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.cli.main import main
from interpreter.engine.loader import load_game
from interpreter.table.answers import questions

TOY = Path(__file__).resolve().parents[1] / "toy" / "ruleset.yaml"

SCENARIO = """\
game: ruleset.yaml
players: 2
seed: 1
scenarios:
  - name: optional decline answers the decision's own declining option
    optional: decline
    steps:
      - seat 0: card:buy-stall
      - seat 1: card:harvest
    expect:
      - log contains: "No thanks"
"""


@pytest.fixture
def no_thanks(tmp_path: Path) -> Path:
    """The toy game, its stall purchase declined with `no-thanks` instead of `pass`."""
    text = TOY.read_text(encoding="utf-8")
    text = text.replace(
        "              label: buy a stall\n",
        "              label: buy a stall\n              decline: no-thanks\n",
    )
    text = text.replace(
        "                  do: buy(actor, st)\n                - id: pass\n",
        "                  do: buy(actor, st)\n                - id: no-thanks\n",
    )
    assert "decline: no-thanks" in text and "- id: no-thanks" in text
    (tmp_path / "ruleset.yaml").write_text(text, encoding="utf-8")
    (tmp_path / "decline.yaml").write_text(SCENARIO, encoding="utf-8")
    return tmp_path


def test_optional_decline_answers_a_declining_option_not_called_pass(capsys, no_thanks):
    code = main(["test", str(no_thanks / "decline.yaml")])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "1 passed" in out


def test_the_question_is_one_answers_set_in_advance_know(no_thanks):
    game = load_game(str(no_thanks / "ruleset.yaml"), 2)
    found = {q.key: q for q in questions(game.rules)}
    assert found["buy a stall"].decline == "no-thanks"
