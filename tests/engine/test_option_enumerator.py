"""The function written for a `choose` step (engine/options.py) lists what a plain loop over
its option lines lists, in the same order, for lines of every depth, with and without a
condition, with fixed and computed ids, and with ids two lines share."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from interpreter.engine.options import option_enumerator
from interpreter.model.flow import ChooseSpec, OptionSpec


def plain_loop(s: Any, spec: ChooseSpec) -> dict[str, tuple]:
    """The general loop: each line's `for` parts nested, the outer binding set again after
    the loops inside it."""
    out: dict[str, tuple] = {}

    def walk(opt: OptionSpec, depth: int, bound: tuple) -> None:
        if depth == len(opt.slots):
            if opt.condition is None or opt.condition(s):
                oid = opt.template(s)
                if oid not in out:
                    out[oid] = (spec, opt, bound)
            return
        key = opt.slots[depth]
        for x in list(opt.domains[depth](s)):
            s.t[key] = x
            walk(opt, depth + 1, (*bound, x))
            s.t[key] = x

    for opt in spec.options:
        walk(opt, 0, ())
    return out


def constant(value: str) -> Any:
    def fn(s: Any) -> str:
        return value

    fn.constant = value  # type: ignore[attr-defined] # as codegen marks a fixed text
    return fn


def line(template: Any, slots: tuple = (), domains: tuple = (), condition: Any = None) -> Any:
    return OptionSpec(template, slots, domains, condition, effect=lambda s: None, log=None)


def test_every_depth_lists_what_the_plain_loop_lists():
    seen: list[tuple] = []

    def inner_domain(s: Any) -> list[int]:
        seen.append(("inner", s.t["a"]))  # the outer binding is in place for the inner domain
        return [1, 2, 3][: s.t["a"] + 1]

    spec = ChooseSpec(
        who=lambda s: 0,
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
