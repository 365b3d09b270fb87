"""dsl/emit/code_parts.py: a rule body that fires an event keeps the flow variables and bound
values it reads in locals, and reads them again right after each line that fires (a hook may
change them); a body that fires in the middle of a line is left as it was written."""

from __future__ import annotations

from interpreter.dsl.emit.code_parts import FIRE, fires_alone, read_again_after_fires

READS = ["_v0 = V.get('actor')", "_t0 = t.get('k#1')"]


def test_each_fire_is_followed_by_the_reads_at_its_own_depth():
    body = [
        "for _x in P[_v0]['city']:",
        f"    {FIRE}s, 'built', [_v0, _x])",
        "    _w = P[_v0]",
        f"{FIRE}s, 'done', [_v0])",
        "_w['n'] = _t0",
    ]
    out = read_again_after_fires(body, READS)
    assert out == [
        body[0],
        body[1],
        "    _v0 = V.get('actor')",
        "    _t0 = t.get('k#1')",
        body[2],
        body[3],
        *READS,
        body[4],
    ]


def test_a_body_that_fires_nowhere_is_unchanged():
    body = ["_w = P[_v0]", "_w['n'] += 1"]
    assert read_again_after_fires(body, READS) == body
    assert fires_alone(body)


def test_a_fire_inside_a_line_is_not_alone():
    assert fires_alone([f"  {FIRE}s, 'e', [1])"])
    assert not fires_alone([f"if c: {FIRE}s, 'e', [1])"])
