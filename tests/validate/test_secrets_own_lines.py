"""The leak check and log lines with an own text (dsl/runtime/loglines.py): the own text is compared
as its seat reads it, the public text as every other seat and a spectator read it. A ruleset whose
own texts name only their seat's hidden gems passes; one whose public text names a hidden gem
(the one the mover chose, or the mover's hand) fails, and so does one whose own text names
another seat's hidden gems. Through the real check on the fixture
``tests/validate/fixtures/secrets/own-lines.yml`` and copies of it with one text changed."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.check.secrets_games import check_secrets

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "secrets" / "own-lines.yml"


def test_own_texts_that_name_their_own_seats_gems_pass() -> None:
    report = check_secrets([FIXTURE], games=5, jobs=1)
    assert report.diagnostics == [], "\n".join(d.format() for d in report.diagnostics)


@pytest.mark.parametrize(
    ("old", "new", "marker"),
    [
        # the option's public text names the gem the mover chose from its hidden hand
        ('text: "seat {actor} gives a gem"', 'text: "seat {actor} gives {g}"', "gives {g}"),
        # the statement's public text names the mover's hidden hand
        (
            'log "seat {actor} holds {len(actor.hand)} gems" own',
            'log "seat {actor} holds {actor.hand}" own',
            "holds {actor.hand}",
        ),
        # an own text names what its own seat may not see (the next seat's hand)
        (
            'own: "you give {g}"',
            'own: "you give {g}; the next seat holds {player((actor + 1) % players).hand}"',
            "you give {g};",
        ),
    ],
)
def test_a_text_naming_what_its_reader_may_not_see_is_a_leak_there(
    tmp_path: Path, old: str, new: str, marker: str
) -> None:
    text = FIXTURE.read_text(encoding="utf-8")
    assert old in text
    leaky = text.replace(old, new)
    path = tmp_path / "own-lines-leak.yml"
    path.write_text(leaky, encoding="utf-8")
    line = 1 + next(i for i, t in enumerate(leaky.splitlines()) if marker in t)
    report = check_secrets([path], games=5, jobs=1)
    found = {(d.code, d.line) for d in report.diagnostics}
    assert ("L001", line) in found, "\n".join(d.format() for d in report.diagnostics)
