"""The fast schema validator (interpreter/load/fastschema.py) may only ever say "valid" of a
document jsonschema finds valid too, or a slip would pass validate unreported; and it should
say so of every valid one, or it would save nothing. Both are asked about every rule file,
scenario, config and fixture in the repository, against every schema, and about mutants of
the shipped rule files (the fuzz harness's data edits: words, quotes, nulls, lists, negative
numbers, misspelt ids, left-out attributes)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from interpreter.diagnostics.errors import RulebookError
from interpreter.load import fastschema
from interpreter.load.schema import load_schema, to_plain
from interpreter.load.schemafiles import registry, schemas_dir
from interpreter.load.yamlload import load_yaml_file, load_yaml_text
from tests.validate import mutations

ROOT = Path(__file__).resolve().parents[2]
KINDS = ("ruleset", "overlay", "config", "scenario")


def _slow_is_valid(plain: object, kind: str) -> bool:
    schema = load_schema(kind)
    validator = Draft202012Validator(schema, registry=registry(str(schemas_dir())))
    return next(validator.iter_errors(plain), None) is None


def _documents() -> list[Path]:
    found = []
    for folder in ("rulesets", "examples", "tests"):
        found += sorted((ROOT / folder).rglob("*.yaml"))
    return found


def test_every_shipped_schema_has_a_fast_validator():
    for kind in KINDS:
        assert fastschema._validator(load_schema(kind)) is not None, kind


def test_both_say_valid_of_the_same_files():
    compared = disagree = 0
    problems = []
    for path in _documents():
        try:
            plain = to_plain(load_yaml_file(path).data)
        except RulebookError:
            continue  # not YAML at all: no schema is asked
        for kind in KINDS:
            fast = fastschema.fast_is_valid(plain, load_schema(kind))
            slow = _slow_is_valid(plain, kind)
            compared += 1
            if fast != slow:
                disagree += 1
                problems.append(f"{path.relative_to(ROOT)} as {kind}: fast {fast}, slow {slow}")
    assert compared > 300
    assert problems == [], problems[:10]
    assert disagree == 0


def _data_mutants(seed: int) -> list[mutations.Mutation]:
    rng = random.Random(seed)
    out = []
    for game, file, _, _ in mutations.FILES:
        path = ROOT / "rulesets" / game / file
        text = path.read_text(encoding="utf-8")
        out += mutations._data_mutations(game, file, text, load_yaml_file(path).data, rng)
    rng.shuffle(out)
    return out


@pytest.mark.parametrize("seed", [0, 1])
def test_both_say_valid_of_the_same_mutants(seed):
    # the data edits of the fuzz harness, on the shipped rule files: most break the schema
    # (a word for a number), some only a later check (a misspelt id)
    invalid = 0
    for m in _data_mutants(seed)[:60]:  # enough to reach the refusals as the rule files change
        path = ROOT / "rulesets" / m.game / m.file
        text = m.apply(path.read_text(encoding="utf-8"))
        try:
            plain = to_plain(load_yaml_text(text, str(path)).data)
        except RulebookError:
            continue
        kind = "ruleset" if m.file == "ruleset.yaml" else "overlay"
        fast = fastschema.fast_is_valid(plain, load_schema(kind))
        slow = _slow_is_valid(plain, kind)
        assert fast == slow, m.describe()
        invalid += not slow
    assert invalid > 5  # the sample did reach the schema's refusals
