"""ruamel's round-trip loader fed by libyaml's parser: the same data, positions and types, faster.

ruamel.yaml's pure-Python scanner and parser are most of the cost of loading a rule file (about
0.1 s for a 40 kB ruleset); libyaml (through PyYAML's C extension) turns the same text into the
same events in a few milliseconds. Those events, converted to ruamel's event classes, go through
ruamel's own composer (with :mod:`interpreter.load.yamlload`'s guards), resolver and round-trip
constructor, so the loaded data, its types and every ``.lc`` position are what the pure path
gives.

Only the plain path is taken here: a text with characters the two parsers might read
differently (tabs, carriage returns, control and line-separator characters, a byte-order mark),
and any stream with a directive, tag, anchor or alias, raise :class:`Unusual`, and the caller
loads the text with ruamel's own parser instead. So does any error: every message about a
broken file comes from ruamel, worded and placed as before (``tests/load/test_fastyaml.py``
checks that both paths agree on every YAML file of the repository).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from ruamel.yaml import events as ev

if TYPE_CHECKING:
    from ruamel.yaml import YAML
    from ruamel.yaml.docinfo import DocInfo

    from interpreter.load.node import Node

try:  # PyYAML built with libyaml; without it every text takes ruamel's pure path
    from yaml._yaml import CParser
except ImportError:  # pragma: no cover - PyYAML is a dependency, libyaml almost always with it
    CParser = None

__all__ = ["Unusual", "load_with_events", "plain_enough"]

# Printable text and newlines only: libyaml and ruamel agree on what such a text means.
_PLAIN = re.compile(
    "[\n\x20-\x7e\u00a0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd\U00010000-\U0010ffff]*"
)


class Unusual(Exception):
    """The stream holds something this fast path leaves to ruamel's own parser."""


def plain_enough(text: str) -> bool:
    """Whether ``text`` may take the libyaml path (see the module's docstring)."""
    return CParser is not None and _PLAIN.fullmatch(text) is not None


def load_with_events(yaml: YAML, text: str) -> Node:
    """Load ``text`` with ``yaml`` (a ruamel ``YAML(typ="rt")``) over libyaml's events."""
    parser = _Events(text)
    yaml._parser = parser  # type: ignore[attr-defined]  # ruamel's composer reads it
    # the resolver asks the scanner for a %YAML directive's version on every scalar; there is
    # no directive here (see _convert), so ruamel's default version holds
    yaml._scanner = _NoDirective()
    yaml.doc_infos.append(_doc_info(yaml))
    yaml.tags = {}
    data: Node = yaml.constructor.get_single_data()
    return data


def _doc_info(yaml: YAML) -> DocInfo:
    from ruamel.yaml.docinfo import DocInfo, version

    return DocInfo(requested_version=version(yaml.version))


class _NoDirective:
    yaml_version = None


class _Events:
    """ruamel's parser interface (check / peek / get an event) over libyaml's parser."""

    def __init__(self, text: str) -> None:
        self._source = CParser(text)
        self._next: ev.Event | None = None

    def _fetch(self) -> ev.Event | None:
        if self._next is None:
            event = self._source.get_event()
            self._next = None if event is None else _convert(event)
        return self._next

    def check_event(self, *choices: type[ev.Event]) -> bool:
        event = self._fetch()
        if event is None:
            return False
        return not choices or isinstance(event, choices)

    def peek_event(self) -> ev.Event | None:
        return self._fetch()

    def get_event(self) -> ev.Event | None:
        event = self._fetch()
        self._next = None
        return event

    def dispose(self) -> None:
        self._source = None


def _convert(event: Any) -> ev.Event:  # a PyYAML event (PyYAML has no type hints)
    """The ruamel event for a PyYAML one; :class:`Unusual` for what ruamel must see itself."""
    kind = type(event).__name__
    if kind == "ScalarEvent":
        if event.anchor is not None or event.tag is not None:
            raise Unusual(kind)
        return ev.ScalarEvent(
            None, None, event.implicit, event.value, event.start_mark, event.end_mark, event.style
        )
    if kind in ("MappingStartEvent", "SequenceStartEvent"):
        if event.anchor is not None or event.tag is not None:
            raise Unusual(kind)
        cls = ev.MappingStartEvent if kind == "MappingStartEvent" else ev.SequenceStartEvent
        return cls(
            None,
            None,
            event.implicit,
            event.start_mark,
            event.end_mark,
            flow_style=event.flow_style,
        )
    if kind in ("MappingEndEvent", "SequenceEndEvent", "StreamEndEvent"):
        return getattr(ev, kind)(event.start_mark, event.end_mark)
    if kind == "StreamStartEvent":
        return ev.StreamStartEvent(event.start_mark, event.end_mark)
    if kind == "DocumentStartEvent":
        if event.version is not None or event.tags:
            raise Unusual(kind)
        return ev.DocumentStartEvent(event.start_mark, event.end_mark, explicit=event.explicit)
    if kind == "DocumentEndEvent":
        return ev.DocumentEndEvent(event.start_mark, event.end_mark, explicit=event.explicit)
    raise Unusual(kind)  # an alias, or anything new
