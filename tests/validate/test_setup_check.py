"""`rulebook validate` sets every composition up once (seed 0) for every player count and
checks the declared invariants right after: a rule failing in the set-up (E001) or a set-up
that leaves an invariant broken (E002) is a validate error at its rule's file:line, in the
overlay file when the rule lives there."""

from __future__ import annotations

import shutil
from pathlib import Path

from interpreter.check import validate

ROOT = Path(__file__).resolve().parents[2]


def _copy(tmp_path: Path, game: str) -> Path:
    shutil.copytree(ROOT / "rulesets" / game, tmp_path / game)
    return tmp_path / game


def _edit(path: Path, old: str, new: str, count: int = 1) -> int:
    """Replace `old` (which must be there exactly `count` times); the 1-based line of its first."""
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == count, (path, old)
    line = text[: text.index(old)].count("\n") + 1
    path.write_text(text.replace(old, new), encoding="utf-8")
    return line


def _errors(target: Path) -> list:
    return [d for d in validate([target], jobs=1).diagnostics if d.severity == "error"]


def _line_of(path: Path, text: str) -> int:
    lines = path.read_text(encoding="utf-8").split("\n")
    return next(i for i, line in enumerate(lines, 1) if text in line)


def test_a_default_copy_count_that_breaks_a_counter_in_the_set_up_is_an_error(tmp_path):
    # the fuzz harness's mutant: the quarry's `copies: 8` left out falls back on the default 0,
    # and `quarry-stack = quarry.copies - tiles-removed[players]` goes below its minimum
    folder = _copy(tmp_path, "puerto-rico")
    ruleset = folder / "ruleset.yaml"
    _edit(ruleset, "      quarry:\n        copies: 8\n", "      quarry:\n")
    errors = _errors(ruleset)
    assert [d.code for d in errors] == ["E001"]
    assert errors[0].file == str(ruleset)
    assert errors[0].line == _line_of(ruleset, "quarry-stack = quarry.copies")
    assert "'quarry-stack' would be -3, below its minimum 0" in errors[0].message
    assert "while setting up the game" in errors[0].message
    assert "set up for 2 players" in errors[0].message


def test_a_set_up_for_the_wrong_player_count_breaks_an_invariant(tmp_path):
    # the fuzz harness's mutant: the colonist supply set up for 2 players whatever the count;
    # with 2 players it holds, with 3 the invariant `colonists` does not
    folder = _copy(tmp_path, "puerto-rico")
    ruleset = folder / "ruleset.yaml"
    old = "colonist-supply = colonist-supply-start[players]"
    _edit(ruleset, old, "colonist-supply = colonist-supply-start[2]")
    errors = _errors(folder)
    assert [d.code for d in errors] == ["E002"]
    (e,) = errors
    assert (e.file, e.json_path) == (str(ruleset), "/invariants/colonists/expr")
    assert e.line == _line_of(ruleset, "  colonists:") + 3  # the first line of its expression
    assert "invariant 'colonists' does not hold after the set-up" in e.message
    assert "set up for 3 players" in e.message


def test_a_set_up_fault_in_an_overlay_is_reported_in_the_overlay_file(tmp_path):
    folder = _copy(tmp_path, "puerto-rico")
    overlay = folder / "nobles.yaml"
    line = _edit(overlay, "noble-supply = nobles-total\n", "noble-supply = nobles-total - 99\n")
    errors = _errors(overlay)
    assert [d.code for d in errors] == ["E001"]
    assert errors[0].file == str(overlay)
    # the rule text the failing statement is in starts at its `do: |` line's next line
    assert errors[0].line in range(line - 3, line + 1)
    assert "'noble-supply' would be" in errors[0].message


def test_a_set_up_that_fails_for_a_reason_already_reported_is_not_reported_twice(tmp_path):
    # three red tokens listed where the catalog has two: R004 says so; the set-up's failed
    # `remove` would only repeat it
    fixture = ROOT / "tests/validate/fixtures/r_more_than_copies.yaml"
    assert [d.code for d in _errors(fixture)] == ["R004"]


def test_the_shipped_rulesets_set_up_clean_for_every_player_count():
    errors = _errors(ROOT / "rulesets")
    assert errors == []


# -- a run-time fault is reported at the failing statement of a multi-line text ----------------

FAILS = ROOT / "tests/validate/fixtures/e_setup_fails.yaml"


def _variant(tmp_path: Path, old: str, new: str) -> tuple[Path, str]:
    path = tmp_path / "ruleset.yaml"
    text = FAILS.read_text(encoding="utf-8").split("\n", 1)[1]  # without its `# expect:` line
    assert text.count(old) == 1
    path.write_text(text.replace(old, new), encoding="utf-8")
    return path, path.read_text(encoding="utf-8")


def _at(text: str, needle: str) -> tuple[int, int]:
    """(line, column) where `needle` starts in `text`, 1-based."""
    before = text[: text.index(needle)]
    return before.count("\n") + 1, len(before) - (before.rfind("\n") + 1) + 1


def test_a_fault_inside_a_loop_is_reported_at_its_statement_not_the_text_start(tmp_path):
    path, text = _variant(
        tmp_path,
        "          seat += 1\n",
        "          seat += 1\n          reserve -= seat\n",
    )
    [d] = _errors(path)
    assert d.code == "E001" and "'reserve' would be -1" in d.message
    assert (d.line, d.column) == _at(text, "reserve -= seat")


def test_a_fault_in_a_procedure_is_reported_at_the_call_that_ran_it(tmp_path):
    # a procedure is written into the text that calls it: the call is the failing statement
    path, text = _variant(tmp_path, "    do: p.points += n\n", "    do: |\n      p.points -= n\n")
    [d] = _errors(path)
    assert d.code == "E001" and "'points' of seat 0" in d.message
    assert (d.line, d.column) == _at(text, "gain(player(i), start-points[players])")


def test_a_lazy_build_sets_up_and_plays_exactly_as_a_full_one():
    # validate sets the later player counts up with lazily resolved, unchecked texts
    # (Emit.UNCHECKED_ON_FIRST_RUN): the state they reach must be the full build's, decision
    # by decision, or the set-up check would check something else than what games run
    import random

    from interpreter.dsl.compiler import Emit, EmitPlan
    from interpreter.engine.game import Game
    from interpreter.engine.loader import load_game_and_data
    from interpreter.model.rules import compile_rules

    for game, players in (("puerto-rico", 4), ("san-juan", 3)):
        _, data = load_game_and_data(str(ROOT / "rulesets" / game / "ruleset.yaml"), players, ())
        options = {k: v.get("default") for k, v in (data.get("options") or {}).items()}
        states = []
        full = compile_rules(data, players, dict(options))
        # as validation does: the lazy build takes over which decisions a hidden field
        # decides from the full build (it resolves no text before running it)
        lazily = EmitPlan(Emit.UNCHECKED_ON_FIRST_RUN)
        lazy = compile_rules(data, players, dict(options), lazily, full.marks)
        for rules in (full.rules_or_raise(), lazy.rules_or_raise()):
            state = Game(rules, "", "", players, (), options, []).new_state(seed=3)
            pick = random.Random(3)
            for _ in range(150):
                state.apply(pick.choice(state.legal_options()))
            states.append(state.to_json())
        assert states[0] == states[1], game
