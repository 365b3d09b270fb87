"""Language additions of issue 16: range(a, b), seat-after, an out-of-range seat is an error
(no silent wrap), and binding a builtin's or the engine's name is an error."""

from __future__ import annotations

import json
import textwrap

import pytest

from interpreter.cli.main import main

RULESET = """\
ruleset: lang
players: {{min: 2, max: 3}}
state:
  global:
    pot: {{counter: 0}}
flow:
  round:
    - do: |
{do}
  end-after-round-if: true
scoring:
  components:
    - name: pot
      value: pot
"""


def write(tmp_path, do: str):
    path = tmp_path / "ruleset.yaml"
    path.write_text(RULESET.format(do=textwrap.indent(textwrap.dedent(do).strip(), " " * 8)))
    return str(path)


def pot_after_one_round(tmp_path, capsys, do: str, players: int = 3) -> int:
    path = write(tmp_path, do)
    code = main(["play", path, "-p", str(players), "--seed", "1", "--json", "-q"])
    out, err = capsys.readouterr()
    assert code == 0, err
    return json.loads(out.splitlines()[-1])["scores"][0]["total"]


@pytest.mark.parametrize(
    "do, pot",
    [
        ("for i in range(2, 5):\n  pot += i", 9),
        ("for i in range(4):\n  pot += i", 6),
        ("pot = len(range(5, 2))", 0),
        ("pot = seat-after(2, 1)", 0),  # the seat after the last is the first
        ("pot = seat-after(0, 4)", 1),
        ("pot = player(2)", 2),
    ],
)
def test_range_of_two_bounds_and_seat_after(tmp_path, capsys, do, pot):
    assert pot_after_one_round(tmp_path, capsys, do) == pot


def test_a_seat_past_the_table_is_an_error_not_a_wrap(tmp_path, capsys):
    path = write(tmp_path, "pot = player(players)")
    assert main(["play", path, "-p", "3", "--seed", "1", "-q"]) == 1
    err = capsys.readouterr().err
    assert (
        "ruleset.yaml:9:9: error[E001]: a rule failed while setting up the game: player(3): no "
        "seat 3 in a 3-player game (seats 0 to 2); to count round the table use "
        "seat-after(seat, steps)"
    ) in err


@pytest.mark.parametrize(
    "do, name, what",
    [
        ("let round = 2", "round", "a name of the engine"),
        ("for players in range(2):\n  pot += 1", "players", "a name of the engine"),
        ("pot = sum(1 for len in range(2))", "len", "a builtin"),
    ],
)
def test_binding_a_builtin_or_engine_name_is_an_error(tmp_path, capsys, do, name, what):
    path = write(tmp_path, do)
    assert main(["validate", path]) == 1
    out = capsys.readouterr().out
    assert (
        f"error[D002]: '{name}' is {what} and cannot be bound with let or for; pick another "
        f"(e.g. '{name}-n')"
    ) in out
