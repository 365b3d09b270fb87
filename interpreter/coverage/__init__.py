"""Rule coverage: which rules a set of games ran, as coverage.py reports code.

A coverage build of a game (``Coverage().load_game(...)``) is compiled with counters
(model/probes.py): every flow step, every option line (offered, and taken), every hook and
grant of a catalog entry, and both arms of every `if` in the effect texts count their runs,
each at the file:line:col of its rule text (an overlay's rules at its own file's lines). Games
loaded the ordinary way have no counters at all. ``rulebook test --coverage`` and ``rulebook
simulate --coverage`` use it; reports: text and JSON (tabulate.py), HTML (html.py).
"""

from interpreter.coverage.collector import Coverage
from interpreter.coverage.tabulate import FileReport, summarize

__all__ = ["Coverage", "FileReport", "summarize"]
