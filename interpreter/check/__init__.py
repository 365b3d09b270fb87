"""``rulebook validate``: rule files checked like a compiler, one module per family of checks.

* :mod:`~interpreter.check.pipeline`  :func:`validate`, the entry: files found, classified,
  split into work lists for :mod:`~interpreter.check.workers` (forked), results gathered;
* :mod:`~interpreter.check.verdicts`  :class:`Report`, :class:`CheckedFile`, de-duplication;
* :mod:`~interpreter.check.session`  what one run shares: parses, schema results, known ids;
* :mod:`~interpreter.check.run`  the stages run on each file, by kind (Y, S, then below);
* :mod:`~interpreter.check.compositions`  overlay chains and their composition (O);
* :mod:`~interpreter.check.configs`  game configs (C001-C005);
* :mod:`~interpreter.check.compile`  references and DSL, compiled per player count (R, D);
* :mod:`~interpreter.check.references`  whole-ruleset checks (R004-R006, W002-W005);
* :mod:`~interpreter.check.secrets`  the leak check of ``--secrets N`` (L001-L004, L006), played by
  :func:`check_secrets` (:mod:`~interpreter.check.secrets_games`).
* :mod:`~interpreter.check.taint`  the static leak check (L005): hidden values followed
  through the resolved rule texts to where other seats read, run by every validate.

A typed check (types of catalog attributes, table keys and values, options and state fields)
belongs in a module of its own beside ``references``, run from
:func:`~interpreter.check.compile.check_ruleset` on a ruleset that compiles.
"""

from interpreter.check.compile import MAX_COUNTS, check_ruleset
from interpreter.check.pipeline import validate
from interpreter.check.references import whole_ruleset_checks
from interpreter.check.secrets_games import check_secrets
from interpreter.check.verdicts import CheckedFile, Report

__all__ = [
    "MAX_COUNTS",
    "CheckedFile",
    "Report",
    "check_ruleset",
    "check_secrets",
    "validate",
    "whole_ruleset_checks",
]
