"""The model-driven bots through the real engine: a model of each shipped game plays a whole
game (``learned:FILE`` in every seat but one, ``search:...:model=FILE`` in that one), a model
of another composition is refused with a message naming both, and ``learned:`` never
searches."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.bots import make_bot
from interpreter.bots.search import SearchBot
from interpreter.diagnostics.errors import ConfigError
from interpreter.infoset.worlds import SeatView
from interpreter.learn.model import PolicyValueNet, save_model
from interpreter.learn.model_spaces import composition, spaces_of
from interpreter.simulate.batch import play_game

ROOT = Path(__file__).resolve().parents[2]
TOY = str(ROOT / "tests" / "toy" / "ruleset.yaml")


def _model(tmp_path: Path, game: str, players: int, overlays: list[str] | None = None) -> str:
    """An untrained model of one composition, written as 'rulebook train' writes one."""
    overlays = overlays or []
    spaces = spaces_of({"game": game, "players": players, "overlays": overlays, "options": {}})
    net = PolicyValueNet(spaces.observations.size, spaces.actions.size, players, (16,), seed=1)
    head = composition(game, players, overlays, {}, spaces.game)
    path = tmp_path / f"{Path(game).stem}-{players}.npz"
    save_model(path, net, head)
    return str(path)


@pytest.mark.parametrize(
    ("game", "players"),
    [
        ("puerto-rico", 3),
        ("san-juan", 3),
        (str(ROOT / "examples/games/canal-town/ruleset.yaml"), 2),
    ],
)
def test_a_saved_model_plays_a_full_game(tmp_path: Path, game: str, players: int) -> None:
    path = _model(tmp_path, game, players)
    spaces = spaces_of({"game": game, "players": players, "overlays": [], "options": {}})
    # an untrained model sampled (temperature=1): greedy, its fixed preferences may never end
    seats = [f"learned:{path}:temperature=1"] * (players - 1) + [
        f"search:iterations=3:model={path}"
    ]
    record = play_game(spaces.game, seats, seed=11, index=0)
    assert record["winners"] and record["decisions"] > 10


def test_a_model_of_another_composition_is_refused(tmp_path: Path) -> None:
    path = _model(tmp_path, TOY, 2)
    spaces = spaces_of({"game": TOY, "players": 3, "overlays": [], "options": {}})
    state = spaces.game.new_state(1)
    bot = make_bot(f"learned:{path}", 0, 1)
    with pytest.raises(ConfigError, match="trained for market-day, 2 players.*3 players"):
        bot.choose(SeatView(state, state.to_move), state.legal_options())


def test_learned_bot_does_not_search(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = _model(tmp_path, TOY, 2)
    spaces = spaces_of({"game": TOY, "players": 2, "overlays": [], "options": {}})

    def forbidden(*args: object, **kwargs: object) -> None:
        raise AssertionError("the learned bot searched")

    monkeypatch.setattr(SearchBot, "choose", forbidden)
    monkeypatch.setattr(SeatView, "determinise", forbidden)
    record = play_game(spaces.game, [f"learned:{path}", f"learned:{path}:temperature=1"], 5, 0)
    assert record["winners"]


def test_learned_needs_a_model_file(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="does not exist"):
        make_bot(f"learned:{tmp_path / 'missing.npz'}", 0, 0)
    with pytest.raises(ConfigError, match="name the model file"):
        make_bot("learned", 0, 0)
