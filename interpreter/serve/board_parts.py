"""A seat's board put together from the parts its table keeps: most of a board is the same
for every seat, and most of it does not change from one move to the next.

A board is the shared zones, then one zone per seat (the viewer's own first). The HTML of a
part depends only on the values it shows and on how the viewer stands to it: whether the zone
is the viewer's own, whether its seat is to move, the names of the seats, and, for a zone with
a field drawn as a seat (which reads "you" to that seat), the viewer itself. A part is kept
under exactly those, its values written out whole (``repr``: exact for the plain values of a
view, see ``Presentation._field``). So the messages of one move (the mover's answer, the next
seat's position, the spectators') render each part once, a part no move changed is not
rendered again, and a seat is only ever sent parts made of values in its own view: another
seat's hidden fields are in the key of the parts its owner is sent, never in anybody else's.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import Any

from interpreter.serve.render import board_frame, seat_zone_html, shared_zone_html
from interpreter.table.presenter import Presentation

__all__ = ["PARTS_KEPT", "BoardParts", "kept_board_html"]

PARTS_KEPT = 256  # parts a table keeps; then it starts anew, taking over the parts in use


class BoardParts:
    """The HTML of a table's board parts, by what each depends on (bounded: two generations,
    the older one dropped when the newer fills, a part still asked for carried over)."""

    def __init__(self, limit: int = PARTS_KEPT) -> None:
        self.limit = limit
        self._now: dict[tuple[Hashable, ...], str] = {}
        self._before: dict[tuple[Hashable, ...], str] = {}
        self.found = self.made = 0  # parts taken from here, parts rendered (for the tests)

    def __len__(self) -> int:
        return len(self._now) + len(self._before)

    def find(self, key: tuple[Hashable, ...]) -> str | None:
        """The part kept under ``key`` (carried over to the newer generation), or None."""
        html = self._now.get(key)
        if html is None:
            html = self._before.get(key)
            if html is None:
                return None
            self._keep(key, html)
        self.found += 1
        return html

    def keep(self, key: tuple[Hashable, ...], html: str) -> str:
        """Keep a part just rendered; returns it."""
        self.made += 1
        return self._keep(key, html)

    def _keep(self, key: tuple[Hashable, ...], html: str) -> str:
        if len(self._now) >= self.limit:
            self._before, self._now = self._now, {}
        self._now[key] = html
        return html


def kept_board_html(
    parts: BoardParts,
    pres: Presentation,
    view: Mapping[str, Any],
    names: Sequence[str],
) -> str:
    """The board of ``view``'s seat (``render.board_html`` of ``pres.board(view)``, to the
    character), each part taken from ``parts`` or rendered and kept there."""
    viewer = view["seat"]
    to_move = view["to_move"]
    players = len(view["players"])
    named = tuple(names)
    as_seat = {name for name, spec in pres.draw.items() if spec.as_ == "seat"}

    def reads(values: Mapping[str, Any]) -> int | None:
        """The viewer, where a field of ``values`` reads differently to each seat."""
        return viewer if not as_seat.isdisjoint(values) else None

    zones: list[str] = []
    key: tuple[Hashable, ...]
    for title, values in pres.shared_groups(view["global"]):
        if not values:
            continue
        key = ("zone", title, reads(values), named, repr(values))
        html = parts.find(key)
        if html is None:
            zone = pres.zone(title, values, viewer, players)
            html = parts.keep(key, shared_zone_html(zone, pres, names))
        zones.append(html)
    own: list[str] = []
    others: list[str] = []
    for seat, values in pres.seat_groups(view["players"]):
        key = ("seat", seat, seat == viewer, seat == to_move, reads(values), named, repr(values))
        html = parts.find(key)
        if html is None:
            zone = pres.zone(f"Seat {seat}", values, viewer, players, seat)
            html = parts.keep(key, seat_zone_html(zone, pres, viewer, to_move, names))
        (own if seat == viewer else others).append(html)
    return board_frame(int(view["round"]), zones, own + others)
