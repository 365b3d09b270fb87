"""The leak check compares each log line at the moment it is written: a card shown only while
it is named (turned up into a public pile, logged, then put into a hidden hand within one move)
explains its line; the same rules with that pile hidden leak, at the `log` statement.

Through the real engine and the real rule files (the fixture
``tests/validate/fixtures/secrets/turn-up-then-keep.yml`` and a copy of it with one change).
"""

from __future__ import annotations

from pathlib import Path

from interpreter.check.secrets_games import check_secrets

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "secrets" / "turn-up-then-keep.yml"


def test_a_card_shown_while_it_is_named_passes() -> None:
    report = check_secrets([FIXTURE], games=5, jobs=1)
    assert report.diagnostics == [], "\n".join(d.format() for d in report.diagnostics)


def test_the_same_card_kept_hidden_while_named_is_a_leak_at_the_log_statement(
    tmp_path: Path,
) -> None:
    text = FIXTURE.read_text(encoding="utf-8")
    hidden = text.replace("    turned: {pile: gems}\n", "    turned: {pile: gems, hidden: true}\n")
    assert hidden != text
    path = tmp_path / "turn-up-hidden.yml"
    path.write_text(hidden, encoding="utf-8")
    line = 1 + next(i for i, t in enumerate(hidden.splitlines()) if 'log "seat {actor} turns' in t)
    report = check_secrets([path], games=5, jobs=1)
    found = {(d.code, d.line) for d in report.diagnostics}
    assert found == {("L001", line)}, "\n".join(d.format() for d in report.diagnostics)
