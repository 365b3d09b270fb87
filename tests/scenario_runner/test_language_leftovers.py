"""The test language's leftovers (issue 49, item 4), through the real `rulebook test` and
`rulebook validate`: the engine's own moves written as steps, an `expect` between them seeing
the state after each (no `forced: ask`); a step block no scenario takes in checked by
`validate` all the same; a `choose` step's `decline:` naming none of its options reported."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.cli.main import main

ROOT = Path(__file__).resolve().parents[2]
F = "tests/scenario_runner/language49/"
TOY = ROOT / "tests" / "toy" / "ruleset.yaml"


@pytest.fixture(autouse=True)
def _at_the_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)


def test_the_engines_own_moves_listed_as_steps(capsys):
    code = main(["test", f"{F}forced.yaml", "-k", "listed"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert (
        "ok    tests/scenario_runner/language49/forced.yaml::the engine's own loads listed" in out
    )


def test_optional_answers_leave_a_listed_move_and_the_state_after_it(capsys):
    # `optional: decline` answers questions only: the engine's own moves stay its own
    code = main(["test", f"{F}forced.yaml", "-k", "declined"])
    out = capsys.readouterr().out
    assert code == 0, out


def test_an_expect_after_a_listed_move_sees_the_state_then(capsys):
    code = main(["test", f"{F}forced.yaml", "-k", "wrong and between"])
    out = capsys.readouterr().out
    assert code == 1
    assert (
        f"{F}forced.yaml:50:27: expected global ships: {{ship-6: {{load: 6}}}}\n"
        "    actual: [{type: ship-5, cargo: tobacco, load: 1}, "
        "{type: ship-6, cargo: corn, load: 4}, {type: ship-7, cargo: sugar, load: 7}]\n"
    ) in out
    # the engine's later moves come after the failed expectation, by id
    after = out.split("! expectation failed (line 50)")[1]
    assert "= seat 0: load:corn:ship-6" in after and "= seat 1: load:tobacco:ship-5" in after


def test_a_plain_step_still_says_the_seat_is_asked(capsys):
    code = main(["test", f"{F}forced.yaml", "-k", "took itself"])
    out = capsys.readouterr().out
    assert code == 1
    assert (
        f"{F}forced.yaml:59:9: step 6 `seat 3: load:corn:ship-6`: the engine took `seat 3: "
        "load:corn:ship-6` itself, as the only choice, before this step\n"
        "    leave the step out (`moved:` checks it), list it as `only choice: seat 3 "
        "load:corn:ship-6`, or say `forced: ask` on it to stop there"
    ) in out


def test_an_only_choice_step_where_the_seat_is_asked_fails(capsys):
    code = main(["test", f"{F}forced.yaml", "-k", "only and asked"])
    out = capsys.readouterr().out
    assert code == 1
    assert (
        f"{F}forced.yaml:62:9: step 1 `only choice: seat 0 role:captain`: expected the engine "
        "to take it as the only choice\n    actual: seat 0 is asked (options: role:settler, "
    ) in out


UNUSED = """\
game: puerto-rico
players: 4
blocks:
  used: [seat 0: role:mayor]
  spare:
    - seat 0: role:prospectr
    - expect: {log contains: seat 0 takes the Mayorx}
scenarios:
  - name: takes in the used block
    steps: [do: used]
"""


def _validated(capsys: pytest.CaptureFixture[str], tmp_path: Path, text: str) -> tuple[Path, str]:
    """(the scenario file ``text`` written, what `rulebook validate` says of it: faults)."""
    f = tmp_path / "spare.yaml"
    f.write_text(text, encoding="utf-8")
    assert main(["validate", str(f)]) == 1
    return f, capsys.readouterr().out


def test_a_block_no_scenario_takes_in_is_checked(capsys, tmp_path):
    f, out = _validated(capsys, tmp_path, UNUSED)
    assert f"{f}:6:15: error[T002]: 'role:prospectr' is not an option this game offers" in out
    assert f"{f}:7:30: error[T004]: no line of this game's log can hold" in out
    assert out.count("error[") == 2, out


MISSPELT_GAME = """\
players: 4
blocks:
  used: [seat 0: role:mayor]
  spare:
    - seat 0: role:prospector
scenarios:
  - name: plays a misspelt game
    game: puerto-ricco
    steps: [do: used]
"""


def test_a_spare_blocks_game_is_the_first_scenarios_where_it_writes_it(capsys, tmp_path):
    # the block no scenario takes in is played with the first scenario's game: a fault in it
    # is that scenario's, at the line it writes it, and said once
    f, out = _validated(capsys, tmp_path, MISSPELT_GAME)
    assert f"{f}:8:11: error[C001]: unknown game 'puerto-ricco'" in out
    assert out.count("error[") == 1, out


def _toy_declining(tmp_path: Path, decline: str) -> Path:
    text = TOY.read_text(encoding="utf-8")
    text = text.replace(
        "              label: buy a stall\n",
        f"              label: buy a stall\n              decline: {decline}\n",
    )
    text = text.replace(
        "                  do: buy(actor, st)\n                - id: pass\n",
        "                  do: buy(actor, st)\n                - id: no-thanks\n",
    )
    path = tmp_path / "ruleset.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_misspelt_decline_is_reported_at_it(capsys, tmp_path):
    path = _toy_declining(tmp_path, "no-thaks")
    line = next(i for i, t in enumerate(path.read_text("utf-8").splitlines(), 1) if "decline:" in t)
    assert main(["validate", str(path)]) == 1
    out = capsys.readouterr().out
    assert (
        f"{path}:{line}:24: error[R001]: 'decline: no-thaks' names no option of this step "
        "(its options: buy:{st}, no-thanks)"
    ) in out
    assert "did you mean 'no-thanks'?" in out


def test_a_decline_that_names_an_option_is_no_error(capsys, tmp_path):
    path = _toy_declining(tmp_path, "no-thanks")
    assert main(["validate", str(path)]) == 0, capsys.readouterr().out
