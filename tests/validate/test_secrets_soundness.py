"""The leak check is sound for what it claims (docs/validate.md, "What --secrets proves"): it
finds a public text whose words or existence depend on a hidden field however the rule reads
it, and does not flag what a seat already knows.

Each probe is a small ruleset of ``tests/validate/fixtures/secrets/`` or a house rule of a
shipped game (``.../secrets/overlays/``), played by the real engine through ``check_secrets``
or the real command; the rule forms a new author might write (a `for` over every card with an
`if` on the hand, a function, a procedure, a nested choose) are variants of the same file.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from interpreter.check.secrets_games import check_secrets

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "validate" / "fixtures" / "secrets"
SEALED = FIXTURES / "sealed-choice.yml"


def _line(text: str, needle: str) -> int:
    return 1 + next(i for i, t in enumerate(text.splitlines()) if needle in t)


def _found(report) -> set[tuple[str, int | None]]:
    return {(d.code, d.line) for d in report.diagnostics}


def _shown(report) -> str:
    return "\n".join(d.format() for d in report.diagnostics)


def _variant(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / f"{name}.yml"
    path.write_text(text, encoding="utf-8")
    return path


_LOG = 'log: "seat {actor} chooses {g}"'
_OPTION = """                - id: "pick:{g}"
                  for: g in gems
                  if: g in actor.hand
                  log: "seat {actor} chooses {g}"
                  do: put-aside(actor, g)
"""

# each way of writing the sealed choice: what replaces the option, what replaces the file's
# `procedures:` line (a function or a procedure added), and the text of the line the leak is
# reported at
SEALED_FORMS = {
    "for over every gem, if on the hand": (_OPTION, "procedures:\n", _LOG),
    "for over the hand": (
        _OPTION.replace("for: g in gems\n", "for: g in distinct(actor.hand)\n").replace(
            "                  if: g in actor.hand\n", ""
        ),
        "procedures:\n",
        _LOG,
    ),
    "if calls a function": (
        _OPTION.replace("if: g in actor.hand", "if: holds(actor, g)"),
        "functions:\n  holds:\n    params: [p, g]\n    expr: g in p.hand\n\nprocedures:\n",
        _LOG,
    ),
    "a procedure writes the line": (
        _OPTION.replace('log: "seat {actor} chooses {g}"', 'log: ""').replace(
            "put-aside(actor, g)", "announce(actor, g)"
        ),
        "procedures:\n  announce:\n    params: [p, g]\n    do: |\n"
        '      put-aside(p, g)\n      log "seat {p} chooses {g}"\n',
        'log "seat {p} chooses {g}"',
    ),
}


@pytest.mark.parametrize("form", sorted(SEALED_FORMS))
def test_a_sealed_choice_named_in_the_log_is_a_leak_however_it_is_written(
    tmp_path: Path, form: str
) -> None:
    option, extra, at = SEALED_FORMS[form]
    text = SEALED.read_text(encoding="utf-8")
    assert _OPTION in text
    text = text.replace(_OPTION, option).replace("procedures:\n", extra, 1)
    path = _variant(tmp_path, "sealed", text)
    report = check_secrets([path], games=5, jobs=1)
    # a line a procedure writes is placed at the procedure's text or at its call
    places = {_line(text, at), _line(text, "announce(actor, g)") if "announce" in text else 0}
    found = _found(report)
    assert len(found) == 1 and {code for code, _ in found} == {"L001"}, _shown(report)
    assert {line for _, line in found} <= places, _shown(report)


def test_a_sealed_choice_in_a_nested_choose_is_a_leak(tmp_path: Path) -> None:
    """A first choice (pick or wait), then the gem in a second `choose` of its own."""
    text = SEALED.read_text(encoding="utf-8")
    first = (
        "                - id: pick\n"
        "                  do: picking = 1\n"
        "                - id: wait\n"
        "          - if: picking == 1\n"
        "            then:\n"
        "              - do: picking = 0\n"
        "              - choose:\n"
        "                  who: actor\n"
        "                  label: which gem\n"
        "                  options:\n"
    )
    text = text.replace(_OPTION, first + "".join("  " + ln + "\n" for ln in _OPTION.splitlines()))
    deck = "    deck: {pile: gems, hidden: true}\n"
    text = text.replace(deck, deck + "    picking: {counter: 0}\n")
    path = _variant(tmp_path, "nested", text)
    report = check_secrets([path], games=5, jobs=1)
    assert _found(report) == {("L001", _line(text, _LOG))}, _shown(report)


def _rulebook(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "interpreter.cli.main", "validate", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )


def test_a_san_juan_keep_named_by_its_option_text_is_a_leak_at_the_option() -> None:
    """`keep:{c}` for `c in cards` with `if: c in actor.drawn`, logged in its family's words
    ("Keep Aqueduct"): the others read the card kept."""
    path = FIXTURES / "overlays" / "sj-keep-named.yml"
    done = _rulebook(str(path.relative_to(ROOT)), "--secrets", "2")
    assert done.returncode == 1, done.stdout + done.stderr
    line = _line(path.read_text(encoding="utf-8"), 'id: "keep:{c}"')
    assert f"sj-keep-named.yml:{line}:10: error[L001]" in done.stdout, done.stdout
    assert "'Keep " in done.stdout


def test_an_open_bid_over_coins_every_seat_knows_is_no_leak() -> None:
    """The bids' `for` reads the bidder's coins, hidden but remembered by every seat (each
    change is public): which bids exist is no secret, whatever the bid logged."""
    report = check_secrets([FIXTURES / "open-bid.yml"], games=5, jobs=1)
    assert report.decisions > 30
    assert report.diagnostics == [], _shown(report)


def test_a_public_counter_set_from_a_hidden_hand_is_a_leak_at_the_assignment() -> None:
    path = FIXTURES / "public-count.yml"
    text = path.read_text(encoding="utf-8")
    report = check_secrets([path], games=5, jobs=1)
    assert _found(report) == {("L001", _line(text, "actor.rubies = count("))}, _shown(report)
    assert "/rubies" in report.diagnostics[0].message


def test_a_card_turned_up_only_when_a_hand_lacks_one_is_a_leak_where_it_is_turned_up() -> None:
    path = FIXTURES / "turn-up-if-lacking.yml"
    text = path.read_text(encoding="utf-8")
    report = check_secrets([path], games=5, jobs=1)
    assert _found(report) == {("L001", _line(text, "push(shown, draw(deck))"))}, _shown(report)


def test_the_same_card_turned_up_every_time_is_a_reveal_not_a_leak(tmp_path: Path) -> None:
    text = (FIXTURES / "turn-up-if-lacking.yml").read_text(encoding="utf-8")
    condition = "                    if ruby not in actor.hand:\n"
    assert condition in text
    body = text.split(condition)[1].split("                - id: wait")[0]
    always = text.replace(
        condition + body, body.replace("                      ", "                    ")
    )
    assert "ruby not in" not in always
    report = check_secrets([_variant(tmp_path, "always", always)], games=5, jobs=1)
    assert report.diagnostics == [], _shown(report)


def test_a_remember_claim_that_a_hidden_change_breaks_is_reported_at_the_claim() -> None:
    """The ruleset says every seat remembers `tips` (each change seen): the sampler keeps its
    true value, which hid the leak of the line that names it; the claim is checked instead."""
    path = FIXTURES / "remember-unseen.yml"
    text = path.read_text(encoding="utf-8")
    report = check_secrets([path], games=5, jobs=1)
    assert _found(report) == {("L006", _line(text, "  remember: [tips]"))}, _shown(report)
    assert "'tips' is declared remembered" in report.diagnostics[0].message


def test_without_the_claim_the_line_naming_the_hidden_counter_is_the_leak(tmp_path: Path) -> None:
    text = (FIXTURES / "remember-unseen.yml").read_text(encoding="utf-8")
    plain = text.replace("  remember: [tips]\n", "")
    report = check_secrets([_variant(tmp_path, "plain", plain)], games=5, jobs=1)
    assert _found(report) == {("L001", _line(plain, 'log: "seat {actor} holds'))}, _shown(report)


def test_a_sale_line_naming_a_gem_an_earlier_line_of_the_move_revealed_is_no_leak() -> None:
    report = check_secrets([FIXTURES / "reveal-sell-discard.yml"], games=5, jobs=1)
    assert report.decisions > 30
    assert report.diagnostics == [], _shown(report)


def test_the_same_sale_without_the_reveal_is_a_leak_at_the_sale_line(tmp_path: Path) -> None:
    text = (FIXTURES / "reveal-sell-discard.yml").read_text(encoding="utf-8")
    reveal = (
        "                    push(shown, g)\n"
        '                    log "seat {actor} reveals {g}"\n'
        "                    remove(shown, g)\n"
    )
    assert reveal in text
    unrevealed = text.replace(reveal, "")
    report = check_secrets([_variant(tmp_path, "unrevealed", unrevealed)], games=5, jobs=1)
    found = {("L001", _line(unrevealed, 'log "seat {actor} sells'))}
    assert _found(report) == found, _shown(report)


def test_a_chapel_count_the_public_history_fixes_is_no_leak() -> None:
    """San Juan's chapel pile is `hidden: all`, but every card put there was a public move:
    the sampler keeps its size (infoset/knowledge.py, told sizes), and the count logged is no
    secret."""
    path = FIXTURES / "overlays" / "sj-chapel-count.yml"
    done = _rulebook(str(path.relative_to(ROOT)), "--secrets", "2")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 leak(s)" in done.stdout


LUCKY = ROOT / "tests" / "validate" / "fixtures" / "secrets" / "house" / "lucky-draw.yml"
QUIET = LUCKY.parent / "quiet-draw" / "ruleset.yml"


def test_a_line_written_only_under_a_hidden_condition_is_the_leak_not_the_next_line() -> None:
    """The cheer is written in one world only: it is the leak (at its own statement), and the
    line every draw writes after it is compared with its like in the other world, not with
    the cheer."""
    text = LUCKY.read_text(encoding="utf-8")
    report = check_secrets([QUIET, LUCKY], games=3, jobs=1)
    assert _found(report) == {("L001", _line(text, 'log "a lucky draw!"'))}, _shown(report)
    assert all("no line" in d.message for d in report.diagnostics), _shown(report)


def test_a_cheer_for_a_card_turned_up_first_is_a_reveal_not_a_leak(tmp_path: Path) -> None:
    text = LUCKY.read_text(encoding="utf-8")
    drawn = "      let c = draw(deck)\n"
    assert drawn in text
    turned_up = (
        drawn + "      push(pool, c)\n"
        '      log "seat {actor} turns up {c}"\n'
        "      remove(pool, c)\n"
    )
    house = text.replace(drawn, turned_up).replace("extends: quiet-draw", f"extends: {QUIET}")
    report = check_secrets([QUIET, _variant(tmp_path, "lucky-draw", house)], games=3, jobs=1)
    assert report.decisions > 30
    assert report.diagnostics == [], _shown(report)


def test_a_card_turned_up_then_kept_or_discarded_in_other_words_is_a_reveal() -> None:
    """San Juan's goldsmith turns the top card up face up, then one line says it is kept and
    another that it is discarded: two rule texts at the same moment of the two worlds, where
    the card shown tells them apart, so the discard pile's size after it is no leak (the game
    and decision where the two lines first met)."""
    san_juan = ROOT / "rulesets" / "san-juan"
    paths = [san_juan / "ruleset.yaml", san_juan / "new-buildings.yaml"]
    report = check_secrets(paths, games=1, seed=11, jobs=1)
    assert report.decisions > 1000
    assert report.diagnostics == [], _shown(report)
