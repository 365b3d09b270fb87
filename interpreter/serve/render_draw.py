"""HTML for the drawn components of a board (table/field_drawing.py): card faces, grids of spaces
with occupant circles, rows of slots, tracks, face-down stacks and printed tiles.

Plain HTML styled by static/style.css (no image files, no script), its attributes in single
quotes as render.py writes them: every text is escaped, and the only inline styles are a colour
(``--c``, from ``presentation: colours:``, a ``#rgb`` the schema checks) and a track's width in
percent. A card is a ``<details>``: hovering shows its text as a tooltip, tapping opens it under
the card.
"""

from __future__ import annotations

import re
from html import escape

from interpreter.table.field_drawing import Drawing, Face, Row, Space

__all__ = ["drawing_html", "wide"]

_COLOUR = re.compile(r"^#[0-9a-fA-F]{3}(?:[0-9a-fA-F]{3})?$")


def wide(drawing: Drawing) -> bool:
    """Whether a drawing takes the zone's whole width (its label above it)."""
    return drawing.kind in ("grid", "slots") or (drawing.kind == "cards" and bool(drawing.faces))


def drawing_html(drawing: Drawing) -> str:
    """One field's drawing as HTML."""
    if drawing.kind == "cards":
        faces = "".join(_card(f) for f in drawing.faces)
        return f"<div class='cards'>{faces or _none()}</div>"
    if drawing.kind == "grid":
        return _grid(drawing)
    if drawing.kind == "slots":
        return "<div class='slots'>" + "".join(_row(r) for r in drawing.rows) + "</div>"
    if drawing.kind == "track":
        return _track(drawing)
    if drawing.kind == "stack":
        return _stack(drawing.value)
    if drawing.kind == "tile":
        cells = "".join(
            f"<span class='cell'{_colour(c)} title='{escape(name)}'>"
            f"{escape(name)} <b>{n}</b></span>"
            for c, name, n in drawing.cells
        )
        return (
            f"<div class='ptile' title='{escape(drawing.words or drawing.title)}'>"
            f"<span class='t-name'>{escape(drawing.title)}</span>{cells}</div>"
        )
    return _none()


def _none() -> str:
    return "<span class='none'>&#8212;</span>"


def _colour(colour: str) -> str:
    return f" style='--c:{colour}'" if colour and _COLOUR.match(colour) else ""


def face_title(face: Face) -> str:
    """A card's text in one line (its tooltip): name, numbers, then its ``doc:`` text."""
    numbers = []
    if face.cost is not None:
        numbers.append(f"cost {face.cost}")
    if face.vp is not None:
        numbers.append(f"{face.vp} VP")
    if face.kind:
        numbers.append(face.kind.lower())
    head = face.name + (f" ({', '.join(numbers)})" if numbers else "")
    return f"{head}: {face.doc}" if face.doc else head


def _key(key: str | None) -> str:
    """The id a drawn thing stands for, as an attribute: the option a click on it picks is
    found by it (``presentation: acts:``, static/acts.js)."""
    return f" data-key='{escape(key)}'" if key else ""


def _card(face: Face, cls: str = "card") -> str:
    cost = (
        f"<span class='c-cost' title='cost'>{escape(str(face.cost))}</span>"
        if face.cost is not None
        else ""
    )
    vp = (
        f"<span class='c-vp' title='VP'>{escape(str(face.vp))}</span>"
        if face.vp is not None
        else ""
    )
    count = (
        f"<span class='c-count' title='{face.count} left'>&#215;{face.count}</span>"
        if face.count is not None and face.count > 1
        else ""
    )
    icon = f"<span class='icon'>{escape(face.icon)}</span>" if face.icon else ""
    doc = escape(face_title(face))
    # tapped open: the entry's text under the card (its numbers are on the card already)
    text = f"<p class='c-doc'>{escape(face.doc)}</p>" if face.doc else ""
    return (
        f"<details class='{cls}'{_key(face.key)}{_colour(face.colour)}><summary title='{doc}'>"
        f"{cost}{vp}<span class='c-name'>{icon}{escape(face.name)}</span>{count}</summary>"
        f"{text}</details>"
    )


def _circles(space: Space) -> str:
    """A piece's occupants as filled circles (one style per occupant field), then its empty
    circles up to its capacity; the words ("1 of 3") in the tooltip."""
    filled = sum(n for _, n in space.occupants)
    if space.capacity is None and not filled:
        return ""
    marks = []
    for i, (_, n) in enumerate(space.occupants):
        marks.extend([f"<i class='o f{min(i, 2)}'></i>"] * n)
    marks.extend(["<i class='o'></i>"] * max(0, (space.capacity or 0) - filled))
    words = ", ".join(f"{label.lower()} {n}" for label, n in space.occupants if n) or "empty"
    if space.capacity is not None:
        words = f"{filled} of {space.capacity}: {words}"
    said = escape(words)
    circles = "".join(marks)
    return f"<span class='occ' title='{said}' role='img' aria-label='{said}'>{circles}</span>"


def _grid(drawing: Drawing) -> str:
    cells = []
    for space in drawing.spaces:
        if space.face is None:
            cells.append("<div class='space empty'></div>")
            continue
        span = " w2" if space.width >= 2 else ""
        cells.append(
            f"<div class='space{span}'>{_card(space.face, 'piece')}{_circles(space)}</div>"
        )
    used = sum(s.width for s in drawing.spaces if s.face is not None)
    head = (
        f"<span class='g-count'>{used} of {drawing.max} spaces</span>"
        if drawing.max is not None
        else ""
    )
    return f"<div class='grid'>{''.join(cells)}</div>{head}"


def _row(row: Row) -> str:
    if row.capacity is None and not row.filled and not row.title:
        return _none()  # nothing, and no slots to show it in
    slots = []
    for face in row.filled:
        if face is None:
            slots.append("<i class='slot full'></i>")
        elif row.named:
            slots.append(_card(face, "slot full named"))
        else:
            slots.append(
                # its name for a screen reader and a touch, not only a mouse's hover
                f"<i class='slot full'{_colour(face.colour)} title='{escape(face.name)}' "
                f"role='img' aria-label='{escape(face.name)}'></i>"
            )
    if row.capacity is not None:
        slots.extend(["<i class='slot'></i>"] * max(0, row.capacity - len(row.filled)))
    count = (
        f"{len(row.filled)} of {row.capacity}"
        if row.capacity is not None
        else f"{len(row.filled)} in all"  # a lone number says nothing
    )
    title = f"<span class='s-title'>{escape(row.title)}</span>" if row.title else ""
    return (
        f"<div class='srow'{_key(row.key)}>{title}<span class='s-slots'>{''.join(slots)}</span>"
        f"<span class='s-count'>{count}</span></div>"
    )


def _track(drawing: Drawing) -> str:
    value = drawing.value or 0
    if drawing.max:
        share = max(0, min(100, round(100 * value / drawing.max)))
        return (
            f"<span class='track' title='{value} of {drawing.max}'>"
            f"<span class='bar' style='width:{share}%'></span><b>{value}</b></span>"
        )
    return f"<span class='track'><b>{value}</b></span>"


def _stack(count: int | None) -> str:
    text = "?" if count is None else str(count)
    words = "hidden, how many is not told" if count is None else f"{count} hidden, face down"
    cls = "stack empty" if count == 0 else "stack"
    return f"<span class='{cls}' title='{words}'><b>{text}</b></span>"
