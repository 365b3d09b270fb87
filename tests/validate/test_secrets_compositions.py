"""``rulebook validate --secrets N`` plays every overlay it is given, with what it builds on.

House rules with a real leak (each reads a hidden card out to the table every round), in
``tests/validate/fixtures/secrets/house/``: one built on an expansion (``extends: nobles``,
``extends: setup-variation``, ``extends: [san-juan, new-buildings]``, ``[puerto-rico, nobles]``)
is played with the expansion, and its leak found; one named on the command line beside its base
(a game not installed) is played on that base; ``extends: new-buildings`` alone, an id both
shipped games have, resolves within the game named beside it, and is refused (O004, naming both
candidates) when nothing names the game. A file that cannot be played is said so.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from interpreter.check.secrets_games import check_secrets

ROOT = Path(__file__).resolve().parents[2]
HOUSE = ROOT / "tests" / "validate" / "fixtures" / "secrets" / "house"
SAN_JUAN = ROOT / "rulesets" / "san-juan"
PUERTO_RICO = ROOT / "rulesets" / "puerto-rico"


def _line_of(path: Path, text: str) -> int:
    lines = path.read_text(encoding="utf-8").splitlines()
    return next(i + 1 for i, line in enumerate(lines) if text in line)


def _rulebook(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "interpreter.cli.main", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env={**os.environ, "RULEBOOK_JOBS": "1"},
        timeout=600,
    )


@pytest.mark.parametrize(
    ("name", "expansion"),
    [
        ("sj-peek-on-variation.yml", SAN_JUAN / "setup-variation.yaml"),
        ("sj-peek-on-new-buildings.yml", SAN_JUAN / "new-buildings.yaml"),
        ("pr-peek-on-nobles.yml", PUERTO_RICO / "nobles.yaml"),
        ("pr-peek-with-nobles.yml", PUERTO_RICO / "nobles.yaml"),
    ],
)
def test_a_house_rule_built_on_an_expansion_is_played_with_it(name: str, expansion: Path) -> None:
    path = HOUSE / name
    report = check_secrets([path], games=1, jobs=1)
    # the fewest and the most players, each with the expansion under the house rule
    assert report.compositions == 2 and report.games == 2 and not report.unplayed
    leaks = [(d.code, Path(d.file or "").name, d.line) for d in report.diagnostics]
    assert leaks == [("L001", name, _line_of(path, "log:"))], leaks
    overlays = f"overlays: {expansion.stem}, {path.stem}"
    assert overlays in report.diagnostics[0].message


def test_the_command_line_finds_the_leak_of_a_house_rule_on_an_expansion() -> None:
    path = HOUSE / "sj-peek-on-variation.yml"
    run = _rulebook("validate", str(path), "--secrets", "1")
    assert run.returncode == 1, run.stdout + run.stderr
    assert "1 leak(s)" in run.stdout and "of 2 composition(s)" in run.stdout
    assert f"sj-peek-on-variation.yml:{_line_of(path, 'log:')}:11: error[L001]" in run.stdout


def test_a_house_rule_named_beside_its_base_is_played_on_it() -> None:
    """quiet-draw is no installed game: the base is found among the files given."""
    base, rule = HOUSE / "quiet-draw" / "ruleset.yml", HOUSE / "loud-draw.yml"
    report = check_secrets([base, rule], games=3, jobs=1)
    assert report.compositions == 4, report  # the base alone and with the house rule, 2 and 3 seats
    codes = {(d.code, Path(d.file or "").name, d.line) for d in report.diagnostics}
    line = _line_of(rule, "log:")
    assert codes == {("L001", "loud-draw.yml", line), ("L002", "loud-draw.yml", line)}
    # the base alone keeps its secrets
    assert check_secrets([base], games=3, jobs=1).diagnostics == []


def test_the_command_line_plays_a_house_rule_given_beside_its_base() -> None:
    run = _rulebook(
        "validate", "quiet-draw/ruleset.yml", "loud-draw.yml", "--secrets", "3", cwd=HOUSE
    )
    assert run.returncode == 1, run.stdout + run.stderr
    assert "of 4 composition(s)" in run.stdout and "2 leak(s)" in run.stdout
    assert "loud-draw.yml:8:11: error[L001]" in run.stdout


def test_an_id_two_games_share_resolves_within_the_game_named_beside_it() -> None:
    """San Juan's new-buildings, not Puerto Rico's (which has no hands: a D003 there)."""
    rule = HOUSE / "sj-peek-lone-new-buildings.yml"
    run = _rulebook("validate", str(SAN_JUAN / "ruleset.yaml"), str(rule))
    # its leak is also read without a game (L005); nothing else is wrong with it
    codes = {line.split("error[")[1][:4] for line in run.stdout.splitlines() if "error[" in line}
    assert codes == {"L005"}, run.stdout + run.stderr
    report = check_secrets([SAN_JUAN / "ruleset.yaml", rule], games=1, jobs=1)
    mine = [d for d in report.diagnostics if Path(d.file or "").name == rule.name]
    assert [d.code for d in mine] == ["L001"], [d.format() for d in report.diagnostics]
    assert "overlays: new-buildings, sj-peek-lone-new-buildings" in mine[0].message


def test_an_id_two_games_share_with_nothing_naming_the_game_is_refused() -> None:
    rule = HOUSE / "sj-peek-lone-new-buildings.yml"
    run = _rulebook("validate", str(rule), "--secrets", "1", "--json")
    assert run.returncode == 1, run.stdout + run.stderr
    payload = json.loads(run.stdout.splitlines()[-1])
    (diag,) = payload["diagnostics"]
    assert (diag["code"], diag["line"], diag["column"]) == ("O004", 4, 10)
    assert "puerto-rico/new-buildings.yaml" in diag["message"]
    assert "san-juan/new-buildings.yaml" in diag["message"]
    assert "extends: [san-juan, new-buildings]" in diag["hint"]
    # the leak check says it did not play the file, and why
    assert payload["secrets"]["compositions"] == 0
    assert payload["secrets"]["unplayed"] == [f"{rule}: it has errors (above)"]


def test_a_file_not_played_is_said_so_in_the_text_output() -> None:
    run = _rulebook("validate", "sj-peek-lone-new-buildings.yml", "--secrets", "1", cwd=HOUSE)
    assert run.returncode == 1
    assert re.search(
        r"^secrets: not played: sj-peek-lone-new-buildings.yml: it has errors", run.stdout, re.M
    ), run.stdout


def test_the_smoke_games_play_a_house_rule_that_names_the_game_and_its_expansion() -> None:
    """`--smoke` finds the stack as `--secrets` does: base, new-buildings, the house rule (and
    with setup-variation too)."""
    run = _rulebook("validate", "sj-peek-on-new-buildings.yml", "--smoke", "1", cwd=HOUSE)
    # the house rule's leak is read without a game too (L005): the one error
    assert run.returncode == 1 and "1 error" in run.stdout, run.stdout + run.stderr
    assert "error[L005]" in run.stdout
    assert "smoke: 2 overlay stack(s), 0 refused" in run.stdout
    assert "smoke: 6 random game(s) played" in run.stdout  # 2 stacks, 2 to 4 players


def test_validate_composes_an_overlay_that_names_the_game_and_its_expansion(
    tmp_path: Path,
) -> None:
    """`extends: [san-juan, new-buildings]` was never composed by a plain validate: a
    misspelt field in it passed as "no problems found"."""
    from interpreter.check import validate

    text = (HOUSE / "sj-peek-on-new-buildings.yml").read_text(encoding="utf-8")
    broken = tmp_path / "sj-broken.yml"
    broken.write_text(text.replace("(governor).hand", "(governor).hnad"), encoding="utf-8")
    report = validate([broken], jobs=1)
    found = [(d.code, Path(d.file or "").name) for d in report.diagnostics]
    assert found == [("D003", "sj-broken.yml")], found
    assert "did you mean 'hand'?" in report.diagnostics[0].message
