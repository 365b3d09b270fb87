"""A small ``rulebook train`` set-up on the toy ruleset, shared by the training tests."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from interpreter.learn.train import TrainConfig

TOY = str(Path(__file__).resolve().parents[1] / "toy" / "ruleset.yaml")


def toy_config(out: Path, **changes: Any) -> TrainConfig:
    """One iteration of three toy games with a 20-walk teacher and a hidden layer of 32, with
    ``changes`` (any TrainConfig field) on top."""
    cfg = TrainConfig(
        game=TOY,
        players=2,
        out=str(out),
        iterations=1,
        games=3,
        search="search:iterations=20:depth=10",
        guided_search="search:iterations=20",
        seed=3,
        hidden=(32,),
        epochs=10,
    )
    for name, value in changes.items():
        setattr(cfg, name, value)
    return cfg


def spy_teachers(monkeypatch: Any) -> list[str]:
    """The teacher's bot spec of each self-play iteration ``train`` runs from now on (the games
    are still played)."""
    import interpreter.learn.train as train_module

    seen: list[str] = []
    real = train_module._play

    def spy(pool, head, teacher, *rest):
        seen.append(teacher.bot)
        return real(pool, head, teacher, *rest)

    monkeypatch.setattr(train_module, "_play", spy)
    return seen
