"""Property test: damaged rule files fail only with RulesError, never with anything else."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings, strategies as st

from interpreter.diagnostics.errors import RulesError
from interpreter.load.yamlload import load_yaml_text

SEED = """\
ruleset: toy
base: &b {cost: 1, tags: [a, b]}
sections:
  entries:
    alpha:
      <<: *b
      size: "big"
    beta: {cost: 2, note: 'x: y'}
  steps:
    - one
    - [two, {k: v}]
    - |
      text block
table: {3: 2, 4: 3}
"""


@st.composite
def mutated(draw: st.DrawFn) -> str:
    text = SEED
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["delete", "cut", "dup_line", "insert"]))
        if not text:
            break
        i = draw(st.integers(0, len(text) - 1))
        if kind == "delete":
            text = text[:i] + text[i + 1 :]
        elif kind == "cut":
            text = text[:i]
        elif kind == "insert":
            ch = draw(st.sampled_from(list("\t :-[]{}&*!|>'\"#%@`,?\n\x00\x07")))
            text = text[:i] + ch + text[i:]
        else:
            lines = text.splitlines(keepends=True)
            j = draw(st.integers(0, len(lines) - 1))
            text = "".join(lines[: j + 1] + [lines[j]] + lines[j + 1 :])
    return text


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_mutations_raise_only_rules_error(text: str) -> None:
    try:
        load_yaml_text(text, "fuzz.yaml")
    except RulesError as err:
        for d in err.diagnostics:
            assert d.file == "fuzz.yaml"
            assert d.code.startswith("Y")
            assert d.line is None or d.line >= 1
            assert d.column is None or d.column >= 1


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=200))
def test_arbitrary_text_raises_only_rules_error(text: str) -> None:
    try:
        load_yaml_text(text, "any.yaml")
    except RulesError:
        pass
