"""Property: the validator survives any small damage to the real Puerto Rico ruleset.

Each example deletes a key line, changes a scalar's type, renames one reference, cuts the file
short or breaks an effect text; the validator must not raise, must not hang, and must either
accept the file or report at least one diagnostic on a line inside it.
"""

from __future__ import annotations

import itertools
import re
import tempfile
import time
from pathlib import Path

from hypothesis import HealthCheck, given, settings, strategies as st

from interpreter.check import validate

ROOT = Path(__file__).resolve().parents[2]
SOURCE = (ROOT / "rulesets" / "puerto-rico" / "ruleset.yaml").read_text(encoding="utf-8")
LINES = SOURCE.splitlines(keepends=True)
KEY_LINES = [i for i, line in enumerate(LINES) if re.match(r"\s*[\w-]+:", line)]
SCALARS = [
    (i, m) for i, line in enumerate(LINES) if (m := re.search(r":\s+(\d+|[a-z][\w-]*)\s*$", line))
]
NAMES = sorted(set(re.findall(r"\b[a-z][a-z0-9]*(?:-[a-z0-9]+)+\b", SOURCE)))
DSL_LINES = [i for i, line in enumerate(LINES) if re.match(r"\s*(do|expr|if|value):\s+\S", line)]
_dir = Path(tempfile.mkdtemp(prefix="rulebook-mutations-"))
_counter = itertools.count()


def delete_key(i: int) -> str:
    return "".join(LINES[: KEY_LINES[i]] + LINES[KEY_LINES[i] + 1 :])


def change_type(i: int, replacement: str) -> str:
    line_no, m = SCALARS[i]
    line = LINES[line_no]
    new = line[: m.start(1)] + replacement + line[m.end(1) :]
    return "".join(LINES[:line_no] + [new] + LINES[line_no + 1 :])


def rename(i: int, occurrence: int) -> str:
    name = NAMES[i]
    spots = [m.start() for m in re.finditer(re.escape(name), SOURCE)]
    at = spots[occurrence % len(spots)]
    return SOURCE[:at] + name + "x" + SOURCE[at + len(name) :]


def cut(fraction: float) -> str:
    return SOURCE[: int(len(SOURCE) * fraction)]


def break_dsl(i: int, junk: str, where: float) -> str:
    line_no = DSL_LINES[i]
    line = LINES[line_no].rstrip("\n")
    start = line.index(":") + 2
    at = start + int((len(line) - start) * where)
    new = line[:at] + junk + line[at:] + "\n"
    return "".join(LINES[:line_no] + [new] + LINES[line_no + 1 :])


MUTANTS = st.one_of(
    st.builds(delete_key, st.integers(0, len(KEY_LINES) - 1)),
    st.builds(
        change_type,
        st.integers(0, len(SCALARS) - 1),
        st.sampled_from(["[1, 2]", "{a: 1}", "true", "'7'", "-3", "2.5", "null"]),
    ),
    st.builds(rename, st.integers(0, len(NAMES) - 1), st.integers(0, 50)),
    st.builds(cut, st.floats(0.0, 0.999)),
    st.builds(
        break_dsl,
        st.integers(0, len(DSL_LINES) - 1),
        st.sampled_from(["(", ")", " + ", " * *", "'", '"', ":", " if", "[", "@", " let "]),
        st.floats(0.0, 1.0),
    ),
)


@settings(
    max_examples=25,
    deadline=None,  # wall time is unreliable on a busy machine; CPU time is checked below
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(MUTANTS)
def test_mutated_ruleset_is_accepted_or_pointed_at(text: str) -> None:
    # a fresh file name per example: positions inside effect texts are read back from disk
    path = _dir / f"mutant-{next(_counter)}.yaml"
    path.write_text(text, encoding="utf-8")
    start = time.process_time()
    report = validate([path])
    assert time.process_time() - start < 10.0, "validation must not hang"
    assert all(d.code != "V999" for d in report.diagnostics), report.diagnostics
    if report.errors == 0:
        return
    last = max(1, len(text.splitlines()))
    inside = [
        d
        for d in report.diagnostics
        if d.file == str(path) and d.line is not None and 1 <= d.line <= last
    ]
    assert inside, "\n".join(d.format() for d in report.diagnostics)
