"""Every slip from the "validate is sound" issue: a one-line edit of a shipped rule file that
stays valid YAML and fits the JSON Schema's shape, rejected by `rulebook validate` with exit 1
and an error on the edited line (the column of the odd value where the YAML gives one)."""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest

from interpreter.check.pipeline import validate
from interpreter.cli.main import main

ROOT = Path(__file__).resolve().parents[2]
PR = "puerto-rico/ruleset.yaml"
SJ = "san-juan/ruleset.yaml"


@dataclass(frozen=True)
class Slip:
    file: str
    old: str  # the exact text replaced (its first occurrence)
    new: str
    mark: str  # where the error must point: the first occurrence of this text in the new line
    # or, for a slip found where the value is used: the first occurrence of at[0] in the edited
    # file, and at[1] within it
    at: tuple[str, str] | None = None


SLIPS = {
    # -- data: words, quotes, nulls and lists where numbers belong ----------------------------
    "cost-as-a-word": Slip(
        PR, "small-market:\n        cost: 1", "small-market:\n        cost: eight", "eight"
    ),
    "vp-in-quotes": Slip(
        PR,
        "hacienda:\n        cost: 2\n        vp: 1",
        'hacienda:\n        cost: 2\n        vp: "3"',
        '"3"',
    ),
    "price-zero-as-a-word": Slip(PR, "price: {corn: 0,", "price: {corn: zero,", "zero"),
    "copies-a-fraction": Slip(PR, "ship-4: {capacity: 4}", "ship-4: {capacity: 2.5}", "2.5"),
    "list-where-a-number-belongs": Slip(
        PR, "wharf:\n        cost: 9", "wharf:\n        cost: [9, 10]", "[9"
    ),
    "null-in-a-player-count-table": Slip(
        PR, "start-doubloons: {2: 3, 3: 2,", "start-doubloons: {2: 3, 3: null,", "3: null"
    ),
    # -- ids that do not exist ------------------------------------------------------------------
    "unknown-ship-in-a-table-list": Slip(
        PR, "2: [ship-4, ship-6]", "2: [ship-4, ship-66]", "ship-66"
    ),
    "unknown-tile-in-a-table-list": Slip(
        PR,
        "2: [indigo-plantation, corn-plantation]",
        "2: [indigo-plantation, corn-plantaton]",
        "corn-plantaton",
    ),
    "misspelt-good-as-a-table-key": Slip(
        PR,
        "price: {corn: 0, indigo: 1, sugar: 2, tobacco: 3",
        "price: {corn: 0, indigo: 1, sugar: 2, tobaco: 3",
        "tobaco",
    ),
    # -- negatives where counts belong --------------------------------------------------------
    "negative-circles": Slip(
        PR,
        "sugar-mill: {cost: 4, vp: 2, circles: 3",
        "sugar-mill: {cost: 4, vp: 2, circles: -3",
        "-3",
    ),
    "negative-spaces": Slip(
        PR,
        "fortress:\n        cost: 10\n        vp: 4\n        column: 4\n        copies: 1\n"
        "        spaces: 2",
        "fortress:\n        cost: 10\n        vp: 4\n        column: 4\n        copies: 1\n"
        "        spaces: -2",
        "-2",
    ),
    "negative-grant": Slip(PR, "grants: {sale-bonus: 1}", "grants: {sale-bonus: -1}", "-1"),
    "negative-copies": Slip(
        PR,
        "coffee-plantation: {good: coffee, copies: 8}",
        "coffee-plantation: {good: coffee, copies: -8}",
        "-8",
    ),
    # -- effect texts: types (D008-D010) ----------------------------------------------------
    "text-plus-number": Slip(
        PR,
        "game-end: owner.bonus-vp += (owner.vp-chips + owner.vp-paper) // customs-house-vp-per-vp",
        'game-end: owner.bonus-vp += "x" + 3',
        '"x"',
    ),
    "id-compared-with-number": Slip(PR, "if b.kind == violet)", "if b.kind == 3)", "b.kind"),
    "len-of-a-number": Slip(
        PR, "len(owner.island) - residence-vp", "len(5) - residence-vp", "5) -"
    ),
    "field-of-a-list": Slip(
        PR,
        "city-hall-vp-per-violet * count(b for b in owner.city if b.kind == violet)",
        "city-hall-vp-per-violet * owner.city.cost",
        "cost",
    ),
    "table-indexed-by-a-seat": Slip(
        PR, "let amount = price[k] + p.sale-bonus", "let amount = price[p] + p.sale-bonus", "p]"
    ),
    "good-as-an-amount": Slip(
        PR, "produced: pay(owner, factory-pay[kinds])", "produced: pay(owner, corn)", "corn"
    ),
    "building-as-points": Slip(
        PR, "      gain-vp(p, n * vp-per-barrel)\n", "      gain-vp(p, harbor)\n", "harbor)"
    ),
    "pile-compared-with-number": Slip(
        SJ, "if len(owner.hand) <= 1:", "if owner.hand <= 1:", "owner.hand"
    ),
    "role-placed-as-a-ship": Slip(PR, "place(s, ships)", "place(settler, ships)", "settler"),
    "attribute-some-entries-lack": Slip(
        PR,
        "small-market:\n        cost: 1\n        vp: 1\n",
        "small-market:\n        cost: 1\n",
        "",
        at=("value: sum(b.vp for b in p.city)", "vp for"),
    ),
    "role-without-a-phase": Slip(
        PR,
        "prospector-2: {phase: prospector}",
        "prospector-2: {phase: none}",
        "",
        at=("phase: role.phase", "role.phase"),
    ),
    "null-as-a-whole-table": Slip(PR, "island-spaces: 12", "island-spaces: null", "island-spaces"),
    "event-values-swapped": Slip(
        PR, "emit produced(p, kinds)", "emit produced(kinds, p)", "kinds, p"
    ),
    # found by the fuzz harness: `==` mistyped as `+` inside all() made every item a number,
    # and all() of numbers is true whenever none is 0
    "numbers-under-all": Slip(
        PR,
        "          == (b.copies if players > 2 else b.copies-2p) for b in buildings)",
        "          + (b.copies if players > 2 else b.copies-2p) for b in buildings)",
        "",
        at=("all(building-supply[b]", "building-supply"),
    ),
    # found by the fuzz harness too: a count swapped for a 0 that a division then uses
    "division-by-a-written-zero": Slip(PR, "let q = n // players +", "let q = n // 0 +", "n // 0"),
    # and a seat written as a number that a 2-player game does not have
    "seat-number-past-the-smallest-game": Slip(
        PR,
        "emit tile-placed(actor, place(quarry, actor.island))",
        "emit tile-placed(2, place(quarry, actor.island))",
        "2,",
    ),
    # an option's `for:` going through an id (its letters, one by one, at play)
    "option-for-over-an-id": Slip(
        PR,
        '              - id: "keep:{k}"\n                for: k in goods',
        '              - id: "keep:{k}"\n                for: k in large-warehouse',
        "large-warehouse",
    ),
    "who-not-a-seat": Slip(
        PR,
        "who: chooser\n                    label: choose a role",
        "who: role\n                    label: choose a role",
        "role",
    ),
}


def _mutated_copy(tmp_path: Path, slip: Slip) -> tuple[Path, int, int]:
    """A copy of the rulesets with the slip made; the file, and the line and column of mark."""
    copy = tmp_path / "rulesets"
    shutil.copytree(ROOT / "rulesets", copy, ignore=shutil.ignore_patterns("*.py"))
    path = copy / slip.file
    text = path.read_text(encoding="utf-8")
    assert slip.old in text, f"the slip's text is no longer in {slip.file}: {slip.old!r}"
    text = text.replace(slip.old, slip.new, 1)
    path.write_text(text, encoding="utf-8")
    if slip.at is not None:
        at = text.index(slip.at[0]) + slip.at[0].index(slip.at[1])
    else:
        at = text.index(slip.new) + slip.new.index(slip.mark)
    line = text.count("\n", 0, at) + 1
    column = at - (text.rfind("\n", 0, at) + 1) + 1
    return path, line, column


@pytest.mark.parametrize("name", sorted(SLIPS))
def test_slip_is_an_error_at_its_line(name, tmp_path):
    path, line, column = _mutated_copy(tmp_path, SLIPS[name])
    report = validate([path])
    errors = [d for d in report.diagnostics if d.severity == "error"]
    assert errors, f"{name}: validate accepted the slip"
    here = [d for d in errors if d.file and Path(d.file).resolve() == path.resolve()]
    assert any(d.line == line for d in here), (
        f"{name}: no error at {path.name}:{line}; got:\n" + "\n".join(d.format() for d in errors)
    )
    assert any(d.line == line and d.column == column for d in here), (
        f"{name}: the error on line {line} is not at column {column}:\n"
        + "\n".join(d.format() for d in here)
    )


def test_a_slip_exits_1_from_the_command_line(tmp_path, capsys):
    path, line, _ = _mutated_copy(tmp_path, SLIPS["cost-as-a-word"])
    assert main(["validate", str(path)]) == 1
    err = capsys.readouterr()
    assert f"{path.name}:{line}:" in err.out + err.err
    message = "'cost' of 'small-market': expected a whole number of 0 or more (as in the other "
    assert message + "buildings), got 'eight'" in err.out + err.err


def test_an_id_of_the_wrong_catalog_close_to_a_right_one_gets_a_guess(tmp_path):
    slip = Slip(PR, "if x.good == k)", "if x.type == indigo)", "indigo")
    path, line, column = _mutated_copy(tmp_path, slip)
    [error] = [d for d in validate([path]).diagnostics if d.severity == "error"]
    assert (error.line, error.code) == (line, "D008")
    assert "an id of goods ('indigo') (did you mean 'indigo-plantation'?)" in error.message
