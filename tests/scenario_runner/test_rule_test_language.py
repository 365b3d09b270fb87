"""The test language for rules (issue 49, findings 6-11), each through the real `rulebook test`
and `rulebook validate` on the scenario files of language49/: step blocks reused by name or as
a YAML alias, every failed expectation reported, moves checked by option id (the engine's own
too) and log texts in any letter case, the engine's own moves shown by id, the running score,
and a set-up expected to be refused or left out."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.cli.main import main

HERE = Path(__file__).resolve().parent / "language49"
ROOT = HERE.parents[2]


def _test(capsys: pytest.CaptureFixture[str], name: str, *args: str) -> tuple[int, str]:
    code = main(["test", str((HERE / name).relative_to(ROOT)), *args])
    return code, capsys.readouterr().out


def _validate(capsys: pytest.CaptureFixture[str], path: Path) -> tuple[int, str]:
    code = main(["validate", str(path)])
    captured = capsys.readouterr()
    return code, captured.out + captured.err


@pytest.fixture(autouse=True)
def _at_the_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)


F = "tests/scenario_runner/language49/"


def test_every_failed_expectation_is_reported(capsys):
    # finding 7: a failure mid-way and two at the end, all three with their positions
    code, out = _test(capsys, "every-failure.yaml")
    assert code == 1
    assert (
        f"{F}every-failure.yaml:12:13: expected player(0).doubloons == 5\n"
        "    actual: player(0).doubloons = 1\n"
        f"{F}every-failure.yaml:16:9: expected seat 3 to move\n"
        "    actual: seat 1\n"
        f"{F}every-failure.yaml:17:9: expected player(1).doubloons == 1\n"
        "    actual: player(1).doubloons = 0\n"
    ) in out
    # the one that holds is not reported, and the steps say where each failed
    assert "doubloons == 1\n    actual" not in out.split("17:9")[0]
    assert out.count("! expectation failed") == 3


def test_step_blocks_by_name_and_as_an_alias(capsys):
    # finding 6: two scenarios share a block, one by `do:`, one by a YAML alias
    code, out = _test(capsys, "blocks.yaml")
    assert code == 1
    assert "ok    tests/scenario_runner/language49/blocks.yaml::a block by name" in out
    assert "ok    tests/scenario_runner/language49/blocks.yaml::a block as a YAML alias" in out
    # a block's steps are listed at their own lines, with the block's name
    assert "1. seat 0: role:prospector               (line 9, block prospect)" in out


def test_an_unknown_block_and_a_loop_are_found_with_their_position(capsys, tmp_path):
    f = tmp_path / "s.yaml"
    f.write_text(
        "game: puerto-rico\nplayers: 4\nblocks:\n  prospect:\n    - seat 0: role:prospector\n"
        "    - do: loop\n  loop:\n    - do: prospect\nscenarios:\n  - name: a\n    steps:\n"
        "      - do: prospekt\n      - do: prospect\n  - name: b\n    steps:\n"
        "      - do: prospect\n",
        encoding="utf-8",
    )
    code, out = _validate(capsys, f)
    assert code == 1
    assert (
        f"{f}:12:13: error[T001]: no block named 'prospekt'; did you mean 'prospect'? "
        "(blocks: loop, prospect)"
    ) in out
    assert f"{f}:8:11: error[T001]: block 'prospect' takes itself in (prospect -> loop -> " in out
    assert out.count("takes itself in") == 1  # two scenarios take it in: reported once
    code, out = main(["test", str(f)]), capsys.readouterr().out
    assert code == 1 and f"{f}:12:13: error[T001]: no block named 'prospekt'" in out


def test_a_misspelt_key_of_the_new_forms_is_refused(capsys, tmp_path):
    f = tmp_path / "s.yaml"
    f.write_text(
        "game: puerto-rico\nplayers: 4\nblock:\n  a: [pass]\nexpect:\n  - movd: pass\n",
        encoding="utf-8",
    )
    code, out = _validate(capsys, f)
    assert code == 1
    assert "3:1: error[S003]: unknown key 'block'" in out and "did you mean 'blocks'?" in out
    assert "6:5: error[S003]: unknown key 'movd'" in out and "did you mean 'moved'?" in out


def test_moves_by_id_and_log_texts_in_any_case(capsys):
    # finding 8
    code, out = _test(capsys, "moved.yaml")
    assert code == 1
    assert "ok    tests/scenario_runner/language49/moved.yaml::a move by its id" in out
    assert (
        f"{F}moved.yaml:22:9: expected moved: seat 1 role:prospector\n"
        "    but it was taken by another seat (seat 0: role:prospector) (the last moves: "
        "seat 0: role:prospector)\n"
        f"{F}moved.yaml:23:9: expected not moved: seat 0 role:prospector\n"
        "    but seat 0 took role:prospector\n"
        f"{F}moved.yaml:24:10: expected the log to contain 'seat 0 takes the prospector'\n"
        "    it does not; nearest line: 'seat 0 takes the Prospector'\n"
    ) in out


def test_a_move_or_log_text_that_cannot_be_is_found_before_playing(capsys, tmp_path):
    f = tmp_path / "s.yaml"
    f.write_text(
        "game: puerto-rico\nplayers: 4\nsteps:\n  - seat 0: role:prospector\nexpect:\n"
        "  - moved: seat 0 role:prospectr\n"
        "  - {log lacks: SEAT 0 TAKES THE MAYORX, any case: true}\n"
        "  - {log lacks: SEAT 0 TAKES THE MAYOR, any case: true}\n",
        encoding="utf-8",
    )
    code, out = _validate(capsys, f)
    assert code == 1
    assert f"{f}:6:12: error[T002]: 'role:prospectr' is not an option this game offers" in out
    assert (
        f"{f}:7:17: error[T004]: no line of this game's log can hold 'SEAT 0 TAKES THE MAYORX' "
        "(in any letter case)"
    ) in out
    assert ":8:" not in out  # the same text without the slip can be in the log
    code, out = main(["test", str(f)]), capsys.readouterr().out
    # the log text is refused before the first step, the option when its check comes
    assert code == 1 and "can hold 'SEAT 0 TAKES THE MAYORX' (in any letter case)" in out


def test_the_engines_own_moves_by_id_and_between(capsys):
    # finding 9: `moved:` sees the only-choice loads; a failure lists them by id
    code, out = _test(capsys, "forced.yaml")
    assert code == 1
    assert (
        "ok    tests/scenario_runner/language49/forced.yaml::the engine's own loads, by id" in out
    )
    assert "ok    tests/scenario_runner/language49/forced.yaml::the state between the engine's" in (
        out
    )
    assert (
        "       | seat 3: Load Corn on Ship 6 (the only choice)\n"
        "       = seat 3: load:corn:ship-6\n"
        "       | seat 3 ships 1 Corn\n"
        "       | seat 0: Load Corn on Ship 6 (the only choice)\n"
        "       = seat 0: load:corn:ship-6\n"
    ) in out


def test_a_step_for_a_move_the_engine_took_says_so(capsys):
    code, out = _test(capsys, "forced.yaml", "-k", "itself")
    assert code == 1
    assert (
        f"{F}forced.yaml:59:9: step 6 `seat 3: load:corn:ship-6`: the engine took `seat 3: "
        "load:corn:ship-6` itself, as the only choice, before this step\n"
        "    leave the step out (`moved:` checks it), list it as `only choice: seat 3 "
        "load:corn:ship-6`, or say `forced: ask` on it to stop there"
    ) in out


def test_the_running_score(capsys):
    # finding 10
    code, out = _test(capsys, "score.yaml")
    assert code == 1
    assert (
        "ok    tests/scenario_runner/language49/score.yaml::the buildings' VP before the end" in out
    )
    assert (
        f"{F}score.yaml:18:7: expected seat 0 buildings score 4 so far\n"
        "    actual: 3 (seat 0: {total: 3, vp-chips: 0, buildings: 3, large-buildings: 0, "
        "tiebreak: 3})"
    ) in out


def test_a_refused_set_up_and_a_scenario_without_the_files(capsys):
    # finding 11
    code, out = _test(capsys, "set-up.yaml")
    assert code == 0, out
    assert "5 scenario(s): 5 passed" in out


def test_a_refusal_that_does_not_come_or_differs_fails(capsys, tmp_path):
    f = tmp_path / "s.yaml"
    f.write_text(
        "game: san-juan\nplayers: 2\nscenarios:\n  - name: not refused\n    players: 3\n"
        "    refused: 2 to 4 players\n  - name: another reason\n    players: 5\n"
        "    refused: too many\n",
        encoding="utf-8",
    )
    code, out = main(["test", str(f)]), capsys.readouterr().out
    assert code == 1
    assert (
        f"{f}:6:14: expected refused: 2 to 4 players\n    but the game and its set-up ran"
    ) in out
    assert (
        f"{f}:9:14: expected refused: too many\n"
        "    refused for another reason: san-juan is for 2 to 4 players, not 5"
    ) in out


def test_the_new_files_are_clean_under_validate(capsys):
    code, out = _validate(capsys, HERE)
    assert code == 0, out


def test_check_totals_off_for_a_whole_file(capsys, tmp_path):
    # `check-totals: false` at the top of a file turns the check off for every scenario's
    # set-ups and `set:` steps; a scenario may turn it on again
    f = tmp_path / "s.yaml"
    f.write_text(
        "game: san-juan\nplayers: 2\ncheck-totals: false\nscenarios:\n"
        "  - name: three palaces\n    setup:\n      seat 1: {hand: [palace, palace, palace]}\n"
        "    expect: {seat 1: {hand: [palace, palace, palace]}}\n"
        "  - name: three palaces set in the middle\n    steps:\n"
        "      - set: {seat 1: {hand: [palace, palace, palace]}}\n"
        "    expect: {seat 1: {hand: [palace, palace, palace]}}\n"
        "  - name: checked here\n    check-totals: true\n    setup:\n"
        "      seat 1: {hand: [palace, palace, palace]}\n"
        "    refused: there are only 2 'palace' in all\n",
        encoding="utf-8",
    )
    code, out = main(["test", str(f)]), capsys.readouterr().out
    assert code == 0, out
    assert "3 scenario(s): 3 passed" in out
