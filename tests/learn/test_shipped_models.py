"""The trained models in examples/models/ still fit this engine: each loads (its composition's
features and actions are the ones it was trained on), plays a whole game from its policy alone
in every seat, and guides a short search in one seat. A change to the features or the action
space that breaks them fails here: retrain them (examples/models/README.md says how) or drop
them."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.learn.model_spaces import LoadedModel, load_cached
from interpreter.simulate.batch import play_game

MODELS = sorted((Path(__file__).resolve().parents[2] / "examples" / "models").glob("*.npz"))


def test_the_models_the_readme_names_are_there() -> None:
    readme = MODELS[0].parent / "README.md" if MODELS else None
    assert readme is not None and readme.exists()
    named = {line.split("`")[1] for line in readme.read_text().splitlines() if ".npz`" in line}
    assert {m.name for m in MODELS} == {Path(n).name for n in named if n.endswith(".npz")}


@pytest.mark.parametrize("path", MODELS, ids=[m.stem for m in MODELS])
def test_a_shipped_model_plays_a_whole_game(path: Path) -> None:
    model = load_cached(str(path))  # refuses a model whose sizes this engine no longer builds
    game = model.spaces.game
    players = game.players
    seats = [f"learned:{path}"] * (players - 1) + [f"search:iterations=3:model={path}"]
    record = play_game(game, seats, seed=11, index=0)
    assert record["winners"]


@pytest.mark.parametrize("path", MODELS, ids=[m.stem for m in MODELS])
def test_a_shipped_model_loads_from_any_working_folder(
    path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its house rule (examples/variants/) is found from the model's own folder, not from
    the folder the trainer ran in."""
    monkeypatch.chdir(tmp_path)
    model = LoadedModel(str(path))  # (not the cached reading, made from the checkout's root)
    assert all(Path(o).is_absolute() for o in model.head["overlays"] if o.endswith(".yaml"))
    model.check(model.spaces.game)  # the composition it was trained for
