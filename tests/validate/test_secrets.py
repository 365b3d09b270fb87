"""``rulebook validate --secrets N``: the leak check finds, at the right line, what a seat is told
that depends on what it may not see, and finds nothing in the shipped games.

Through the real engine and the real rule files: the fixtures of
``tests/validate/fixtures/secrets/`` (kept as ``.yml`` so the plain-validate corpus, which reads
the ``# expect:`` line of every ``*.yaml`` fixture, leaves these valid rulesets alone), San Juan
with every one-option decision taken by the engine (hidden-dependent ones too), and every
shipped ruleset, overlay and example game.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from interpreter.check import secrets as secrets_module
from interpreter.check.secrets import GameRun, SecretsFinder, check_game
from interpreter.check.secrets_games import check_secrets
from interpreter.engine.loader import load_game_and_data
from interpreter.infoset import forced
from tests.engine.old_policies import taking_every_lone_decision

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "validate" / "fixtures" / "secrets"
SAN_JUAN = ROOT / "rulesets" / "san-juan" / "ruleset.yaml"


def _line_of(path: Path, pattern: str, before: str | None = None) -> tuple[int, int]:
    """(line, column) of the first line matching `pattern`; with `before`, of the last line
    matching `before` above it (the `- choose:` of a step whose label is `pattern`)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    for i, text in enumerate(lines):
        if re.search(pattern, text):
            if before is None:
                return i + 1, 1
            for j in range(i, -1, -1):
                m = re.search(before, lines[j])
                if m:
                    return j + 1, m.start() + 1
    raise AssertionError(f"{pattern!r} not in {path}")


def _found(report) -> list[tuple[str, str, int | None, int | None]]:
    return [(d.code, Path(d.file or "").name, d.line, d.column) for d in report.diagnostics]


def test_an_option_log_naming_the_card_drawn_is_found_at_its_template() -> None:
    path = FIXTURES / "draw-names-card.yml"
    report = check_secrets([path], games=3, jobs=1)
    line, _ = _line_of(path, r"log: \"seat \{actor\} draws")
    # the others read the card in the log (L001); the seat to move reads it in its option's
    # text (L002): both at the template, column of its first character
    assert _found(report) == [
        ("L001", path.name, line, 25),
        ("L002", path.name, line, 25),
    ], "\n".join(d.format() for d in report.diagnostics)
    leak = report.diagnostics[0]
    assert re.search(r"'seat 1 draws \w+', or 'seat 1 draws \w+' in a state", leak.message)
    assert re.search(r"players, overlays: none, seed \d+, decision \d+", leak.message)
    assert leak.hint and "--secrets 1 --seed" in leak.hint


def test_the_report_is_the_same_however_many_workers_share_the_games() -> None:
    """A leak several compositions meet (the fixture plays with 2 and 3 players) is reported
    as the first composition met it, whether one worker played them all or two shared them."""
    path = FIXTURES / "draw-names-card.yml"
    one, two = (check_secrets([path], games=3, jobs=jobs) for jobs in (1, 2))
    assert one.compositions == 2
    assert [d.format() for d in one.diagnostics] == [d.format() for d in two.diagnostics]
    assert (one.games, one.decisions, one.samples) == (two.games, two.decisions, two.samples)


def test_a_hidden_global_in_an_option_text_is_found_at_its_template() -> None:
    """Needs the sampler to redraw hidden global scalars (interpreter/infoset/worlds.py)."""
    path = FIXTURES / "option-names-secret.yml"
    report = check_secrets([path], games=3, jobs=1)
    line, _ = _line_of(path, r"log: \"seat \{actor\} guesses")
    codes = {(code, ln, col) for code, _, ln, col in _found(report)}
    assert ("L002", line, 25) in codes, "\n".join(d.format() for d in report.diagnostics)
    option = next(d for d in report.diagnostics if d.code == "L002")
    assert "(the number: " in option.message


def _san_juan(players: int, seeds: range, taking: bool = False) -> SecretsFinder:
    """`taking`: every decision with one legal option taken, as format-2 games were played."""
    game, data = load_game_and_data(str(SAN_JUAN), players)
    if taking:
        taking_every_lone_decision(game)
    run = GameRun(game, f"{players} players", "rulebook validate", data, {})
    out = SecretsFinder()
    for seed in seeds:
        check_game(run, seed, 1, out, every_seat=True)
    return out


def test_san_juan_leaks_at_the_builder_choose_when_hidden_forced_moves_are_taken() -> None:
    """Every lone decision taken: a seat with one legal option in the builder phase (it can
    afford nothing in its hidden hand) passes "(the only choice)" where, in a state the others
    cannot tell from it, it would be asked."""
    found = _san_juan(4, range(1, 3), taking=True)
    # the step's position is where its body starts (`who:`, the line under `- choose:`)
    line, col = _line_of(SAN_JUAN, r"label: build$", before=r"who: ")
    turns = {(d.line, d.column) for d in found.diagnostics() if d.code == "L003"}
    assert (line, col) in turns, "\n".join(d.format() for d in found.diagnostics())


def test_san_juan_forced_moves_do_not_leak_when_hidden_forced_moves_are_asked() -> None:
    found = _san_juan(4, range(1, 3))
    assert found.decisions > 300
    assert [d.format() for d in found.diagnostics() if d.code in ("L002", "L003", "L004")] == []


def test_lone_options_taken_where_every_seat_sees_a_hand_is_empty_keep_the_secret() -> None:
    """The engine takes a lone `pass` where the hand is empty (its size is shown) and asks it
    where the hand holds a card nobody else sees (infoset/forced.py): no leak either way."""
    path = FIXTURES / "lone-by-hand.yml"
    report = check_secrets([path], games=2, jobs=1)
    assert report.decisions > 0
    assert report.diagnostics == [], "\n".join(d.format() for d in report.diagnostics)


def test_a_rule_taking_lone_options_by_the_movers_own_hand_is_caught(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A wrong rule: the lone option decided by what the seat to move sees of itself (its own
    hand read as if every seat saw it). A seat holding a low card then passes "(the only
    choice)" where, in a state the others cannot tell from it (a high card), it is asked."""
    real = forced.public_state

    def own_hand_shown(s):
        public = real(s)
        public.p[s.who] = dict(s.p[s.who])
        return public

    monkeypatch.setattr(forced, "public_state", own_hand_shown)
    path = FIXTURES / "lone-by-hand.yml"
    report = check_secrets([path], games=2, jobs=1)
    line, col = _line_of(path, r"label: play a high card", before=r"who: ")
    turns = {(d.line, d.column) for d in report.diagnostics if d.code == "L003"}
    assert turns == {(line, col)}, "\n".join(d.format() for d in report.diagnostics)


def test_a_sampler_that_shows_a_seat_something_else_is_reported_as_the_samplers_fault(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    real = secrets_module.determinise

    def wrong(state, seat, rng):
        world = real(state, seat, rng)
        world.p[0]["score"] += 7  # a public counter: every seat sees it differ
        return world

    monkeypatch.setattr(secrets_module, "determinise", wrong)
    path = FIXTURES / "draw-names-card.yml"
    report = check_secrets([path], games=1, jobs=1)
    sampler = [d for d in report.diagnostics if d.code == "L004"]
    assert sampler, "\n".join(d.format() for d in report.diagnostics)
    assert "sampler" in sampler[0].message and "/players/0/score" in sampler[0].message
    line, _ = _line_of(path, r"^    score: \{counter")
    assert (sampler[0].line, sampler[0].json_path) == (line, "/state/player/score")


def _rulebook(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "interpreter.cli.main", "validate", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,  # a hang guard only
    )


def test_the_command_reports_the_leak_with_its_location_and_fails() -> None:
    done = _rulebook("tests/validate/fixtures/secrets/draw-names-card.yml", "--secrets", "2")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    assert re.search(
        r"^tests/validate/fixtures/secrets/draw-names-card\.yml:\d+:25: error\[L001\]",
        done.stdout,
        re.MULTILINE,
    ), done.stdout
    assert re.search(r"^secrets: 4 random game\(s\) of 2 composition\(s\)", done.stdout, re.M)


def test_a_negative_number_of_games_is_a_usage_error() -> None:
    done = _rulebook("tests/toy", "--secrets", "-1")
    assert done.returncode == 2
    assert "Traceback" not in done.stderr


# Every shipped ruleset, overlay, example game, house rule and toy game is leak-checked here, in
# this process, with a few random games of each composition (each at its fewest and its most
# players, seeds 1 and up): GAMES of each game and its overlays, HOUSE_GAMES of each house rule
# of examples/variants (each changes a little of a game checked at GAMES). That finds a leak at
# a decision every game reaches (a log line, an option's text, a forced move of a phase every
# round plays), as the fixtures above are found within their first games; a leak on a branch
# few games take is the long run's to find: 20 games of each game and 5 of each house rule,
# through the command, `python benchmarks/bench_secrets.py` (docs/performance.md). KNOWN lists
# findings accepted by (code, file); it is empty: every shipped rule file must pass clean.
GAMES = 2
HOUSE_GAMES = 1
KNOWN: set[tuple[str, str]] = set()
TOYS = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "tests").glob("toy*") if p.is_dir())
SHIPPED = {
    "puerto-rico": (["rulesets/puerto-rico"], GAMES),
    "san-juan": (["rulesets/san-juan"], GAMES),
    "example-and-toy-games": (["examples/games", *TOYS], GAMES),
    "puerto-rico-house-rules": (
        sorted(str(p.relative_to(ROOT)) for p in (ROOT / "examples/variants").glob("pr-*.yaml")),
        HOUSE_GAMES,
    ),
    "san-juan-house-rules": (
        sorted(str(p.relative_to(ROOT)) for p in (ROOT / "examples/variants").glob("sj-*.yaml")),
        HOUSE_GAMES,
    ),
}


def test_the_shipped_parts_are_every_shipped_game_and_house_rule() -> None:
    """No shipped rule file escapes the leak check: the parts below name every one."""
    named = {str(Path(p)) for paths, _ in SHIPPED.values() for p in paths}
    wanted = {"rulesets/puerto-rico", "rulesets/san-juan", "examples/games", *TOYS}
    wanted |= {str(p.relative_to(ROOT)) for p in (ROOT / "examples/variants").glob("*.yaml")}
    assert named == wanted
    assert {p.parent.name for p in (ROOT / "rulesets").glob("*/ruleset.yaml")} == {
        "puerto-rico",
        "san-juan",
    }


@pytest.mark.slow
@pytest.mark.parametrize("part", sorted(SHIPPED))
def test_every_shipped_game_keeps_its_secrets(part: str, monkeypatch: pytest.MonkeyPatch) -> None:
    paths, games = SHIPPED[part]
    monkeypatch.chdir(ROOT)
    report = check_secrets(paths, games=games, jobs=1)
    # every composition played: each file given at its fewest and its most players
    assert report.unplayed == [], report.unplayed
    assert report.compositions > 0 and report.games == report.compositions * games
    found = [d for d in report.diagnostics if d.severity == "error"]
    unknown = [d for d in found if (d.code, d.file) not in KNOWN]
    assert unknown == [], "\n".join(d.format() for d in unknown)
