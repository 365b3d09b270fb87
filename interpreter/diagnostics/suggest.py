""" "Did you mean" suggestions for misspelt keys, ids and option names.

>>> did_you_mean("colour", ["color", "shape", "size"])
'color'
>>> did_you_mean("zzz", ["color", "shape"]) is None
True
>>> echo("x" * 1000)
"'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'… (1,000 characters)"
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable

__all__ = ["ECHO_LIMIT", "did_you_mean", "echo", "hint_for"]

# 0.6 is difflib's default; it accepts one or two typos in short ids and rejects unrelated words.
CUTOFF = 0.6
# what a message quotes back of a name it did not know: a stranger's megabyte is not sent back
ECHO_LIMIT = 40


def echo(value: object, limit: int = ECHO_LIMIT) -> str:
    """``repr(value)`` as a message quotes it: a text longer than ``limit`` characters is cut
    to its first ``limit``, with its length said."""
    if isinstance(value, str) and len(value) > limit:
        return f"{value[:limit]!r}… ({len(value):,} characters)"
    text = repr(value)
    return text if len(text) <= limit else f"{text[:limit]}… ({len(text):,} characters)"


def did_you_mean(name: str, candidates: Iterable[str]) -> str | None:
    """Best close match, or None; a case-only difference always wins so 'Cost' finds 'cost'."""
    pool = [c for c in dict.fromkeys(str(c) for c in candidates) if c != name]
    if not pool or not name:
        return None
    # nothing below can match a name over 7/3 the length of the longest candidate (folded
    # alike; a fold never shortens a text): difflib's ratio needs the two lengths within 7:3,
    # a prefix or a case-only difference no longer than the candidate. Comparing a long name
    # costs its whole length, so a stranger's megabyte is turned away here, at no cost
    if 3 * len(name) > 7 * max(len(c.casefold()) for c in pool):
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
