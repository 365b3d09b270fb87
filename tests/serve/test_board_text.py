"""A board's HTML is ASCII with its attributes in single quotes (serve/render.py): it travels as
a JSON string, where a double quote costs an escape and a character past ASCII makes the whole
string wider. What a browser reads from it is the same: names and texts with quotes, markup and
characters past ASCII come out as they went in."""

from __future__ import annotations

import random
from html.parser import HTMLParser

from interpreter.engine.loader import load_game_and_data
from interpreter.serve.board_parts import BoardParts, kept_board_html
from interpreter.table.presenter import Presentation

NAMES = ["Ana María", 'O\'Brien "Ace" <b>', "Zoë & 🦜"]


class _Read(HTMLParser):
    """The seats' titles and attributes as a browser's parser reads them."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.titles: list[str] = []
        self.seats: list[str] = []
        self.texts: list[str] = []
        self._in_title = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if "data-seat" in found:
            self.seats.append(str(found["data-seat"]))
        self._in_title = tag == "h3"
        if self._in_title:
            self.titles.append("")

    def handle_endtag(self, tag: str) -> None:
        self._in_title = False

    def handle_data(self, data: str) -> None:
        self.texts.append(data)
        if self._in_title:
            self.titles[-1] += data


def test_boards_are_ascii_in_single_quotes_and_read_as_their_texts():
    loaded, data = load_game_and_data("puerto-rico", 3, ())
    pres = Presentation.from_data(data)
    parts = BoardParts()
    state = loaded.new_state(3)
    pick = random.Random(3)
    texts = set()
    for _ in range(40):
        for viewer in (0, 1, 2, -1):
            board = kept_board_html(parts, pres, state.view(viewer), NAMES)
            assert board.isascii() and '"' not in board, viewer
            read = _Read()
            read.feed(board)
            read.close()
            seats = [viewer, *(s for s in range(3) if s != viewer)] if viewer >= 0 else [0, 1, 2]
            assert read.seats == [str(s) for s in seats]
            assert read.titles[-3:] == [NAMES[s] + (" (you)" if s == viewer else "") for s in seats]
            texts.update(read.texts)
        state.apply(pick.choice(state.legal_options()))
    assert "\u2014" in texts  # a field with nothing in it, as the board writes it
    assert any(text.startswith("\u00d7") for text in texts)  # a card's copies left
