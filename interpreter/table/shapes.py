"""The shapes of what a table offers the seat to move, as its messages carry them: an option
with its words (``Presentation.option_entry``, listed by ``offers.options_of``) and a gesture
(``gestures.gesture_of``; ``gestures.gesture_message`` adds the picks it starts from). The web
table sends them as JSON (serve/messages.py), the terminal prints them (cli/play.py).
(No ``from __future__ import annotations`` here: a TypedDict's ``NotRequired`` keys are read
at run time only from annotations that are not strings.)
"""

from typing import TypedDict

__all__ = ["Gesture", "GestureMessage", "OptionEntry"]


class OptionEntry(TypedDict):
    """A legal option of the seat to move, worded."""

    id: str  # the option's id, as a move sends it back
    text: str  # its words, with its preview and cost where it has them
    family: str  # its option family (the head of its id)
    group: str  # the heading it is listed under
    doc: str  # the tooltip: the ``doc:`` of the first catalog entry it names ("": none)


class Gesture(TypedDict):
    """A run of one choose step's decisions asked as one move (``gestures.py``)."""

    kind: str  # "assign" or "select"
    step: str  # the choose step's ``name:``
    picks: int  # how many picks the run takes
    most: list[list[str | int]]  # [option, times]: how often each option may be picked
    first: list[str]  # the run the engine takes (the first legal option each time)
    text: str  # what the run is for, in words
    confirm: str  # the label of the button that sends it


class GestureMessage(Gesture):
    """A gesture as the seat's message carries it: with the picks it starts from."""

    proposal: list[str]
