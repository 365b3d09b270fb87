"""`#` starts a comment anywhere in an effect text (docs/dsl.md), full lines inside blocks too."""

from __future__ import annotations

import pytest

from interpreter.cli.main import main
from interpreter.dsl.parse.parser import DslSyntaxError, parse

BLOCKS = [
    # a full-line comment inside a block (the case that was a D001 on the next line)
    "if x:\n    a = 1\n    # comment\n    b = 2\n",
    # at column 0, deeper than the block, several in a row, at the start and at the end
    "# head\nif x:  # why\n    a = 1\n# left\n        # deeper\n\n    b = 2  # tail\n# last\n",
    # between an if and its else, and inside a for
    "if x:\n    a = 1\n    # before else\nelse:\n    # first line of the block\n    b = 2\n",
    "for k in ks:\n    # each\n    a += 1\n",
]


@pytest.mark.parametrize("text", BLOCKS)
def test_comment_lines_do_not_change_the_statements(text):
    bare = "\n".join(
        line.split("#")[0].rstrip() for line in text.splitlines() if line.split("#")[0].strip()
    )
    assert parse(text) == parse(bare + "\n")


def test_comments_in_an_expression():
    assert parse("x + 1  # trailing", "expr") == parse("x + 1", "expr")
    assert parse("max(a,  # first\n    b)", "expr") == parse("max(a, b)", "expr")


def test_a_comment_does_not_hide_a_missing_operand():
    with pytest.raises(DslSyntaxError) as caught:
        parse("x + # nothing follows", "expr")
    assert caught.value.message.startswith("the text ends too early")
    assert (caught.value.line, caught.value.column) == (1, 22)


def test_a_ruleset_with_comment_lines_in_its_blocks_validates(tmp_path, capsys):
    path = tmp_path / "ruleset.yaml"
    path.write_text(
        """ruleset: commented
players: {min: 2, max: 2}
state:
  global:
    pot: {counter: 0}
flow:
  round:
    - do: |
        # the pot grows every round
        if round > 0:
          # by one
          pot += 1
          # and never shrinks
        else:
          pot = 0  # not reached
  end-after-round-if: pot >= 3  # three rounds
scoring:
  components:
    - name: pot
      value: pot
"""
    )
    assert main(["validate", str(path), "--strict"]) == 0, capsys.readouterr().out
    assert main(["play", str(path), "-p", "2", "--seed", "1", "--json", "-q"]) == 0
