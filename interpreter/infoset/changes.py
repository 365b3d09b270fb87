"""What changed, told to every reader that follows it, each at its own place.

A :class:`Journal` is a list of notes appended as changes are made; each :class:`Reader` of it
takes the notes written since its last take, so two readers of one journal never take each
other's notes. Notes every reader has taken are dropped. The journal holds its readers weakly:
a reader that is gone no longer holds notes back, and when the last one is gone the journal
empties and leaves the state it was kept on.

Two journals are kept:

* a state's journal (``State.tj``): what the rules of a journal build wrote (dsl/emit/journal.py
  says what a note is), followed by the agents' encoder (agents/encoder.py). A state of a
  journal build (a game built for a reader: the agents' spaces load one) keeps one from its
  start until the last reader that followed it is gone; its copies, a plain build's states and
  a state whose ``tj`` a caller set to None (one changed by hand, or one no one will read) keep
  none, and the generated code notes nothing there (its lines test ``J is not None``).
* each seat's memory (infoset/knowledge.py): the ids every step moved between piles, which
  each seat's reader takes when that seat's memory is next asked for.
"""

from __future__ import annotations

import copy
import weakref
from typing import Any, Generic, Protocol, TypeVar

__all__ = ["Journal", "Note", "Reader", "follow"]

T = TypeVar("T")

# a state journal's note: (container written, key written), dsl/emit/journal.py
Note = tuple[Any, Any]


class Journal(list[T], Generic[T]):
    """Notes, oldest first, since the place of the reader furthest behind."""

    __slots__ = ("_readers", "_start", "_state", "__weakref__")

    def __init__(self, state: Any = None) -> None:
        super().__init__()
        self._readers: list[weakref.ref[Reader[T]]] = []
        self._start = 0  # the place of the first note held (places count every note written)
        # the state that keeps this journal in its ``tj`` (None: none), left when no one reads
        self._state = None if state is None else weakref.ref(state)

    def reader(self) -> Reader[T]:
        """A reader that takes the notes written from now on."""
        reader = Reader(self, self._start + len(self))
        self._readers.append(weakref.ref(reader))
        self._drop()  # (notes written before any reader came are no one's)
        return reader

    def _take(self, reader: Reader[T]) -> list[T]:
        start = self._start
        at = reader.at
        reader.at = start + len(self)
        notes = self[at - start :]
        self._drop()
        return notes

    def _drop(self) -> None:
        """Drop the notes every reader has taken."""
        places = [r.at for ref in self._readers if (r := ref()) is not None]
        low = min(places) if places else self._start + len(self)
        if low > self._start:
            del self[: low - self._start]
            self._start = low

    def _left(self, reader: Reader[T]) -> None:
        """``reader`` is gone: its place holds no notes back; the last one takes the journal
        off its state."""
        self._readers = [ref for ref in self._readers if ref() not in (reader, None)]
        self._drop()
        if not self._readers and self._state is not None:
            state = self._state()
            if state is not None and state.tj is self:
                state.tj = None

    def __deepcopy__(self, memo: dict[int, Any]) -> Journal[T]:
        """The same notes, copied, at the same places; the readers copied along with it (a
        state's deep copy with its records) follow the copy, and the state copied along with
        it keeps the copy."""
        new: Journal[T] = Journal()
        memo[id(self)] = new
        new.extend(copy.deepcopy(list(self), memo))
        new._start = self._start
        state = None if self._state is None else self._state()
        if state is not None and id(state) in memo:
            new._state = weakref.ref(memo[id(state)])
        return new


class Reader(Generic[T]):
    """One reader's place in a journal."""

    __slots__ = ("journal", "at", "__weakref__")

    def __init__(self, journal: Journal[T], at: int) -> None:
        self.journal = journal
        self.at = at  # the place of the first note not yet taken

    def take(self) -> list[T]:
        """The notes written since this reader's last take (or since it began), oldest first."""
        journal = self.journal
        if len(journal._readers) > 1:
            return journal._take(self)
        # the only reader (the encoder of an environment's state, once a step): every note
        # is its own, taken and dropped without counting places
        notes = journal[:]
        journal.clear()
        self.at = journal._start = journal._start + len(notes)
        return notes

    def __deepcopy__(self, memo: dict[int, Any]) -> Reader[T]:
        journal = copy.deepcopy(self.journal, memo)
        new = Reader(journal, self.at)
        journal._readers.append(weakref.ref(new))
        return new

    def __del__(self) -> None:
        # (the journal holds its readers weakly, and no reader holds one back once gone)
        self.journal._left(self)


class _Noted(Protocol):
    """A state (the engine's ``State``) as :func:`follow` reads it."""

    tj: Journal[Note] | None


def follow(state: _Noted) -> Reader[Note] | None:
    """A reader of what ``state``'s rules write from now on; None for a state that keeps no
    journal (the module's docstring)."""
    journal = state.tj
    return None if journal is None else journal.reader()
