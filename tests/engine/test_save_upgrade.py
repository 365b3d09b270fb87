"""Old saves (formats 1, 2 and 3) are read by converting their choices into format 4.

The saves in old_saves/ were written by random games played under each old format (San Juan
with lone passes owed to a hand, Puerto Rico with The New Buildings, whose black market pays
with a hidden VP chip); ``STATES`` holds a digest of each game's final `g` and `p` as the old
engine reached it. The converted choices must replay, under this engine, to that same state.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from interpreter import load_game
from interpreter.diagnostics.errors import ReplayError
from interpreter.engine.save_upgrade import upgrade_choices

OLD_SAVES = Path(__file__).parent / "old_saves"

# file: (digest of the final g and p the old engine reached, old choices, format-4 choices)
STATES = {
    "san-juan-format-2.json": (
        "afa28f589d41c95c1e620e0d0f9d76b72607beafbc757e4f48de2f5b377fccc2",
        182,
        189,
    ),
    "san-juan-format-3.json": (
        "01051be91d364695ced672c40e5a4dea7487c05410ca470f7d36713d5a64a274",
        275,
        273,
    ),
    "puerto-rico-format-1.json": (
        "82abdb77e4943aa91ecaea900e0415d229a1667e9fa763c7e9dbf3c363702109",
        608,
        540,
    ),
    "puerto-rico-format-2.json": (
        "7e5f57d494cd30a4211162af1ec04ae3253462b90e02dad90fea5675870a19e8",
        501,
        501,
    ),
    "puerto-rico-format-3.json": (
        "ba4fbf263afedc9ecec770aa54582125d47f86ab9c3036ed63e58d57ebbdef97",
        416,
        415,
    ),
}


def _digest(state) -> str:
    data = json.dumps([state.g, state.p], sort_keys=True, default=repr)
    return hashlib.sha256(data.encode()).hexdigest()


def _game(data: dict):
    return load_game(
        data["game"], data["players"], overlays=tuple(data["overlays"]), options=data["options"]
    )


@pytest.mark.parametrize("name", sorted(STATES))
def test_an_old_save_converts_and_replays_to_the_state_it_reached(name):
    digest, old_count, new_count = STATES[name]
    data = json.loads((OLD_SAVES / name).read_text(encoding="utf-8"))
    assert len(data["choices"]) == old_count
    game = _game(data)
    choices = upgrade_choices(game, data["format"], data["seed"], data["choices"], name)
    assert len(choices) == new_count
    state = game.new_state(data["seed"])
    for choice in choices:
        state.apply(choice)
    assert state.is_over and _digest(state) == digest
    recorded = data["result"]
    assert [s["total"] for s in recorded["scores"]] == [s["total"] for s in state.result().scores]
    assert (recorded["winner"], recorded["rounds"]) == (state.result().winner, state.round)


def test_a_corrupted_old_save_is_a_replay_error_naming_file_and_choice(tmp_path):
    data = json.loads((OLD_SAVES / "san-juan-format-2.json").read_text(encoding="utf-8"))
    data["choices"][5] = "no-such-option"
    with pytest.raises(ReplayError) as caught:
        upgrade_choices(_game(data), data["format"], data["seed"], data["choices"], "old.json")
    message = str(caught.value)
    assert message.startswith("old.json: choice 6 of the rulebook-save/2 save")
    assert "save, 'no-such-option', is not a legal option there" in message


def test_an_old_save_with_choices_left_over_is_a_replay_error():
    data = json.loads((OLD_SAVES / "san-juan-format-3.json").read_text(encoding="utf-8"))
    data["choices"].append(data["choices"][-1])
    with pytest.raises(ReplayError, match="game is over after choice 275 .1 left over."):
        upgrade_choices(_game(data), data["format"], data["seed"], data["choices"], "x.json")


def test_a_partial_old_save_converts_to_the_decisions_played():
    data = json.loads((OLD_SAVES / "san-juan-format-2.json").read_text(encoding="utf-8"))
    game = _game(data)
    whole = upgrade_choices(game, data["format"], data["seed"], data["choices"])
    part = upgrade_choices(game, data["format"], data["seed"], data["choices"][:40])
    assert part == whole[: len(part)] and len(part) >= 40
