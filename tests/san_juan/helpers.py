"""Helpers for the deck and the hands of a real San Juan state, and the card conservation check.

Every helper moves cards between the deck and a player (never creates or destroys one), so the
conservation check `check_cards` holds after an example has been set up and played. The deck's
top is the end of the `deck` list (what `draw` takes first). The cities: cities.py.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from interpreter.engine.invariant_checks import check_invariants as check_ruleset_invariants

BASE_CARDS = 110
NEW_BUILDINGS_CARDS = 33


def take(s: Any, card: str) -> str:
    """Take one copy of `card` out of the deck (or the discard pile, or a hand)."""
    for pile in ("deck", "discard"):
        if card in s.g[pile]:
            s.g[pile].remove(card)
            return card
    for pl in s.p:  # from a hand, which gets another card from the deck instead
        if card in pl["hand"]:
            i = pl["hand"].index(card)
            pl["hand"][i] = next(c for c in s.g["deck"] if c != card)
            s.g["deck"].remove(pl["hand"][i])
            return card
    raise AssertionError(f"no {card} left in the deck, the discard pile or a hand")


def give_hand(s: Any, seat: int, *cards: str) -> None:
    """Make `seat`'s hand exactly `cards` (the old hand goes to the bottom of the deck)."""
    hand = s.p[seat]["hand"]
    s.g["deck"][:0] = hand
    hand.clear()
    for c in cards:
        hand.append(take(s, c))


def filler(s: Any, n: int, avoid: tuple[str, ...] = ()) -> list[str]:
    """n card ids still in the deck (bottom first), for hands whose content does not matter."""
    out: list[str] = []
    for c in s.g["deck"]:
        if len(out) == n:
            break
        if c not in avoid and Counter(out)[c] < s.g["deck"].count(c):
            out.append(c)
    assert len(out) == n
    return out


def give_cards(s: Any, seat: int, n: int) -> None:
    """Give `seat` a hand of n cards (which ones does not matter: cheap ones first)."""
    give_hand(s, seat)
    cheap = sorted(set(s.g["deck"]) - {"tower", "chapel", "guard-room", "bank", "office-building"})
    picked: list[str] = []
    deck = Counter(s.g["deck"])
    for c in cheap:
        while deck[c] > 0 and len(picked) < n:
            deck[c] -= 1
            picked.append(c)
    give_hand(s, seat, *picked)


def stack_deck(s: Any, *cards: str) -> None:
    """Put `cards` on top of the deck so that they are drawn in the order given."""
    for c in cards:
        take(s, c)
    s.g["deck"].extend(reversed(cards))


def hand(s: Any, seat: int) -> int:
    return len(s.p[seat]["hand"])


# -- conservation ----------------------------------------------------------------------------
def all_cards(s: Any) -> Counter:
    """Every card wherever it is: deck, discard, goods, hands, cities, under buildings."""
    g = s.g
    out = Counter(g["deck"]) + Counter(g["discard"])
    out += Counter(g["goods-cards"]) + Counter(g.get("under-harbor", []))
    for pl in s.p:
        out += Counter(pl["hand"]) + Counter(pl["drawn"]) + Counter(pl["under-cards"])
        out += Counter(c for c in pl["covered"] if c != "cathedral") + Counter(pl["site"])
        out += Counter(b["type"] for b in pl["city"] if b["type"] != "cathedral")
    return out


def card_count(s: Any) -> int:
    g = s.g
    n = len(g["deck"]) + len(g["discard"]) + len(g["goods-cards"]) + len(g.get("under-harbor", []))
    for pl in s.p:
        n += len(pl["hand"]) + len(pl["drawn"]) + len(pl["under-cards"])
        n += sum(1 for c in pl["covered"] if c != "cathedral")
        n += len(pl["site"])
        n += sum(1 for b in pl["city"] if b["type"] != "cathedral")
    return n


def full_deck(game: Any) -> int:
    return BASE_CARDS + (NEW_BUILDINGS_CARDS if "new-buildings" in game.overlays else 0)


def check_cards(s: Any) -> None:
    """The ruleset's own `invariants:` hold on `s`: cards conserved (the cathedral too), goods
    on buildings matching the face-down goods, one of each city building per city."""
    check_ruleset_invariants(s)


def hand_limit(s: Any, seat: int) -> int:
    mine = {b["type"] for b in s.p[seat]["city"]}
    if "tower" in mine:
        return 12
    anybody_guard = any(b["type"] == "guard-room" for pl in s.p for b in pl["city"])
    return 7 if "guard-room" in mine or not anybody_guard else 6


CITY_KINDS: set[str] = set()


def random_game(game: Any, seed: int, check: bool = True) -> Any:
    """A seeded game of random legal choices; checks cards at every decision and the hand limit
    at every round start (the first role choice of a round)."""
    if not CITY_KINDS:
        CITY_KINDS.update(k for k, a in game.env.attrs.items() if a.get("kind") == "city")
    rnd = random.Random(seed)
    s = game.new_state(seed)
    s.log = None
    start = all_cards(s)
    last_round = 0
    while not s.is_over:
        opts = s.legal_options()
        assert opts, f"no options but the game is not over (seed {seed})"
        if check:
            check_cards(s)
            if s.round != last_round and opts[0].startswith("role:"):
                last_round = s.round
                for seat in range(game.players):
                    assert hand(s, seat) <= hand_limit(s, seat), (seat, seed, s.round)
        s.apply(opts[rnd.randrange(len(opts))])
    if check:
        check_cards(s)
        assert all_cards(s) == start, f"seed {seed}: cards changed identity"
    return s
