"""A tiny counting game implementing exactly the engine API the command line codes against.

Seats take turns adding 1 or 2 (4 with the ``big`` overlay) to a shared total; the game ends
when the total reaches the ``target`` option. Each seat also holds a hidden seeded ``secret``
(only its own view shows it) that counts in the score, so seeds and hidden views matter.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from interpreter.diagnostics.errors import ConfigError, IllegalOptionError
from interpreter.load.catalog import GameInfo, OptionInfo, OverlayInfo

NAME = "counting"
OVERLAYS = {"big": "Big steps"}
OPTIONS = {
    "target": (12, None, "total that ends the game"),
    "mode": ("plain", ["plain", "odd"], ""),
}


@dataclass
class Result:
    scores: list[dict]
    winner: int
    winners: list[int]  # the tiebreak (minus the seat) leaves one
    rounds: int
    decisions: int
    trigger: str | None


class FakeState:
    def __init__(self, game: FakeGame, seed: int) -> None:
        rng = random.Random(seed)
        self.game = game
        self.total = rng.randrange(3)
        self.secret = [rng.randrange(5) for _ in range(game.players)]
        self.added = [0] * game.players
        self.seat = 0
        self.round = 1
        self.decisions = 0
        self.take_forced = True
        self.history: list[str] = []
        self.log: list[tuple[int, int | None, str]] = [
            (0, None, f"the count starts at {self.total}")
        ]

    @property
    def is_over(self) -> bool:
        return self.total >= self.game.options["target"]

    @property
    def to_move(self) -> int | None:
        return None if self.is_over else self.seat

    def legal_options(self) -> list[str]:
        steps = [1, 2, 4] if "big" in self.game.overlays else [1, 2]
        return [f"add:{n}" for n in steps]

    def apply(self, option: str) -> None:
        legal = self.legal_options()
        if self.is_over or option not in legal:
            raise IllegalOptionError(option, [] if self.is_over else legal)
        n = int(option.split(":")[1])
        self.total += n
        self.added[self.seat] += n
        self.history.append(option)
        self.decisions += 1
        self.log.append((self.round, self.seat, f"adds {n}, count {self.total}"))
        if self.is_over:
            self.log.append((self.round, None, "target reached"))
            return
        self.seat = (self.seat + 1) % self.game.players
        if self.seat == 0:
            self.round += 1

    def copy(self) -> FakeState:
        other = FakeState.__new__(FakeState)
        other.__dict__ = {k: (list(v) if isinstance(v, list) else v) for k, v in vars(self).items()}
        return other

    def view(self, seat: int) -> dict:
        return {
            "round": self.round,
            "count": self.total,
            "you": {"seat": seat, "secret": self.secret[seat]},
            "added": list(self.added),
        }

    def result(self) -> Result:
        assert self.is_over
        scores = [
            {
                "seat": s,
                "total": self.added[s] + self.secret[s],
                "components": {"added": self.added[s], "secret": self.secret[s]},
                "tiebreak": -s,
            }
            for s in range(self.game.players)
        ]
        best = max(scores, key=lambda sc: (sc["total"], sc["tiebreak"]))
        return Result(scores, best["seat"], [best["seat"]], self.round, self.decisions, "target")


class FakeGame:
    def __init__(self, players: int, overlays: Sequence[str], options: Mapping[str, Any]) -> None:
        self.name = NAME
        self.title = "Counting Game"
        self.players = players
        self.overlays = tuple(overlays)
        self.options = {name: spec[0] for name, spec in OPTIONS.items()}
        self.options.update(options)

    def new_state(
        self,
        seed: int,
        *,
        take_forced: bool = True,
    ) -> FakeState:
        state = FakeState(self, seed)
        state.take_forced = take_forced  # every decision here has several options anyway
        return state


def load_game(
    name_or_path: str,
    players: int,
    overlays: Sequence[str] = (),
    options: Mapping[str, object] | None = None,
) -> FakeGame:
    if name_or_path != NAME:
        raise ConfigError(f"unknown game {name_or_path!r}")
    if not 2 <= players <= 4:
        raise ConfigError(f"{NAME} is for 2 to 4 players, not {players}")
    for overlay in overlays:
        if overlay not in OVERLAYS:
            raise ConfigError(f"unknown overlay {overlay!r}")
    for name, value in (options or {}).items():
        if name not in OPTIONS:
            raise ConfigError(f"unknown option {name!r}")
        if name == "target" and not isinstance(value, int):
            raise ConfigError(f"option 'target' must be a number, not {value!r}")
    return FakeGame(players, overlays, options or {})


def list_games() -> list[GameInfo]:
    return [
        GameInfo(
            NAME,
            "Counting Game",
            "tests/cli/fake",
            2,
            4,
            [OverlayInfo(n, t, f"tests/cli/fake/{n}.yaml") for n, t in OVERLAYS.items()],
            [OptionInfo(n, d, c, doc) for n, (d, c, doc) in OPTIONS.items()],
        )
    ]
