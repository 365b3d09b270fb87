""" "Did you mean" suggestions for misspelt keys, ids and option names.

>>> did_you_mean("colour", ["color", "shape", "size"])
'color'
>>> did_you_mean("zzz", ["color", "shape"]) is None
True
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable

__all__ = ["did_you_mean", "hint_for"]

# 0.6 is difflib's default; it accepts one or two typos in short ids and rejects unrelated words.
CUTOFF = 0.6


def did_you_mean(name: str, candidates: Iterable[str]) -> str | None:
    """Best close match, or None; a case-only difference always wins so 'Cost' finds 'cost'."""
    pool = [c for c in dict.fromkeys(str(c) for c in candidates) if c != name]
    if not pool or not name:
        return None
    lowered = name.casefold()
    for c in pool:
        if c.casefold() == lowered:
            return c
    # Compare case-insensitively but return the candidate as spelt.
    by_folded: dict[str, str] = {}
    for c in pool:
        by_folded.setdefault(c.casefold(), c)
    match = difflib.get_close_matches(lowered, list(by_folded), n=1, cutoff=CUTOFF)
    if match:
        return by_folded[match[0]]
    # Prefix typing ("sec" for "section-heading") is common in ids; accept a unique prefix.
    prefixed = [c for c in pool if c.casefold().startswith(lowered) and len(lowered) >= 3]
    if len(prefixed) == 1:
        return prefixed[0]
    return None


def hint_for(name: str, candidates: Iterable[str]) -> str | None:
    """The ready-made hint text used in diagnostics: ``did you mean 'x'?`` (or None)."""
    guess = did_you_mean(name, candidates)
    return f"did you mean '{guess}'?" if guess is not None else None
