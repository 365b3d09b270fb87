"""tests/validate: the broken-file corpus, mutation properties, limits, API and CLI of validate.

Overlay and config fixtures find the tiny base ruleset (``fixtures/base/``, id ``vbase``, game
name ``base``) the way users' files find installed games: through ``RULEBOOK_RULESETS``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

FIXTURES = Path(__file__).resolve().parent / "fixtures"


@pytest.fixture(autouse=True)
def fixture_rulesets(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RULEBOOK_RULESETS", str(FIXTURES))
