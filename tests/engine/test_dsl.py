"""The effect DSL on its own: compiled against the toy game's names, then run on a state.

Values and precedence are checked through the compiler directly; error positions are checked
end to end, by loading copies of tests/toy/ruleset.yaml with one mistake each, because a rules
author meets them as `file:line:col` of the rule file. Expected positions are computed from
where the mistake sits in the broken file, never copied from the engine's output.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.diagnostics.errors import Diagnostic, RulesError
from interpreter.dsl.compiler import Compiler, Scope
from interpreter.dsl.parse.parser import DslSyntaxError
from interpreter.engine.game import Game
from interpreter.engine.loader import load_game
from interpreter.engine.state import State

TOY = Path(__file__).resolve().parents[1] / "toy" / "ruleset.yaml"
FLOW_VARS = ("card", "chooser", "actor")  # flow.variables + the each-player `as` names


@pytest.fixture(scope="module")
def game() -> Game:
    return load_game(str(TOY), players=3)


@pytest.fixture
def dsl(game: Game) -> Compiler:
    root = Scope(None)
    for v in FLOW_VARS:
        root.bindings[v] = ("var", v)
    return Compiler(game.env, root)


@pytest.fixture
def state(game: Game) -> State:
    return game.new_state(1)


def ev(dsl: Compiler, state: State, text: str):  # noqa: ANN201 - any DSL value
    return dsl.expression(text, dsl.root)(state)


def run(dsl: Compiler, state: State, text: str) -> None:
    dsl.statements(text, dsl.root)(state)


# -- values and precedence ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, value",
    [
        ("1 + 2 * 3", 7),
        ("(1 + 2) * 3", 9),
        ("10 - 2 - 3", 5),
        ("7 // 2 * 2", 6),
        ("7 % 4 * 2", 6),
        ("2 * 7 % 4", 2),
        ("-7 // 2", -4),
        ("-2 * -3", 6),
        ("2 - -3", 5),
        ("- (1 + 2)", -3),
        ("-price[cabbage] + 1", -2),
        ("1 + 1 == 2", True),
        ("3 - 1 in [2]", True),
        ("1 < 2 and 2 <= 2 and 3 != 4 and 4 >= 4 and 5 > 4", True),
        ("not 1 == 2", True),
        ("not true or true", True),
        ("not true and false", False),
        ("not not true", True),
        ("not 0", True),
        ("true or false and false", True),
        ("(true or false) and false", False),
        ("false and true or true", True),
        ("1 if true else 2", 1),
        ("1 + 2 if false else 5", 5),
        ("1 if false else 2 if false else 3", 3),
        ("(1 if false else 2) * 10", 20),
        ("1 + (2 if true else 0)", 3),
        ("1 if 2 > 1 and not false else 0", 1),
        ("turnip in crops", True),
        ("turnip not in crops", False),
        ("none == none", True),
        ("end-reason == none", True),
        ("[1, 2, 3][1]", 2),
        ("price[pumpkin] * 2", 4),
    ],
)
def test_expression_values(dsl, state, text, value):
    assert ev(dsl, state, text) == value


@pytest.mark.parametrize(
    "text, value",
    [
        ("crop-stock", 12),  # one name
        ("crop-stock - row-size", 10),  # a subtraction
        ("crop-stock -row-size", 10),
        ("crop-stock- row-size", 10),
        ("street-length-1 if false else 1", None),  # one (unknown) name: see the errors below
        ("seat-distance(0, 2)", 1),  # a function whose name has a hyphen
        ("seat-distance(0, 2) - 1", 0),
        ("players - 1", 2),
    ],
)
def test_hyphens_join_names_and_spaces_subtract(dsl, state, text, value):
    if value is None:
        with pytest.raises(DslSyntaxError, match="unknown name 'street-length-1'"):
            ev(dsl, state, text)
    else:
        assert ev(dsl, state, text) == value


@pytest.mark.parametrize(
    "text, value",
    [
        ("sum(price[k] for k in crops)", 6),
        ("sum(price[k] for k in crops if k != turnip)", 5),
        ("sum([1, 2, 3])", 6),
        ("count(k for k in crops if price[k] > 1)", 2),
        ("count(crops)", 3),
        ("any(price[k] > 2 for k in crops)", True),
        ("any(price[k] > 2 for k in crops if k != cabbage)", False),
        ("any([])", False),
        ("all(price[k] > 1 for k in crops)", False),
        ("all(price[k] > 1 for k in crops if k != turnip)", True),
        ("all([])", True),
        ("first(k for k in crops if price[k] == 2)", "pumpkin"),
        ("first(k for k in crops if price[k] == 9)", None),
        ("first(crops)", "turnip"),
        ("list(price[k] * 2 for k in crops)", [2, 4, 6]),
        ("list(crops)", ["turnip", "pumpkin", "cabbage"]),
        ("distinct(x.crop for x in stalls)", ["turnip", "pumpkin", "cabbage", None]),
        ("distinct(x.renown for x in stalls if x.crop == none)", [1, 2, 3]),
        ("distinct([2, 1, 2, 1])", [2, 1]),
        ("min(price[k] for k in crops)", 1),
        ("max(price[k] for k in crops if k != cabbage)", 2),
        ("max(price[k] for k in crops if k == none)", 0),  # empty: 0
        ("min(3, 1, 2)", 1),
        ("max(3, 9)", 9),
        ("min([4, 2])", 2),
        ("max([])", 0),
        ("sum(sum(1 for j in range(i)) for i in range(4))", 6),  # nested forms
        ("len(stall-row)", 2),
        ("abs(2 - 5)", 3),
        ("total(crop-pool)", 36),
        ("keys(price)", ["turnip", "pumpkin", "cabbage"]),
        ("list(range(3))", [0, 1, 2]),
        ("seats-from(2)", [2, 0, 1]),
        ("player(2)", 2),
        ("seat-after(2, 2)", 1),  # round the table: player(4) is an error, not a wrap
        ("has(player(0).stalls, turnip-cart)", True),
        ("has(player(0).stalls, bell)", False),
        ("find(player(0).stalls, turnip-cart).staffed", 1),
        ("find(player(0).stalls, bell)", None),
        ("bell.renown + awning.cost", 5),
        ("sum(x.renown for x in player(1).stalls)", 1),
        ("player(0).markup", 0),
        ("option.last-round", 6),
        ("option.coin-rate == plain", True),
        ("players", 3),
        ("seats", (0, 1, 2)),
        ("round", 1),
    ],
)
def test_builtins_and_generator_forms(dsl, state, text, value):
    assert ev(dsl, state, text) == value


def test_abilities_sum_what_active_pieces_grant(dsl, state):
    state.p[2]["stalls"] += [
        {"type": "awning", "staffed": 1},
        {"type": "painted-sign", "staffed": 1},
        {"type": "fiddler", "staffed": 1},
    ]
    assert ev(dsl, state, "player(2).markup") == 2
    run(dsl, state, "find(player(2).stalls, painted-sign).staffed = 0")
    assert ev(dsl, state, "player(2).markup") == 1
    run(dsl, state, "place(awning, player(2).stalls).staffed = 1")
    assert ev(dsl, state, "player(2).markup") == 2  # two awnings: grants add up


@pytest.mark.parametrize(
    "text, value",
    [
        ('"plain text"', "plain text"),
        ('"{1 + 2} crops"', "3 crops"),
        ('"a {price[cabbage] * 2} b {price[turnip]}"', "a 6 b 1"),
        ('"{turnip}/{none}/{1 == 1}/{1 == 2}"', "turnip/none/yes/no"),
        ('"seat {chooser} took {card}"', "seat 2 took festival"),
        ('"{seat-distance(0, 2)}{crop-stock - 2}"', "110"),
    ],
)
def test_templates(dsl, state, text, value):
    state.v.update(chooser=2, card="festival")
    assert ev(dsl, state, text) == value


# -- statements ----------------------------------------------------------------------------------


def test_let_for_if_elif_else(dsl, state):
    run(
        dsl,
        state,
        "let n = 0\n"
        "for k in crops:\n"
        "    if price[k] == 1:\n"
        "        n += 10\n"
        "    elif price[k] == 2:\n"
        "        n += 20\n"
        "    else:\n"
        "        n -= 1\n"
        "host = n\n",
    )
    assert state.g["host"] == 29


def test_semicolons_augassign_and_indexes(dsl, state):
    run(dsl, state, "host = 1; host += 2; host -= 1\ncrop-pool[turnip] -= 2")
    assert state.g["host"] == 2 and state.g["crop-pool"]["turnip"] == 10
    run(dsl, state, "player(1).basket[cabbage] += 3; card = festival")
    assert state.p[1]["basket"]["cabbage"] == 3 and state.v["card"] == "festival"


def test_procedures_functions_and_piece_fields(dsl, state):
    run(dsl, state, "earn(player(1), 5)")
    assert state.p[1]["coins"] == 3 + 5
    run(dsl, state, "let x = place(awning, player(1).stalls)\nx.staffed = 2")
    assert state.p[1]["stalls"][-1] == {"type": "awning", "staffed": 2}
    assert ev(dsl, state, "can-buy(player(1), bell)") is True  # 8 coins, bell costs 4


def test_emit_runs_hooks_of_active_pieces_only(dsl, state):
    state.p[0]["stalls"].append({"type": "fiddler", "staffed": 0})
    run(dsl, state, "emit sold(0, turnip)")
    assert state.p[0]["fame"] == 0
    state.p[0]["stalls"][-1]["staffed"] = 1
    run(dsl, state, "emit sold(0, turnip)")
    assert state.p[0]["fame"] == 1


def test_log_statement(dsl, state):
    before = len(state.log)
    run(dsl, state, 'log "host is {host}, pool {total(crop-pool)}"')
    assert state.log[before:] == [(1, None, "host is 0, pool 36")]


def test_shuffle_and_draw_use_the_states_generator(dsl, game):
    a, b = game.new_state(5), game.new_state(5)
    for s in (a, b):
        run(dsl, s, "shuffle(stall-deck)\nhost = random(1000)")
    assert a.g["stall-deck"] == b.g["stall-deck"] and a.g["host"] == b.g["host"]
    top = a.g["stall-deck"][-1]
    run(dsl, a, "push(stall-row, draw(stall-deck))")
    assert a.g["stall-row"][-1] == top and len(a.g["stall-deck"]) == len(b.g["stall-deck"]) - 1


# -- errors from the compiler (positions inside the text) ------------------------------------------


@pytest.mark.parametrize(
    "text, code, line, column, words",
    [
        ("host = 1\nhost += bogus", "D003", 2, 9, "unknown name 'bogus'"),
        # a block that is not indented (the message could say "expected an indented block")
        ("host = 1\nfor k in crops:\nhost = 2", "D001", 3, 1, "unexpected 'host'"),
        ("host = = 1", "D001", 1, 8, "unexpected '='"),
        ("players = 2", "D002", 1, 1, "fixed by the rules"),
        ("price = 3", "D002", 1, 1, "fixed by the rules"),
        ("stall-row = 1", "D002", 1, 1, "is a pile"),
        ("emit nosuch(1)", "D004", 1, 6, "declare it under events"),
        ("emit sold(1)", "D005", 1, 6, "takes 2 values (player, crop), got 1"),
        ("push(stall-row)", "D005", 1, 1, "'push' takes 2 values, got 1"),
        ("earn(1, 2, 3)", "D005", 1, 1, "'earn' takes 2 values (p, n), got 3"),
        ("host = can-sell(1)", "D005", 1, 8, "'can-sell' takes 2 values"),
        ("host = sum(1, 2)", "D005", 1, 8, "'sum' takes 1 values, got 2"),
        ("host = option.last-rnd", "D003", 1, 15, "did you mean 'last-round'?"),
        ("host = earn(1, 2)", "D002", 1, 8, "is a procedure"),
        ("host = 1 < 2 < 3", "D001", 1, 14, "unexpected '<'"),
        ('log "{host"', "D002", 1, 5, "never closed"),
    ],
)
def test_statement_errors_carry_code_and_position(dsl, text, code, line, column, words):
    with pytest.raises(DslSyntaxError) as e:
        dsl.statements(text, dsl.root)
    assert (e.value.code, e.value.line, e.value.column) == (code, line, column)
    assert words in e.value.message


# -- errors in rule files: file, line and column inside the effect text ----------------------------


def broken(tmp_path: Path, old: str, new: str) -> Path:
    """A copy of the toy ruleset with one text replaced (the replaced text must be unique)."""
    text = TOY.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"not unique in the toy ruleset: {old!r}"
    path = tmp_path / "ruleset.yaml"
    path.write_text(text.replace(old, new), encoding="utf-8")
    return path


def where(path: Path, new: str, needle: str) -> tuple[int, int]:
    """1-based line and column of `needle` inside the replacement text `new` in the file."""
    text = path.read_text(encoding="utf-8")
    i = text.index(new) + new.index(needle)
    return text.count("\n", 0, i) + 1, i - text.rfind("\n", 0, i)


def errors(path: Path) -> list[Diagnostic]:
    with pytest.raises(RulesError) as e:
        load_game(str(path), players=3)
    return [d for d in e.value.diagnostics if d.severity == "error"]


def said(d: Diagnostic) -> str:
    return f"{d.message} {d.hint or ''}"


class Mistake:
    def __init__(self, old: str, new: str, needle: str, code: str, words: str) -> None:
        self.old, self.new, self.needle, self.code, self.words = old, new, needle, code, words


MISTAKES = {
    # a plain single-line scalar in a flow step
    "plain-do": Mistake(
        "    - do: earn(chooser, 1)", "    - do: earn(chooser, won)", "won", "D003", "'won'"
    ),
    # a double-quoted scalar
    "quoted-do": Mistake(
        "    - do: earn(chooser, 1)",
        '    - do: "earn(chooser, won)"',
        "won",
        "D003",
        "unknown name 'won'",
    ),
    # the 3rd line of a `do: |` block (inside a procedure: reported at the procedure's text)
    "block-3rd-line": Mistake(
        "      remove(stall-row, st)\n",
        "      remove(stall-rows, st)\n",
        "stall-rows",
        "D003",
        "did you mean 'stall-row'?",
    ),
    # the 4th line of a flow step's `do: |` block
    "block-4th-line": Mistake(
        "        clear(card-taken)\n",
        "        clear(card-takn)\n",
        "card-takn",
        "D003",
        "did you mean 'card-taken'?",
    ),
    "syntax-in-procedure": Mistake(
        "    do: p.coins += n", "    do: p.coins += * n", "*", "D001", "unexpected '*'"
    ),
    "misspelt-function": Mistake(
        "    - do: refill-row()", "    - do: refil-row()", "refil-row", "D003", "'refill-row'?"
    ),
    "misspelt-event": Mistake(
        "      emit sold(p, k)", "      emit sould(p, k)", "sould", "D004", "'sold'?"
    ),
    "event-argument-count": Mistake(
        "      emit sold(p, k)", "      emit sold(p)", "sold", "D005", "takes 2 values"
    ),
    "procedure-argument-count": Mistake(
        "    - do: earn(chooser, 1)", "    - do: earn(chooser)", "earn", "D005", "takes 2 values"
    ),
    "function-argument-count": Mistake(
        "let cost = stall-price(p, st)",
        "let cost = stall-price(p)",
        "stall-price",
        "D005",
        "'stall-price' takes 2 values (p, st), got 1",
    ),
    "builtin-argument-count": Mistake(
        "      remove(stall-row, st)\n", "      remove(stall-row)\n", "remove", "D005", "takes 2"
    ),
    "assign-to-a-table": Mistake(
        "    - do: earn(chooser, 1)",
        "    - do: street-length = 1",
        "street-length",
        "D002",
        "'street-length' is fixed by the rules and cannot be assigned",
    ),
    "assign-to-a-set": Mistake(
        "    - do: earn(chooser, 1)", "    - do: crops = 1", "crops", "D002", "fixed by the rules"
    ),
    "assign-to-an-ability": Mistake(
        "    - do: earn(chooser, 1)",
        "    - do: chooser.markup = 1",
        "markup",
        "D002",
        "'markup' is an ability granted by pieces; read-only",
    ),
    "name-that-should-subtract": Mistake(
        "    - do: earn(chooser, 1)",
        "    - do: earn(chooser, players-1)",
        "players-1",
        "D003",
        "write 'players - 1' with spaces to subtract",
    ),
}


@pytest.mark.parametrize("name", list(MISTAKES))
def test_rule_file_mistake_is_positioned(tmp_path, name):
    m = MISTAKES[name]
    path = broken(tmp_path, m.old, m.new)
    diags = errors(path)
    assert diags, "no error reported"
    line, column = where(path, m.new, m.needle)
    for d in diags:
        assert d.code == m.code, d.format()
        assert m.words in said(d), d.format()
        assert Path(d.file).resolve() == path.resolve()
        assert (d.line, d.column) == (line, column), d.format()
        assert d.json_path.startswith("/")
        assert f"{d.file}:{line}:{column}: error[{m.code}]" in d.format()


def test_every_mistake_is_reported_in_one_run(tmp_path):
    text = TOY.read_text(encoding="utf-8")
    text = text.replace("      remove(stall-row, st)\n", "      remove(stall-rows, st)\n")
    text = text.replace("    - do: earn(chooser, 1)", "    - do: earn(chooser, won)")
    path = tmp_path / "ruleset.yaml"
    path.write_text(text, encoding="utf-8")
    found = {str(d.message) for d in errors(path)}
    assert any("'stall-rows'" in m for m in found) and any("'won'" in m for m in found)


def test_hook_on_an_undeclared_event(tmp_path):
    new = "          sould: owner.fame += 1"
    path = broken(tmp_path, "          sold: owner.fame += 1", new)
    (d,) = errors(path)
    assert d.code == "R003" and "unknown event 'sould'" in d.message
    assert "did you mean 'sold'?" in said(d)
    assert d.json_path == "/catalogs/stalls/entries/fiddler/on/sould"
    assert Path(d.file).resolve() == path.resolve()
    assert d.line == where(path, new, "sould")[0]


def test_card_naming_an_unknown_phase(tmp_path):
    new = "      festival: {phase: festivl}"
    path = broken(tmp_path, "      festival: {phase: festival}", new)
    (d,) = errors(path)
    assert (d.code, d.line, d.column) == ("R001", *where(path, new, "festivl"))
    assert "did you mean 'festival'?" in said(d)


# -- positions the engine once got wrong (kept as regressions) -----------------------------------

POSITION_CASES = {
    "plain-expression": (
        Mistake(
            "    expr: p.basket[k] > 0 and buyers[k] > 0",
            "    expr: p.basket[k] > 0 and byers[k] > 0",
            "byers",
            "D003",
            "did you mean 'buyers'?",
        ),
        "",
    ),
    "option-if": (
        Mistake(
            "if: yield-of(chooser, k) > 0 and crop-pool[k] > 0",
            "if: yield-of(chooser, k) > 0 and crop-pol[k] > 0",
            "crop-pol",
            "D003",
            "did you mean 'crop-pool'?",
        ),
        "",
    ),
    "misspelt-field": (
        Mistake(
            "    - name: fame\n      value: p.fame\n",
            "    - name: fame\n      value: p.fam\n",
            "fam\n",
            "D003",
            "did you mean 'fame'?",
        ),
        "",
    ),
    "stop-if": (
        Mistake(
            '- stop-if: end-reason == "street-full"',
            '- stop-if: end-reasn == "street-full"',
            "end-reasn",
            "D003",
            "did you mean 'end-reason'?",
        ),
        "",
    ),
    "block-nested-line": (
        Mistake(
            "          crop-pool[k] = crop-stock\n",
            "          crop-pool[k] = crop-stok\n",
            "crop-stok",
            "D003",
            "did you mean 'crop-stock'?",
        ),
        "",
    ),
    "block-nested-syntax": (
        Mistake(
            "          if card-taken[c] == 0:",
            "          if card-taken[c] = 0:",
            "=",
            "D001",
            "unexpected '='",
        ),
        "",
    ),
    "folded-second-line": (
        Mistake(
            "      and len(p.stalls) < street-length\n",
            "      and len(p.stalls) < street-lenght\n",
            "street-lenght",
            "D003",
            "did you mean 'street-length'?",
        ),
        "",
    ),
    "plain-second-line": (
        Mistake(
            "    expr: p.basket[k] > 0 and buyers[k] > 0",
            "    expr: p.basket[k] > 0\n      and byers[k] > 0",
            "byers",
            "D003",
            "did you mean 'buyers'?",
        ),
        "",
    ),
    "quoted-template": (
        Mistake(
            '- log: "host: seat {host}"',
            '- log: "host: seat {hots}"',
            "hots",
            "D003",
            "did you mean 'host'?",
        ),
        "",
    ),
    "option-id-template": (
        Mistake('- id: "extra:{k}"', '- id: "extra:{kk}"', "kk", "D003", "unknown name 'kk'"),
        "",
    ),
    "option-for": (
        Mistake(
            "for: t in distinct(unstaffed(actor))",
            "for: t in distinct(unstafed(actor))",
            "unstafed",
            "D003",
            "did you mean 'unstaffed'?",
        ),
        "",
    ),
}


@pytest.mark.parametrize("name", list(POSITION_CASES))
def test_rule_file_mistake_position(tmp_path, name):
    m, _ = POSITION_CASES[name]
    path = broken(tmp_path, m.old, m.new)
    diags = errors(path)
    assert diags and all(d.code == m.code and m.words in said(d) for d in diags)
    assert {(d.line, d.column) for d in diags} == {where(path, m.new, m.needle)}


def test_a_mistake_in_a_function_is_reported_once(tmp_path):
    path = broken(
        tmp_path,
        "    expr: p.basket[k] > 0 and buyers[k] > 0",
        "    expr: p.basket[k] > 0 and byers[k] > 0",
    )
    assert len(errors(path)) == 1


def test_a_mistake_in_an_uncalled_function_is_reported(tmp_path):
    path = broken(
        tmp_path,
        "  can-sell-any:\n",
        "  never-called:\n    params: []\n    expr: nonsense-name + 1\n  can-sell-any:\n",
    )
    (d,) = errors(path)
    assert d.code == "D003" and "nonsense-name" in d.message


def test_assigning_an_unknown_field_is_a_load_error(tmp_path):
    path = broken(
        tmp_path, "          actor.tips += actor.helpers", "          actor.tipz += actor.helpers"
    )
    (d,) = errors(path)
    assert d.code == "D003" and "did you mean 'tips'?" in said(d)


def test_subtraction_hint_for_hyphenated_names(dsl):
    with pytest.raises(DslSyntaxError) as e:
        dsl.statements("host = row-size-1", dsl.root)
    assert "write 'row-size - 1' with spaces to subtract" in e.value.message
