"""A seeded sample of the differential fuzz harness (mutations.py): mutations of the shipped
rule files, spread over every family; each one validate accepts is played, and none may then
fail at play or break a declared invariant. The full measurement (5,200 mutations, 20 games
each) is in docs/validate.md, with the command that reproduces it."""

from __future__ import annotations

import pytest

from tests.validate import mutations as fuzz

# Mutations that once passed validate and then failed at play: each must now be caught.
ONCE_ESCAPED = {
    ("number-null", "san-juan/ruleset.yaml", "65:68 '0' -> 'null'"),  # a null catalog default
    ("number-to-word", "puerto-rico/ruleset.yaml", "274:33 '0' -> 'zero'"),  # a piece field
    ("number-quoted", "puerto-rico/ruleset.yaml", "122:36 '1' -> '\"1\"'"),  # a default
    ("effect-name-swapped", "puerto-rico/ruleset.yaml", "446:10 'end-trigger' -> 'ship-6'"),
    ("effect-operator", "puerto-rico/ruleset.yaml", "342:24 ' - ' -> ' or '"),
    ("effect-name-swapped", "san-juan/ruleset.yaml", "449:48 'players' -> 'archive'"),  # a cond
    ("effect-operator", "puerto-rico/ruleset.yaml", "522:40 ' + ' -> ' and '"),
    ("effect-operator", "puerto-rico/new-buildings.yaml", "509:26 ' + ' -> ' and '"),
    ("effect-arguments-swapped", "puerto-rico/ruleset.yaml", "548:21 'p, kinds' -> 'kinds, p'"),
    ("effect-arguments-swapped", "puerto-rico/ruleset.yaml", "574:20 'p, n' -> 'n, p'"),
    (
        "effect-arguments-swapped",
        "san-juan/ruleset.yaml",
        "629:31 'actor, actor.made' -> 'actor.made, actor'",
    ),
}


def _once_escaped() -> list[fuzz.Mutation]:
    found = [
        m
        for m in fuzz.all_mutations(0)
        for family, file, text in ONCE_ESCAPED
        if m.family == family
        and m.file == file.split("/")[1]
        and m.game == file.split("/")[0]
        and text in m.describe()
    ]
    assert len(found) == len(ONCE_ESCAPED), "a mutation of ONCE_ESCAPED is no longer made"
    return found


def test_a_seeded_sample_never_passes_validate_and_then_fails_at_play(tmp_path):
    chosen = fuzz.sample(60, seed=1)
    assert {m.family for m in chosen} == set(fuzz.FAMILIES)
    outcomes = [fuzz.run_one(m, 3, tmp_path) for m in chosen]
    crashed = [f"{o.mutation.describe()}: {o.detail}" for o in outcomes if o.result == "crashed"]
    assert crashed == []
    assert sum(o.result == "caught" for o in outcomes) > len(outcomes) // 2


@pytest.mark.parametrize("mutation", _once_escaped(), ids=lambda m: m.describe())
def test_a_mutation_that_once_escaped_is_caught(mutation, tmp_path):
    outcome = fuzz.run_one(mutation, 0, tmp_path)
    assert outcome.result == "caught", outcome.detail
