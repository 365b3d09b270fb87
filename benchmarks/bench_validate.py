"""Speed of `rulebook validate`: every shipped ruleset, from a cold start and in-process.

    python benchmarks/bench_validate.py              # 5 cold runs + 5 in-process runs
    python benchmarks/bench_validate.py --runs 10 --json
    python benchmarks/bench_validate.py --base ../other-checkout   # before / after, one run

Cold start: a new Python process runs `rulebook validate rulesets/` (imports, grammar, YAML,
schema, compiling every ruleset, whole-ruleset checks); wall time of the whole process, median
of the runs; once with every core (validate forks one worker per core for the files of each
game folder) and once in one process (RULEBOOK_JOBS=1), whose CPU time is also given (it does
not grow when other work loads the machine, as wall time does). In-process: `validate` again in
a warm process, in one process (CPU time), i.e. what an editor integration or a test suite pays
per run.

With ``--base DIR`` the same is measured on the checkout in DIR too (its own code and rule
files), the two runs taking turns so that both see the same machine; the first line printed is
this checkout, the second the base. The time is wall-clock time: on a machine other work is
loading, both figures grow; compare them with each other, or run on an idle machine.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# In a fresh process: validate once (imports, grammar), then `runs` more times, CPU time each.
_WARM = """
import json, sys, time
from pathlib import Path
from interpreter.check import validate
target, runs = Path(sys.argv[1]), int(sys.argv[2])
validate([target], jobs=1)
out, report = [], None
for _ in range(runs):
    start = time.process_time()
    report = validate([target], jobs=1)
    out.append(time.process_time() - start)
print(json.dumps([out, len(report.checked), len(report.diagnostics)]))
"""


def _env(root: Path, jobs: int | None) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(root)  # that checkout's code, whatever is installed
    if jobs:
        env["RULEBOOK_JOBS"] = str(jobs)
    else:
        env.pop("RULEBOOK_JOBS", None)
    return env


def _children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def cold_once(root: Path, target: str, jobs: int | None = None) -> tuple[float, float]:
    """Wall time of one `rulebook validate TARGET` in a new process, in ``root``, and the CPU
    time it and its workers used (what other work on the machine does not change)."""
    cpu = _children_cpu()
    start = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-m", "interpreter.cli.main", "validate", target],
        cwd=root,
        capture_output=True,
        text=True,
        env=_env(root, jobs),
    )
    took = time.perf_counter() - start
    if proc.returncode not in (0, 1):
        raise SystemExit(f"validate failed to run in {root}:\n{proc.stderr}")
    return took, _children_cpu() - cpu


def warm(root: Path, runs: int, target: str) -> tuple[list[float], int, int]:
    """In-process CPU time of each of ``runs`` validations after a first one, in ``root``."""
    proc = subprocess.run(
        [sys.executable, "-c", _WARM, str(root / target), str(runs)],
        cwd=root,
        capture_output=True,
        text=True,
        env=_env(root, 1),
        check=True,
    )
    times, files, diags = json.loads(proc.stdout.strip().splitlines()[-1])
    return times, files, diags


def measure(roots: list[Path], runs: int, target: str) -> list[dict[str, object]]:
    """The figures of each checkout; the cold runs of all checkouts take turns."""
    cold: dict[Path, list[float]] = {r: [] for r in roots}
    cold1: dict[Path, list[float]] = {r: [] for r in roots}
    cpu: dict[Path, list[float]] = {r: [] for r in roots}
    for _ in range(runs):
        for r in roots:
            wall, _cpu = cold_once(r, target)
            cold[r].append(wall)
            wall, used = cold_once(r, target, jobs=1)
            cold1[r].append(wall)
            cpu[r].append(used)
    out = []
    for r in roots:
        w, files, diags = warm(r, runs, target)
        out.append(
            {
                "checkout": str(r),
                "target": target,
                "files": files,
                "diagnostics": diags,
                "cold_start_s_median": round(statistics.median(cold[r]), 3),
                "cold_start_s_min": round(min(cold[r]), 3),
                "cold_start_one_process_s_median": round(statistics.median(cold1[r]), 3),
                "cold_start_one_process_cpu_s_median": round(statistics.median(cpu[r]), 3),
                "cores": len(os.sched_getaffinity(0))
                if hasattr(os, "sched_getaffinity")
                else os.cpu_count(),
                "in_process_s_median": round(statistics.median(w), 3),
            }
        )
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--target", default="rulesets")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--base", type=Path, help="another checkout to measure alongside")
    args = parser.parse_args()
    roots = [ROOT] + ([args.base.resolve()] if args.base else [])
    load_before = _load()
    results = measure(roots, args.runs, args.target)
    # other work on a shared machine moves the absolute figures by tens of percent: say how
    # busy it was, so a reader knows which figures may be compared with which
    load = f"{load_before} before, {_load()} after"
    for result in results:
        result["load_average"] = load
    if args.json:
        print(json.dumps(results[0] if len(results) == 1 else results, indent=2))
        return
    for result, label in zip(results, ["", " (base)"], strict=False):
        print(
            f"rulebook validate {args.target}/ ({result['files']} files, "
            f"{result['diagnostics']} diagnostics){label}: cold start "
            f"{result['cold_start_s_median']:.3f} s median (min {result['cold_start_s_min']:.3f}"
            f" s) on {result['cores']} cores, {result['cold_start_one_process_s_median']:.3f} s"
            f" in one process (CPU {result['cold_start_one_process_cpu_s_median']:.3f} s);"
            f" in-process {result['in_process_s_median']:.3f} s"
            + (f"  [{result['checkout']}]" if len(results) > 1 else "")
        )
    print(f"machine load average (1 min): {load}")


def _load() -> str:
    try:
        return f"{os.getloadavg()[0]:.2f}"
    except OSError:  # not on this platform
        return "unknown"


if __name__ == "__main__":
    main()
