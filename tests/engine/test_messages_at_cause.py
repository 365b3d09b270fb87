"""Weak messages made strong: each slip a new author makes is reported at its cause with a
sentence that says what to write instead (through `rulebook validate`)."""

from __future__ import annotations

import textwrap

import pytest

from interpreter.cli.main import main

RULESET = """\
ruleset: slips
players: {{min: 2, max: 2}}
sets:
  roles: [early, late]
state:
  global:
    pot: {{counter: 0}}
  player:
    coins: {{counter: 0}}
flow:
  round:
    - each-player:
{as_line}        steps:
          - do: |
{do}
          - choose:
              who: 0
              options:
                - for: {for_}
                  id: "take:{{r}}"
  end-after-round-if: true
phases:
  work:
    - do: chooser.coins += 1
scoring:
  components:
    - name: coins
      value: p.coins
"""


def validate(tmp_path, capsys, do="pot += 1", for_="r in roles", as_line="        as: chooser\n"):
    path = tmp_path / "ruleset.yaml"
    body = textwrap.indent(textwrap.dedent(do).strip("\n"), " " * 16)
    path.write_text(RULESET.format(do=body, for_=for_, as_line=as_line))
    code = main(["validate", str(path)])
    out = capsys.readouterr().out
    return code, out.replace(str(path), "R")


def test_the_template_is_valid(tmp_path, capsys):
    code, out = validate(tmp_path, capsys)
    assert code == 0, out


SYNTAX_SLIPS = [
    pytest.param(
        "pot = chooser.cost-privilege(2)",
        "R:16:45: error[D001]: unexpected '('; 'cost-privilege' is one name (a hyphen between "
        "letters joins a name); to subtract, put spaces around the minus: `cost - privilege(...)`",
        id="hyphen-before-call",
    ),
    pytest.param(
        "if 1 <= pot <= 2:\n  pot += 1",
        "R:16:29: error[D001]: unexpected '<='; comparisons do not chain: write "
        "`a <= n and n <= b` instead of `a <= n <= b`",
        id="chained-comparison",
    ),
    pytest.param(
        "if pot > 1:\npot += 1",
        "R:17:17: error[D001]: unexpected 'pot'; the block after the ':' of line 1 must be "
        "indented more than that line (more than 0 space(s)), here it has 0",
        id="block-not-indented",
    ),
]


@pytest.mark.parametrize("do, said", SYNTAX_SLIPS)
def test_a_syntax_slip_is_said_at_its_cause(tmp_path, capsys, do, said):
    code, out = validate(tmp_path, capsys, do=do)
    assert code == 1
    assert said in out


def test_a_dedent_to_no_open_block_names_the_allowed_indentations(tmp_path, capsys):
    code, out = validate(tmp_path, capsys, do="if pot > 1:\n    pot += 1\n  pot += 2")
    assert code == 1
    assert (
        "error[D001]: this line is indented by 2 space(s), which matches no open block; "
        "expected an indentation of 0 or 4"
    ) in out
    assert "R:18:19:" in out  # the line that is wrong, not the first line of the text


def test_a_for_without_in_shows_the_form_not_a_regex(tmp_path, capsys):
    code, out = validate(tmp_path, capsys, for_="roles")
    assert code == 1
    assert (
        "R:20:24: error[S006]: expected `NAME in COLLECTION`, e.g. `r in roles-in-play`, "
        "got 'roles'"
    ) in out
    assert "pattern" not in out


def test_a_missing_as_is_reported_once_at_the_each_player(tmp_path, capsys):
    code, out = validate(tmp_path, capsys, do="pot += 1\nchooser.coins += 1", as_line="")
    assert code == 1
    assert out.count("error[") == 1
    assert (
        "R:12:7: error[D003]: this each-player has no `as:`, so its seat is called `actor`, and "
        "'chooser' is used 2 time(s) (first at R:16:17) but nothing declares it "
        "(at /flow/round/0/each-player; add `as: chooser` under `each-player:`)"
    ) in out


@pytest.mark.parametrize("do", ["pot += chooserr.coins"])
def test_a_misspelt_name_keeps_its_did_you_mean(tmp_path, capsys, do):
    code, out = validate(tmp_path, capsys, do=do)
    assert code == 1
    assert "unknown name 'chooserr'" in out and "did you mean 'chooser'?" in out
