"""Event values are typed from their `emit` sites, every value, not only the seat: a site that
passes another kind of value than the sites before it is refused there, and a hook that uses a
value as another type than the sites pass is refused in the hook (expression_types.note_emit)."""

from __future__ import annotations

from pathlib import Path

from interpreter.check.pipeline import validate

FIXTURES = Path(__file__).parent / "fixtures"


def _error(name: str, tmp_path: Path, old: str = "", new: str = "") -> object:
    text = (FIXTURES / name).read_text(encoding="utf-8").split("\n", 1)[1]
    path = tmp_path / "ruleset.yaml"
    path.write_text(text.replace(old, new) if old else text, encoding="utf-8")
    errors = [d for d in validate([path]).diagnostics if d.severity == "error"]
    return errors[0] if len(errors) == 1 else errors


def test_a_hook_using_a_value_as_a_count_that_its_sites_pass_as_an_id(tmp_path: Path) -> None:
    error = _error("d_event_value_type.yaml", tmp_path)
    assert (error.code, error.line, error.column) == ("D008", 25, 35)
    assert "needs numbers, got an id of colors" in error.message


def test_the_odd_emit_site_is_refused_at_its_value(tmp_path: Path) -> None:
    error = _error("d_event_sites_disagree.yaml", tmp_path)
    assert (error.code, error.line, error.column) == ("D008", 62, 34)
    assert "value 2 of event 'scored'" in error.message
    assert "expected a whole number of 0 or more" in error.message


def test_sites_that_agree_and_a_hook_that_fits_are_accepted(tmp_path: Path) -> None:
    same = "          emit scored(player(i), 2)\n          emit scored(player(i), 3)\n"
    odd = "          emit scored(player(i), 2)\n          emit scored(player(i), red)\n"
    assert _error("d_event_sites_disagree.yaml", tmp_path, odd, same) == []


def test_a_value_some_site_passes_as_none_needs_a_guard_in_the_hook(tmp_path: Path) -> None:
    maybe = "          emit scored(player(i), 2)\n          emit scored(player(i), none)\n"
    odd = "          emit scored(player(i), 2)\n          emit scored(player(i), red)\n"
    error = _error("d_event_sites_disagree.yaml", tmp_path, odd, maybe)
    assert (error.code, error.line) == ("D011", 25)
    guarded = maybe
    hook = "scored: owner.points += amount"
    text_old, text_new = hook, "scored: owner.points += amount if amount != none else 0"
    path = tmp_path / "guarded.yaml"
    source = (FIXTURES / "d_event_sites_disagree.yaml").read_text(encoding="utf-8")
    source = source.split("\n", 1)[1].replace(odd, guarded).replace(text_old, text_new)
    path.write_text(source, encoding="utf-8")
    assert [d for d in validate([path]).diagnostics if d.severity == "error"] == []
