"""What a load reads from a rule file's kept parse is worked out once per parse: a game loaded
again from an unchanged file (at any player count, with any options) shares the one typed
`Ruleset` and is not checked against the schema again; a game with overlays, or a file whose
text changed, is read anew; and the test suite's guard reports a kept result a caller changed.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from interpreter import load_game
from interpreter.diagnostics.errors import RulesError
from interpreter.load import schema
from interpreter.load.yamlload import cached_files_changed, kept_derived, load_yaml_file

ROOT = Path(__file__).resolve().parents[2]
GAME = ROOT / "rulesets" / "san-juan"


@pytest.fixture
def game_dir(tmp_path: Path) -> Path:
    """A copy of a shipped game, its text free to change."""
    shutil.copytree(GAME, tmp_path / "game")
    return tmp_path / "game"


@pytest.fixture
def schema_checks(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """The trees the ruleset schema check walks, in order."""
    seen: list[object] = []
    check = schema.check

    def counted(data: object, *args: object, **kwargs: object) -> object:
        seen.append(data)
        return check(data, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(schema, "check", counted)
    return seen


def test_an_unchanged_file_is_read_once_for_every_count_and_option(
    game_dir: Path, schema_checks: list[object]
) -> None:
    path = str(game_dir / "ruleset.yaml")
    first = load_game(path, 4)
    again = load_game(path, 2)
    assert again.ruleset is first.ruleset
    assert again.ruleset.data is load_yaml_file(path).data
    assert len(schema_checks) == 1
    assert again.players == 2 and first.players == 4


def test_overlays_are_read_anew_and_leave_the_base_as_read() -> None:
    base = str(ROOT / "rulesets" / "puerto-rico" / "ruleset.yaml")
    plain = load_game(base, 3)
    with_overlay = load_game(base, 3, ["new-buildings"])
    again = load_game(base, 3, ["new-buildings"])
    assert with_overlay.ruleset is not again.ruleset
    assert with_overlay.ruleset == again.ruleset
    added = set(with_overlay.ruleset.catalogs["buildings"].entries) - set(
        plain.ruleset.catalogs["buildings"].entries
    )
    assert added
    assert load_game(base, 4).ruleset is plain.ruleset
    assert not added & set(load_game(base, 4).ruleset.catalogs["buildings"].entries)


def test_a_changed_file_is_read_and_checked_again(
    game_dir: Path, schema_checks: list[object]
) -> None:
    path = game_dir / "ruleset.yaml"
    before = load_game(str(path), 4).ruleset
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("title: San Juan", "title: Changed", 1), encoding="utf-8")
    after = load_game(str(path), 4).ruleset
    assert after is not before and after.header.title == "Changed"
    assert len(schema_checks) == 2
    path.write_text(text + "\nnot-a-section: 1\n", encoding="utf-8")
    for _ in range(2):  # a schema fault is raised at every load, not only the first
        with pytest.raises(RulesError, match="not-a-section"):
            load_game(str(path), 4)


def test_a_tree_that_is_not_a_kept_parse_is_read_at_every_call() -> None:
    tree = {"ruleset": "toy"}
    calls: list[object] = []

    def how(data: object) -> int:
        calls.append(data)
        return len(calls)

    assert [kept_derived(tree, "n", how) for _ in range(2)] == [1, 2]


def test_the_guard_reports_a_kept_typed_model_a_caller_changed(game_dir: Path) -> None:
    ruleset = load_game(str(game_dir / "ruleset.yaml"), 4).ruleset
    table = next(t for t in ruleset.tables.values() if isinstance(t.value, dict | list))
    assert cached_files_changed() == []
    written = table.value
    if isinstance(written, dict):
        written["a key no file wrote"] = 1
    else:
        written.append("an item no file wrote")
    try:
        assert str(game_dir / "ruleset.yaml") in cached_files_changed()
    finally:
        if isinstance(written, dict):
            del written["a key no file wrote"]
        else:
            written.pop()
    assert cached_files_changed() == []
