"""Run many seeded games in parallel and summarise them: ``rulebook simulate`` and ``compare``.

    from interpreter.simulate import SimSpec, run_simulation, result_document
    run = run_simulation(SimSpec("my-game", 4, seats=("random",) * 4, games=500, seed=1), jobs=2)
    doc = result_document(run)          # config, run, summary, games (JSON-able)

Modules: ``batch`` (games to records, any concurrent.futures executor), ``summary`` (records
to statistics), ``stats`` (Wilson intervals, Welch and two-proportion tests), ``compare``,
``result_files`` (JSON, CSV), ``report_html`` (HTML with inline SVG), ``report_png``
(matplotlib), ``progress`` (the progress line).
See docs/variants.md.
"""

from interpreter.simulate.batch import SimRun, SimSpec, run_simulation, scheduler_executor
from interpreter.simulate.summary import result_document, summarise

__all__ = [
    "SimRun",
    "SimSpec",
    "result_document",
    "run_simulation",
    "scheduler_executor",
    "summarise",
]
