"""Speed of `rulebook validate`: every shipped ruleset, from a cold start and in-process.

    python benchmarks/bench_validate.py              # 5 cold runs + 5 in-process runs
    python benchmarks/bench_validate.py --runs 10 --json

Cold start: a new Python process runs `rulebook validate rulesets/` (imports, grammar build,
YAML, schema, compiling every ruleset for each player count, whole-ruleset checks); wall time
of the whole process, median of the runs; once with every core (validate forks one worker per
core for the files of each game folder) and once in one process (RULEBOOK_JOBS=1). In-process:
`interpreter.check.validate` again in a warm process, in one process (CPU time),
i.e. what an editor integration or a test suite pays per run.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def cold(runs: int, target: str, jobs: int | None = None) -> list[float]:
    env = dict(os.environ)
    if jobs:
        env["RULEBOOK_JOBS"] = str(jobs)
    out = []
    for _ in range(runs):
        start = time.perf_counter()
        proc = subprocess.run(
            [sys.executable, "-m", "interpreter.cli.main", "validate", target],
            cwd=ROOT,
            capture_output=True,
            text=True,
            env=env,
        )
        out.append(time.perf_counter() - start)
        if proc.returncode not in (0, 1):
            raise SystemExit(f"validate failed to run:\n{proc.stderr}")
    return out


def warm(runs: int, target: str) -> tuple[list[float], int, int]:
    from interpreter.check import validate

    validate([ROOT / target], jobs=1)  # first run pays imports and the grammar build
    out = []
    files = diags = 0
    for _ in range(runs):
        start = time.process_time()
        report = validate([ROOT / target], jobs=1)
        out.append(time.process_time() - start)
        files, diags = len(report.checked), len(report.diagnostics)
    return out, files, diags


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--target", default="rulesets")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    c = cold(args.runs, args.target)
    c1 = cold(args.runs, args.target, jobs=1)
    w, files, diags = warm(args.runs, args.target)
    result = {
        "target": args.target,
        "files": files,
        "diagnostics": diags,
        "cold_start_s_median": round(statistics.median(c), 3),
        "cold_start_s_min": round(min(c), 3),
        "cold_start_one_process_s_median": round(statistics.median(c1), 3),
        "cores": len(os.sched_getaffinity(0))
        if hasattr(os, "sched_getaffinity")
        else os.cpu_count(),
        "in_process_s_median": round(statistics.median(w), 3),
    }
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print(
            f"rulebook validate {args.target}/ ({files} files, {diags} diagnostics): cold start "
            f"{result['cold_start_s_median']:.3f} s median (min {result['cold_start_s_min']:.3f}"
            f" s) on {result['cores']} cores, {result['cold_start_one_process_s_median']:.3f} s"
            f" in one process; in-process {result['in_process_s_median']:.3f} s"
        )


if __name__ == "__main__":
    main()
