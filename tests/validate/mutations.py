"""A differential fuzz harness for `rulebook validate`: mutate the shipped rule files, then
play the mutants that validate accepts.

Every mutation is a one-token edit that keeps the file valid YAML and (mostly) the schema's
shape but changes a value's type or meaning: numbers to words, quoted numbers, negatives,
fractions, nulls and lists; ids misspelt or swapped for an id of another catalog; a scalar
where a list was; an attribute left out; and in effect texts, operators, arguments and names
swapped. Each mutant ends in one of three outcomes:

* ``caught``: validate reports an error (exit 1);
* ``fine``: validate accepts it and every one of the random games plays to its end;
* ``crashed``: validate accepts it, and a game raises, runs past its decision cap, or breaks
  one of the ruleset's declared invariants (checked after every decision).

The promise is that ``crashed`` stays at 0 for every edit that changes a type. An edit that
keeps every type (a name swapped for a value of its own type, two arguments of one type
traded: SAME_TYPE_FAMILIES, told apart by the checker's own types of the names) changes only
what a rule means; those are run and reported in rows of their own. Run the full measurement
(5,400 mutations, 20 games each, two worker processes) with
``python tests/validate/mutations.py --mutations 5400 --games 20 --jobs 2 --out FILE``; the
test suite runs a seeded sample (tests/validate/test_fuzz.py).
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import re
import shutil
import sys
import tempfile
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # run as a script
    sys.path.insert(0, str(ROOT))

from interpreter.check.pipeline import validate  # noqa: E402
from interpreter.engine.invariant_checks import broken_invariants  # noqa: E402
from interpreter.engine.loader import load_game  # noqa: E402
from interpreter.load.locate import is_map, is_seq  # noqa: E402
from interpreter.load.yamlload import load_yaml_file  # noqa: E402

# (game folder, file, overlays to play it with, player counts to play)
FILES = [
    ("puerto-rico", "ruleset.yaml", (), (2, 3, 4, 5)),
    ("puerto-rico", "new-buildings.yaml", ("new-buildings",), (3, 4)),
    ("puerto-rico", "nobles.yaml", ("nobles",), (3, 4)),
    ("san-juan", "ruleset.yaml", (), (2, 3, 4)),
    ("san-juan", "new-buildings.yaml", ("new-buildings",), (2, 4)),
    ("san-juan", "setup-variation.yaml", ("setup-variation",), (3,)),
]
DSL_KEYS = {"expr", "do", "if", "while", "until", "when", "value", "then", "active"}
FAMILIES = (
    "number-to-word",
    "number-quoted",
    "number-negative",
    "number-fraction",
    "number-null",
    "number-to-list",
    "id-misspelt",
    "id-of-another-catalog",
    "id-to-number",
    "list-to-scalar",
    "attribute-left-out",
    "effect-operator",
    "effect-arguments-swapped",
    "effect-name-swapped",
)
# Edits that keep every type: a name swapped for a value of its own type (`colonist-supply`
# for `3`, one card's id for another card's), two arguments of one type traded. They change
# what a rule means, never what kind of thing it handles, so no type checker can see them and
# the promise (0 accepted-and-crashed) is not about them; they are run and reported all the
# same, in rows of their own (their faults are for `validate --smoke`, `rulebook test` and
# `simulate --check`, which play).
SAME_TYPE_FAMILIES = ("effect-name-same-type", "effect-arguments-same-type")
MAX_DECISIONS = 20_000


@dataclass(frozen=True)
class Mutation:
    family: str
    game: str
    file: str
    line: int  # 1-based
    column: int  # 1-based; the edit replaces `old` there with `new`
    old: str
    new: str

    def apply(self, text: str) -> str:
        lines = text.split("\n")
        row = lines[self.line - 1]
        at = self.column - 1
        assert row[at : at + len(self.old)] == self.old, (self, row)
        lines[self.line - 1] = row[:at] + self.new + row[at + len(self.old) :]
        return "\n".join(lines)

    def describe(self) -> str:
        return f"{self.game}/{self.file}:{self.line}:{self.column} {self.old!r} -> {self.new!r}"


# -- finding places to mutate ------------------------------------------------------------------


def _scalars(node: Any, path: tuple) -> Iterator[tuple[tuple, Any, int, int]]:
    """(path, value, line, column) of every scalar with a known position (0-based)."""
    if is_map(node):
        for key, value in node.items():
            if is_map(value) or is_seq(value):
                yield from _scalars(value, (*path, key))
            else:
                pos = node.lc.data.get(key) if node.lc.data else None
                if pos and len(pos) >= 4:
                    yield (*path, key), value, pos[2], pos[3]
    elif is_seq(node):
        for i, value in enumerate(node):
            if is_map(value) or is_seq(value):
                yield from _scalars(value, (*path, i))
            else:
                pos = node.lc.data.get(i) if node.lc.data else None
                if pos:
                    yield (*path, i), value, pos[0], pos[1]


def _ids(data: Any) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for name, ids in (data.get("sets") or {}).items():
        out[str(name)] = [str(i) for i in ids or []]
    for name, cat in (data.get("catalogs") or {}).items():
        out[str(name)] = [str(e) for e in ((cat or {}).get("entries") or {})]
    return out


def _is_dsl(path: tuple) -> bool:
    return any(str(k) in DSL_KEYS for k in path) or (len(path) > 1 and path[-2] == "on")


_WORD = {0: "zero", 1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}


def _data_mutations(
    game: str, file: str, text: str, data: Any, rng: random.Random
) -> Iterator[Mutation]:
    lines = text.split("\n")
    universes = _ids(data)
    everything = {i: u for u, ids in universes.items() for i in ids}
    for path, value, line, col in _scalars(data, ()):
        if not path or str(path[0]) not in ("catalogs", "tables", "state", "options", "sets"):
            continue
        if _is_dsl(path) or "doc" in path:
            continue
        row = lines[line] if line < len(lines) else ""
        raw = str(value).lower() if isinstance(value, bool) else str(value)
        if not row[col:].startswith(raw):
            continue

        def m(family: str, new: str, line=line, col=col, raw=raw) -> Mutation:
            return Mutation(family, game, file, line + 1, col + 1, raw, new)

        if isinstance(value, int) and not isinstance(value, bool):
            yield m("number-to-word", _WORD.get(value, "many"))
            yield m("number-quoted", f'"{value}"')
            if value > 0:
                yield m("number-negative", f"-{value}")
            yield m("number-fraction", f"{value}.5")
            yield m("number-null", "null")
            yield m("number-to-list", f"[{value}, {value}]")
        elif isinstance(value, str) and value in everything:
            home = everything[value]
            if len(value) > 3:
                cut = rng.randrange(1, len(value) - 1)
                yield m("id-misspelt", value[:cut] + value[cut + 1 :])
            others = [i for u, ids in universes.items() if u != home for i in ids]
            if others:
                yield m("id-of-another-catalog", rng.choice(others))
            yield m("id-to-number", str(rng.randrange(1, 6)))
            if isinstance(path[-1], int) and path[-1] == 0 and row[col - 1 : col] == "[":
                # the whole list becomes its first item: `[a, b]` -> `a`
                end = row.find("]", col)
                if end > 0:
                    whole = row[col - 1 : end + 1]
                    yield Mutation("list-to-scalar", game, file, line + 1, col, whole, value)
    for i, row in enumerate(lines):
        # an attribute line of a catalog entry, left out (`cost: 3` in a block entry)
        m = re.match(r"^(\s{8})(cost|vp|column|copies|capacity|phase|good|kind)(: \S+)\s*$", row)
        if m:
            yield Mutation("attribute-left-out", game, file, i + 1, 1, row, "")


# Each swap changes the operator's type (a comparison for arithmetic, arithmetic for logic):
# a swap that keeps the types (`==` for `!=`) changes what a rule means in a way no checker
# can see, so it is not part of the promise this harness measures.
_OPERATORS = [
    (" == ", " + "),
    (" <= ", " - "),
    (" + ", " and "),
    (" - ", " or "),
    (" and ", " + "),
    (" or ", " * "),
    (" > ", " + "),
]


def _name_types(game: str, file: str) -> dict[str, Any]:
    """The type of each name a rule text of `file` may use bare (constants and ids, state
    fields, flow variables), as the checker sees them in the file's composition."""
    from interpreter.dsl.compiler import Emit, EmitPlan
    from interpreter.dsl.resolve.types import COUNT
    from interpreter.engine.loader import load_game_and_data
    from interpreter.model.rules import build_rules

    _, _, overlays, counts = next(f for f in FILES if f[:2] == (game, file))
    base = str(ROOT / "rulesets" / game / "ruleset.yaml")
    _, data = load_game_and_data(base, counts[0], overlays)
    options = {k: (v or {}).get("default") for k, v in (data.get("options") or {}).items()}
    info = build_rules(data, counts[0], options, EmitPlan(Emit.CHECK_ONLY)).env.types
    assert info is not None
    return {
        **info.bound,  # a `let` or a parameter: a global of the same name wins below
        **info.constants,
        **info.global_fields,
        **info.variables,
        "players": COUNT,
        "round": COUNT,
    }


def _same_type(old: str, new: str, types: dict[str, Any]) -> bool:
    """Whether `new` (a name or a small number) has a type that fits where `old` stood, so
    that no type checker could tell the two apart there (an unknown name counts as not)."""
    from interpreter.dsl.resolve.types import ANY, COUNT, assignable

    def types_of(token: str) -> set[Any]:
        # a bare local may stand for values of several types (a parameter given a card's id
        # at one call and the card at another): the edit keeps the type when every type `new`
        # may have is one `old` already takes somewhere
        ty = COUNT if token.isdigit() else types.get(token)
        return set() if ty is None else ty if isinstance(ty, set) else {ty}

    found, expected = types_of(new), types_of(old)
    if not found or not expected or ANY in found | expected:
        return False
    return all(any(assignable(f, e) for e in expected) for f in found)


def _effect_mutations(
    game: str, file: str, text: str, data: Any, rng: random.Random
) -> Iterator[Mutation]:
    lines = text.split("\n")
    types = _name_types(game, file)
    universes = _ids(data)
    all_ids = [i for ids in universes.values() for i in ids]
    dsl_rows: set[int] = set()
    for path, value, line, _ in _scalars(data, ()):
        if isinstance(value, str) and _is_dsl(path):
            extra = value.count("\n")
            # a block scalar starts on the line after its indicator
            first = line + 1 if lines[line].rstrip().endswith(("|", ">", "|-", ">-")) else line
            dsl_rows.update(range(first, first + max(1, extra + (first != line))))
    for i in sorted(dsl_rows):
        if i >= len(lines):
            continue
        row = lines[i]
        for old, new in _OPERATORS:
            at = row.find(old)
            if at >= 0:
                yield Mutation("effect-operator", game, file, i + 1, at + 1, old, new)
        call = re.search(r"\b([a-z][\w-]*)\(([\w.-]+), ([\w.-]+)\)", row)
        if call:
            a, b = call.group(2), call.group(3)
            old = f"{a}, {b}"
            same = _same_type(a, b, types) and _same_type(b, a, types)
            family = "effect-arguments-same-type" if same else "effect-arguments-swapped"
            yield Mutation(family, game, file, i + 1, call.start(2) + 1, old, f"{b}, {a}")
        names = [n for n in re.finditer(r"(?<![\w.-])([a-z][a-z-]*[a-z])(?![\w(-])", row)]
        names = [n for n in names if n.group(1) not in ("and", "or", "not", "if", "else", "for")]
        names = [n for n in names if n.group(1) not in ("in", "let", "log", "emit", "none")]
        for n in names if all_ids else []:
            old = n.group(1)
            for new in (rng.choice(all_ids), str(rng.randrange(0, 4))):
                same = _same_type(old, new, types)
                family = "effect-name-same-type" if same else "effect-name-swapped"
                yield Mutation(family, game, file, i + 1, n.start(1) + 1, old, new)


def all_mutations(seed: int = 0) -> list[Mutation]:
    rng = random.Random(seed)
    out: list[Mutation] = []
    for game, file, _, _ in FILES:
        path = ROOT / "rulesets" / game / file
        text = path.read_text(encoding="utf-8")
        data = load_yaml_file(path).data
        out.extend(_data_mutations(game, file, text, data, rng))
        out.extend(_effect_mutations(game, file, text, data, rng))
    return out


def sample(n: int, seed: int = 0) -> list[Mutation]:
    """`n` mutations spread evenly over the families (all of them when n is larger)."""
    rng = random.Random(seed)
    by_family: dict[str, list[Mutation]] = {}
    for m in all_mutations(seed):
        by_family.setdefault(m.family, []).append(m)
    for ms in by_family.values():
        rng.shuffle(ms)
    out: list[Mutation] = []
    while len(out) < n and any(by_family.values()):
        for family in (*FAMILIES, *SAME_TYPE_FAMILIES):
            if by_family.get(family) and len(out) < n:
                out.append(by_family[family].pop())
    return out


def given(family: str, where: str, old: str, new: str) -> Mutation:
    """The edit `old` -> `new` at `where` (``game/file:line:column``), as the harness runs it.

    ValueError, saying what is there instead, when `where` does not hold `old` (a rule file
    that changed since the edit was written down)."""
    path, line, column = where.rsplit(":", 2)
    game, file = path.split("/", 1)
    mutation = Mutation(family, game, file, int(line), int(column), old, new)
    source = ROOT / "rulesets" / game / file
    rows = source.read_text(encoding="utf-8").split("\n") if source.is_file() else []
    row = rows[mutation.line - 1] if 0 < mutation.line <= len(rows) else None
    at = mutation.column - 1
    if row is None or row[at : at + len(old)] != old:
        found = "no such line" if row is None else repr(row[at : at + len(old)])
        raise ValueError(f"{where} does not hold {old!r} ({found} there)")
    return mutation


# -- running one -------------------------------------------------------------------------------


@dataclass
class Outcome:
    mutation: Mutation
    result: str  # caught, fine, crashed
    detail: str = ""


def run_one(mutation: Mutation, games: int, workdir: Path) -> Outcome:
    folder = workdir / mutation.game
    shutil.rmtree(folder, ignore_errors=True)
    shutil.copytree(
        ROOT / "rulesets" / mutation.game, folder, ignore=shutil.ignore_patterns("*.py")
    )
    target = folder / mutation.file
    target.write_text(mutation.apply(target.read_text(encoding="utf-8")), encoding="utf-8")
    report = validate([target], jobs=1)
    errors = [d for d in report.diagnostics if d.severity == "error"]
    if errors:
        return Outcome(mutation, "caught", errors[0].format())
    _, _, overlays, counts = next(f for f in FILES if f[:2] == (mutation.game, mutation.file))
    loaded: dict[int, Any] = {}
    for i in range(games):
        players = counts[i % len(counts)]
        try:
            if players not in loaded:
                loaded[players] = load_game(str(folder / "ruleset.yaml"), players, overlays)
            problem = _play(loaded[players], seed=i)
        except Exception as e:  # noqa: BLE001 - any failure at play is what we count
            problem = f"{type(e).__name__}: {e}"
        if problem:
            return Outcome(mutation, "crashed", f"{players} players, seed {i}: {problem}"[:400])
    return Outcome(mutation, "fine")


def _play(game: Any, seed: int) -> str:
    """Why one random game went wrong ("" when it played to its end keeping every invariant)."""
    state = game.new_state(seed=seed)
    rng = random.Random(seed)
    while not state.is_over:
        if state.decisions > MAX_DECISIONS:
            return f"no end after {MAX_DECISIONS} decisions"
        state.apply(rng.choice(state.legal_options()))
        broken = broken_invariants(state)
        if broken:
            return f"invariant broken: {broken[0].format()}"
    return ""


def _run_in_worker(job: tuple[Mutation, int]) -> Outcome:
    # each worker process mutates its own copy of the rulesets
    workdir = Path(tempfile.gettempdir()) / f"rulebook-fuzz-{os.getpid()}"
    return run_one(job[0], job[1], workdir)


def run(
    mutations: list[Mutation],
    games: int,
    jobs: int = 1,
    progress: bool = False,
    outcomes: list[Outcome] | None = None,
    every: Callable[[], None] | None = None,
) -> list[Outcome]:
    """The outcome of every mutation, in order, appended to `outcomes` as they come (so a
    caller may report a partial run); `jobs` processes share the work."""
    outcomes = [] if outcomes is None else outcomes
    work = [(m, games) for m in mutations]
    if jobs <= 1:
        results: Iterator[Outcome] = map(_run_in_worker, work)
        return _collect(results, len(work), progress, outcomes, every)
    with multiprocessing.get_context("fork").Pool(jobs, maxtasksperchild=200) as pool:
        results = pool.imap(_run_in_worker, work, chunksize=4)
        return _collect(results, len(work), progress, outcomes, every)


def _collect(
    results: Iterator[Outcome],
    total: int,
    progress: bool,
    outcomes: list[Outcome],
    every: Callable[[], None] | None,
) -> list[Outcome]:
    tally: Counter[str] = Counter()
    for i, outcome in enumerate(results, 1):
        outcomes.append(outcome)
        tally[outcome.result] += 1
        if every and i % 100 == 0:
            every()
        if progress and (i % 25 == 0 or i == total):
            print(
                f"{i}/{total} mutations: {tally['caught']} caught, {tally['fine']} fine, "
                f"{tally['crashed']} crashed",
                file=sys.stderr,
                flush=True,
            )
    return outcomes


def table(outcomes: list[Outcome]) -> str:
    """The results as a Markdown table: family x (caught, accepted and fine, crashed); the
    families the promise is about first, with their total, then the type-keeping ones."""
    counts: Counter[tuple[str, str]] = Counter((o.mutation.family, o.result) for o in outcomes)
    rows = [
        "| mutation family | caught | accepted, fine | accepted, crashed |",
        "|---|---|---|---|",
    ]
    for families, label in (
        (FAMILIES, "all that change a type"),
        (SAME_TYPE_FAMILIES, "all that keep every type"),
    ):
        total: Counter[str] = Counter()
        for family in families:
            c, f, x = (counts[(family, r)] for r in ("caught", "fine", "crashed"))
            if c + f + x:
                rows.append(f"| {family} | {c} | {f} | {x} |")
                total.update({"caught": c, "fine": f, "crashed": x})
        if total:
            n = sum(total.values())
            rows.append(
                f"| **{label} ({n:,})** | **{total['caught']:,}** | **{total['fine']:,}** "
                f"| **{total['crashed']:,}** |"
            )
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mutations", type=int, default=200)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=2, help="worker processes")
    parser.add_argument("--show", type=int, default=10, help="crashed mutations to list")
    parser.add_argument("--out", type=Path, help="also write the table and every crash here")
    parser.add_argument(
        "--edit",
        nargs=4,
        action="append",
        metavar=("FAMILY", "GAME/FILE:LINE:COL", "OLD", "NEW"),
        help="run this one edit instead of a sample (repeatable), e.g. "
        "effect-arguments-swapped puerto-rico/ruleset.yaml:769:40 'actor, t' 't, actor'",
    )
    parser.add_argument(
        "--only", help="run only the sampled mutations whose description contains this text"
    )
    args = parser.parse_args(argv)
    try:
        chosen = [given(*e) for e in args.edit] if args.edit else sample(args.mutations, args.seed)
    except ValueError as exc:
        parser.error(f"--edit: {exc}")
    if args.only:
        chosen = [m for m in chosen if args.only in m.describe()]
    outcomes: list[Outcome] = []
    write = (lambda: _write(args.out, outcomes, args)) if args.out else None
    run(chosen, args.games, jobs=args.jobs, progress=True, outcomes=outcomes, every=write)
    lines = _summary(outcomes, args)
    print("\n".join(lines[: 4 + args.show]))
    if args.out:
        _write(args.out, outcomes, args)
    broken = [o for o in outcomes if o.result == "crashed" and o.mutation.family in FAMILIES]
    return 1 if broken else 0


def _summary(outcomes: list[Outcome], args: argparse.Namespace) -> list[str]:
    crashed = [o for o in outcomes if o.result == "crashed"]
    head = f"{len(outcomes)} mutations (seed {args.seed}), {args.games} games per accepted one"
    lines = [head, "", table(outcomes), ""]
    return lines + [f"- {o.mutation.family}: {o.mutation.describe()}: {o.detail}" for o in crashed]


def _write(out: Path, outcomes: list[Outcome], args: argparse.Namespace) -> None:
    out.write_text("\n".join(_summary(outcomes, args)) + "\n", encoding="utf-8")


if __name__ == "__main__":
    sys.exit(main())
