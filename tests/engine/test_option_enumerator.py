"""The function written for a `choose` step (engine/options.py) lists what a plain loop over
its option lines lists, in the same order, for lines of every depth, with and without a
condition, with fixed and computed ids, and with ids two lines share; and with the parts of a
condition that read no `for` name computed once a listing, on every shipped game."""

from __future__ import annotations

import random
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from interpreter.diagnostics.errors import RulesError
from interpreter.dsl.emit.emitter import Constant, Emitted, emitted
from interpreter.dsl.runtime.support import show
from interpreter.engine.loader import load_game
from interpreter.engine.options import option_enumerator
from interpreter.model.flow import ChooseSpec, OptionSpec

TOY = Path(__file__).resolve().parents[1] / "toy" / "ruleset.yaml"


def plain_loop(s: Any, spec: ChooseSpec) -> dict[str, tuple]:
    """The general loop: each line's `for` parts nested (ids in the order they are declared),
    the outer binding set again after the loops inside it."""
    out: dict[str, tuple] = {}

    def walk(opt: OptionSpec, depth: int, bound: tuple) -> None:
        if depth == len(opt.slots):
            if opt.condition is None or opt.condition.fn(s):
                oid = opt.template.fn(s)
                if oid not in out:
                    out[oid] = (spec, opt, bound)
            return
        key = opt.slots[depth]
        values = list(opt.domains[depth].fn(s))
        order = opt.domains[depth].id_order
        if order is not None:  # ids: in the order they are declared (dsl/emit/idorder.py)
            values.sort(key=order.__getitem__)
        for x in values:
            s.t[key] = x
            walk(opt, depth + 1, (*bound, x))
            s.t[key] = x

    for opt in spec.options:
        walk(opt, 0, ())
    return out


def constant(value: str) -> Constant:
    return Constant(value)  # as codegen compiles a fixed text


def line(template: Any, slots: tuple = (), domains: tuple = (), condition: Any = None) -> Any:
    """An option line of plain functions (an Emitted stays as it is)."""
    return OptionSpec(
        template if isinstance(template, Emitted) else emitted(template),
        slots,
        tuple(emitted(d) for d in domains),
        None if condition is None else emitted(condition),
        effect=lambda s: None,
        log=None,
    )


def test_every_depth_lists_what_the_plain_loop_lists():
    seen: list[tuple] = []

    def inner_domain(s: Any) -> list[int]:
        seen.append(("inner", s.t["a"]))  # the outer binding is in place for the inner domain
        return [1, 2, 3][: s.t["a"] + 1]

    spec = ChooseSpec(
        who=emitted(lambda s: 0),
        label="pick",
        idle_flags=(),
        options=[
            line(constant("pass")),
            line(constant("wait"), condition=lambda s: s.g["open"]),
            line(lambda s: f"one:{s.t['a']}", ("a",), (lambda s: [0, 1, 2],)),
            line(
                lambda s: f"two:{s.t['a']}:{s.t['b']}",
                ("a", "b"),
                (lambda s: [0, 1, 2], inner_domain),
                lambda s: (s.t["a"] + s.t["b"]) % 2 == 1,
            ),
            line(
                lambda s: f"three:{s.t['a'] + s.t['b'] + s.t['c']}",
                ("a", "b", "c"),
                (lambda s: [0, 1], lambda s: [0, 2], lambda s: [s.t["a"], 4]),
            ),
            line(constant("pass")),  # a repeated id keeps its first line
        ],
    )
    for is_open in (True, False):
        s = SimpleNamespace(t={}, g={"open": is_open})
        seen.clear()
        expected = plain_loop(s, spec)
        expected_seen, seen[:] = list(seen), []
        s.t.clear()
        got = option_enumerator(spec)(s)
        assert list(got.items()) == list(expected.items())
        assert seen == expected_seen
        assert ("wait" in got) is is_open
        assert got["pass"][1] is spec.options[0]


# -- a condition's parts that read no `for` name, computed once a listing (dsl/emit/hoist.py) ----

SHIPPED = [
    ("puerto-rico", 3, ()),
    ("puerto-rico", 4, ("nobles", "new-buildings")),
    ("puerto-rico", 2, ()),
    ("san-juan", 4, ()),
    ("san-juan", 2, ("new-buildings",)),
]


@pytest.mark.parametrize(("name", "players", "overlays"), SHIPPED)
def test_a_listing_gives_what_the_plain_conditions_give(name, players, overlays):
    """At every decision of random games, the step's enumerator (hoisted conditions) lists
    exactly what the plain loop over the plain conditions lists, in the same order."""
    game = load_game(name, players, list(overlays))
    hoisted = set()
    inline = set()  # ids of text and `for` names, written by the enumerator without a call
    for seed in range(3):
        s = game.new_state(seed)
        s.log = None
        rng = random.Random(seed)
        while not s.is_over:
            spec = next(iter(s.pending.values()))[0]
            t = dict(s.t)
            expected = plain_loop(s, spec)
            s.t.clear()
            s.t.update(t)
            got = option_enumerator(spec)(s)
            assert list(got.items()) == list(expected.items())
            hoisted |= {o.template for o in spec.options if _per_listing(o)}
            inline |= {o.template for o in spec.options if o.template.parts}
            s.apply(rng.choice(s.legal_options()))
    assert hoisted, "no option line of the game had a part computed once a listing"
    assert inline, "no option id of the game was written without a call"


def test_an_id_of_text_and_for_names_is_written_as_the_template_writes_it():
    def template(s: Any) -> str:
        return f"n:{show(s.t['a'])}/{show(s.t['b'])}"

    values = [1, "x", None, True]
    spec = ChooseSpec(
        who=emitted(lambda s: 0),
        label="pick",
        idle_flags=(),
        # the parts as the model gives them (model/host.py)
        options=[
            line(
                Emitted(template, parts=("n:", 0, "/", 1)),
                ("a", "b"),
                (lambda s: values, lambda s: values[:2]),
            )
        ],
    )
    s = SimpleNamespace(t={}, g={})
    expected = plain_loop(s, spec)
    assert "n:none/x" in expected and "n:yes/1" in expected
    assert list(option_enumerator(spec)(s).items()) == list(expected.items())


def _per_listing(opt: OptionSpec) -> bool:
    return opt.condition is not None and opt.condition.per_listing is not None


def test_a_part_computed_once_a_listing_keeps_the_texts_short_cuts(tmp_path):
    """`10 // count(...)` reads no `for` name, so it is computed once a listing, but only when
    a candidate gets that far: unguarded it divides by zero when the game starts (reported
    at the text, as any rule's failure), behind a guard false for every card it never runs."""
    zero = "10 // count(x for x in chooser.stalls if x.staffed > 99) >= 0"

    def game_with(condition: str) -> Any:
        text = TOY.read_text().replace("if: card-taken[c] == 0\n", f"if: {condition}\n")
        assert condition in text
        (tmp_path / "ruleset.yaml").write_text(text)
        return load_game(str(tmp_path / "ruleset.yaml"), players=2)

    with pytest.raises(RulesError) as failed:
        game_with(zero).new_state(1)
    d = failed.value.diagnostics[0]
    assert (d.code, d.line, "division by zero" in d.message) == ("E001", 216, True)
    assert d.json_path.endswith("/choose/options/0/if")
    s = game_with(f"not (card-taken[c] > 1 and {zero})").new_state(1)
    assert len([o for o in s.legal_options() if o.startswith("card:")]) == 5
    spec = next(iter(s.pending.values()))[0]
    assert _per_listing(spec.options[0])
