"""What the server draws at random for a table: its id, its tokens, its seed."""

from __future__ import annotations

import re
import secrets

__all__ = [
    "PRACTICE_SEEDS",
    "TABLE_ID",
    "TOKEN_BYTES",
    "draw_seed",
    "new_table_id",
    "new_token",
]

TOKEN_BYTES = 32  # 43 url-safe characters: not guessable
SEED_BITS = 256  # a drawn seed: nobody guesses it, nor searches the seeds a view fits
PRACTICE_SEEDS = 2**64  # seeds a creator may choose (a "practice" table); drawn ones are above
TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")  # what a table's id may look like (ours: 12 long)


def new_table_id() -> str:
    return secrets.token_urlsafe(9)


def new_token() -> str:
    """A seat's or a creator's token."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def draw_seed() -> int:
    """A fresh seed for a table: 256 random bits, never below ``PRACTICE_SEEDS`` (so a drawn
    seed is never taken for a chosen one; that rejects one draw in 2**192)."""
    while True:
        seed = secrets.randbits(SEED_BITS)
        if seed >= PRACTICE_SEEDS:
            return seed
