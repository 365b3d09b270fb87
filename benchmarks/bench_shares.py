"""Where a random game's work goes: the Python bytecodes it executes, counted by part.

    python benchmarks/bench_shares.py                        # 4-player Puerto Rico, 5 games
    python benchmarks/bench_shares.py --game san-juan --top 12 --json

Every bytecode executed while seeded random games are played is counted (sys.settrace with
opcode events; exact and repeatable, some 30x slower than playing) and put in one part:

- rule code: the functions compiled from the ruleset's own texts (effects, conditions, rule
  functions), and the builtins they call;
- listing and flow code: what the engine writes per ruleset, each step's option enumerator
  and the flow's straight runs (engine/options.py, engine/blocks.py);
- the engine's loop: State.apply, the machine's run loop, what pieces grant and fire, the
  loop tests of `each-player` and `repeat`;
- the driver: this benchmark's loop, the random bots and Python's random module.

The shares bound what a change to one part can give: if the engine's loop is a third of the
work, making it free speeds games up by 1.5x at most. `--top` lists the heaviest functions;
`--within MODULE:FUNCTION` also counts every bytecode run while that function runs (the
functions it calls included), such as the check of whether a lone option may be taken
without asking:

    python benchmarks/bench_shares.py --game san-juan \\
        --within interpreter.infoset.forced:decided_in_public
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from collections import Counter
from pathlib import Path
from types import CodeType, FrameType
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_games import play_games  # noqa: E402 - a script beside this one

from interpreter.engine.loader import load_game  # noqa: E402

PARTS = ("rule code", "listing and flow code", "the engine's loop", "the driver", "other")


def part_of(code: CodeType) -> str:
    name = code.co_filename
    if name.startswith("<rule: ") or name.endswith("interpreter/dsl/runtime/builtins.py"):
        return "rule code"
    if name.startswith(("<options of ", "<flow from ")):
        return "listing and flow code"
    if "/interpreter/engine/" in name or name.endswith("interpreter/model/flow.py"):
        return "the engine's loop"
    if name.endswith(("bench_games.py", "random.py")) or "/interpreter/bots/" in name:
        return "the driver"
    return "other"


def label_of(code: CodeType) -> str:
    name = code.co_filename
    if name.startswith("<"):
        return name
    return f"{Path(name).name}:{code.co_name}"


def count(
    game: Any, games: int, seed: int, within: CodeType | None = None
) -> tuple[Counter, Counter, int, int]:
    """Bytecodes executed while `games` seeded random games are played: by part, by function,
    the number of decisions taken, and how many ran while the function of code `within` ran
    (the functions it calls included)."""
    by_code: Counter = Counter()
    running = [0, 0]  # calls of `within` running, bytecodes run inside them

    def tracer(frame: FrameType, _event: str, _arg: Any) -> Any:
        frame.f_trace_opcodes = True
        frame.f_trace_lines = False
        code = frame.f_code
        if code is within:
            running[0] += 1

        def per_opcode(_frame: FrameType, event: str, _arg: Any) -> Any:
            if event == "opcode":
                by_code[code] += 1
                if running[0]:
                    running[1] += 1
            elif event == "return" and code is within:
                running[0] -= 1
            return per_opcode

        return per_opcode

    sys.settrace(tracer)
    try:
        decisions, _rounds, _seconds = play_games(game, games, seed)
    finally:
        sys.settrace(None)
    by_part: Counter = Counter()
    by_label: Counter = Counter()
    for code, n in by_code.items():
        by_part[part_of(code)] += n
        by_label[label_of(code)] += n
    return by_part, by_label, decisions, running[1]


def function_code(name: str) -> CodeType:
    """The code of ``MODULE:FUNCTION`` (``interpreter.infoset.forced:decided_in_public``)."""
    module, _, function = name.partition(":")
    try:
        found = getattr(importlib.import_module(module), function)
        return found.__code__
    except (ImportError, AttributeError, ValueError) as err:
        raise SystemExit(f"--within {name}: no such function ({err})") from None


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="puerto-rico")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=5)
    ap.add_argument("--seed", type=int, default=500)
    ap.add_argument("--top", type=int, default=0, help="also list the N heaviest functions")
    ap.add_argument(
        "--within",
        metavar="MODULE:FUNCTION",
        help="also count the bytecodes run while this function runs (its callees included)",
    )
    ap.add_argument("--json", action="store_true", help="one JSON object on the last line")
    args = ap.parse_args()
    within = function_code(args.within) if args.within else None
    game = load_game(args.game, args.players, [])
    play_games(game, 2, 1)  # the code the engine writes on a step's first use, written now
    by_part, by_label, decisions, inside = count(game, args.games, args.seed, within)
    total = sum(by_part.values())
    print(
        f"{args.game}, {args.players} players, {args.games} random games (seed {args.seed}):"
        f" {total / args.games:,.0f} bytecodes a game, {total / decisions:,.0f} a decision"
    )
    for part in PARTS:
        print(f"  {by_part[part] / total:6.1%}  {part}")
    if within is not None:
        each = f"{inside / decisions:,.0f} a decision"
        print(f"  {inside / total:6.1%}  run within {args.within} ({each})")
    if args.top:
        print(f"the {args.top} heaviest functions:")
        for label, n in by_label.most_common(args.top):
            print(f"  {n / total:6.1%}  {label[:90]}")
    if args.json:
        shares = {part: round(by_part[part] / total, 4) for part in PARTS}
        found: dict[str, Any] = {"bytecodes_per_decision": round(total / decisions)}
        found["shares"] = shares
        if within is not None:
            found["within"] = round(inside / total, 4)
        print(json.dumps(found))


if __name__ == "__main__":
    main()
