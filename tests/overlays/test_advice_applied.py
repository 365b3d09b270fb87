"""O008's and O012's advice, applied as written, gives a rule that composes and validates:
the advice names the file and the order that really fix it (a house rule extends the game's
expansion, not the reverse; an overlay that already extends the other is given after it; a
step nested one level deeper is added to its own list, not beside its parent). Through the
real command line on the shipped rulesets."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from interpreter.cli.main import main

# a house rule that replaces what The Nobles replaces too
HOUSE = """\
overlay: windrose
extends: puerto-rico
replace:
  functions/windrose-colonists:
    params: [p]
    expr: p.san-juan
"""


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out + out.err


def _show_with(capsys: pytest.CaptureFixture[str], overlays: str) -> tuple[int, str]:
    return _run(capsys, "show", "puerto-rico", "--with", overlays, "functions/windrose-colonists")


def test_o008_asks_the_house_rule_to_extend_the_expansion_and_that_works(capsys, tmp_path):
    rule = tmp_path / "windrose.yaml"
    rule.write_text(HOUSE)
    # given before The Nobles, the conflict is reported at nobles.yaml: the advice still names
    # the house rule (a game's own expansion is not the file to change)
    code, out = _show_with(capsys, f"{rule},nobles")
    assert code == 1 and "error[O008]" in out
    advice = re.search(r"give (\S+) 'extends: (\S+)', and '(\S+)' before it in --with", out)
    assert advice, out
    assert advice.group(1) == "windrose.yaml" and advice.group(2) == "nobles"
    # applied: the house rule extends nobles, and goes after it
    rule.write_text(HOUSE.replace("extends: puerto-rico", f"extends: {advice.group(2)}"))
    assert _run(capsys, "validate", str(rule))[0] == 0
    code, out = _show_with(capsys, f"{advice.group(3)},{rule}")
    assert code == 0 and "expr: p.san-juan" in out


def test_o008_for_an_overlay_given_before_the_one_it_extends_says_the_order(capsys, tmp_path):
    rule = tmp_path / "windrose.yaml"
    rule.write_text(HOUSE.replace("extends: puerto-rico", "extends: nobles"))
    # it says so, instead of asking nobles to extend the house rule
    code, out = _show_with(capsys, f"{rule},nobles")
    assert code == 1
    assert "give 'nobles' before 'windrose' in --with" in out
    assert "extends: windrose" not in out
    assert "'nobles' is given after it: give 'nobles' before it in --with" in out  # O004's too


def test_o008_at_the_house_rule_keeps_this_one(capsys, tmp_path):
    rule = tmp_path / "windrose.yaml"
    rule.write_text(HOUSE)
    code, out = _show_with(capsys, f"nobles,{rule}")
    assert code == 1 and "give this one 'extends: nobles'" in out


def test_o012_for_a_step_one_level_deeper_points_at_its_list(capsys, tmp_path: Path):
    rule = tmp_path / "greet.yaml"
    rule.write_text(
        "overlay: greet\nextends: san-juan\nadd:\n"
        "  flow/round/greet:\n    after: pick-role\n    log: hello\n"
    )
    code, out = _run(capsys, "validate", str(rule))
    assert code == 1 and "error[O012]" in out
    assert "did you mean 'choose-roles'" not in out  # that would greet once a round, not a pick
    fixed = re.search(r"add the new item there \('(\S+)'\)", out)
    assert fixed, out
    assert fixed.group(1) == "flow/round/choose-roles/repeat/steps/greet"
    rule.write_text(rule.read_text().replace("flow/round/greet", fixed.group(1)))
    code, out = _run(capsys, "validate", str(rule))
    assert code == 0, out
