"""Helpers to build rulebook situations on a real San Juan state without losing a card.

Every helper moves cards between the deck and a player (never creates or destroys one), so the
conservation check `check_cards` holds after an example has been set up and played. The deck's
top is the end of the `deck` list (what `draw` takes first).
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from interpreter.engine.invariants import check_invariants as check_ruleset_invariants

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


def give_building(s: Any, seat: int, card: str, good: bool = False) -> dict:
    """Build `card` for `seat` for free (from the deck); `good`: a face-down good on it too."""
    take(s, card)
    piece = {"type": card, "good": 0, "fresh": 0}
    s.p[seat]["city"].append(piece)
    if good:
        load_good(s, piece)
    return piece


def load_good(s: Any, piece: dict) -> None:
    assert piece["good"] == 0
    s.g["goods-cards"].append(s.g["deck"].pop(0))
    piece["good"] = 1


def clear_city(s: Any, seat: int) -> None:
    """Back to the deck: every building of `seat` and the goods on them."""
    for b in s.p[seat]["city"]:
        if b["good"]:
            s.g["deck"].insert(0, s.g["goods-cards"].pop())
        if b["type"] != "cathedral":
            s.g["deck"].insert(0, b["type"])
        elif "cathedral-left" in s.g:
            s.g["cathedral-left"] += 1
    s.p[seat]["city"].clear()


def set_city(s: Any, seat: int, *cards: str) -> None:
    clear_city(s, seat)
    for c in cards:
        give_building(s, seat, c)


def set_tile(s: Any, tile: str) -> None:
    """The trader's next tile is `tile` (order of the others unchanged)."""
    s.g["tile-index"] = s.g["tile-order"].index(tile)


def city(s: Any, seat: int) -> list[str]:
    return [b["type"] for b in s.p[seat]["city"]]


def goods(s: Any, seat: int) -> int:
    return sum(b["good"] for b in s.p[seat]["city"])


def hand(s: Any, seat: int) -> int:
    return len(s.p[seat]["hand"])


def play(s: Any, *option_ids: str) -> None:
    """Apply options in order, each one asserted legal first."""
    for oid in option_ids:
        legal = s.legal_options()
        assert oid in legal, f"{oid!r} not legal for seat {s.to_move}; legal: {legal}"
        s.apply(oid)


def pass_until_role(s: Any) -> None:
    """Pass (or take the first option) until the next role choice or the end of the game."""
    while not s.is_over and not any(o.startswith("role:") for o in s.legal_options()):
        opts = s.legal_options()
        s.apply("pass" if "pass" in opts else opts[0])


def score(s: Any) -> Any:
    """Score a copy of the state now (the game-end rules of the ruleset), return the result."""
    c = s.copy()
    s.game.finish(c)
    return c.result()


def scores(s: Any, seat: int) -> dict:
    return score(s).scores[seat]


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
