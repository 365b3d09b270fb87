"""What one run of checks learns about its documents' schema, so shared parts are checked once.

A composed ruleset shares every entry an overlay did not touch with its base (composition
copies on write), and `rulebook validate` schema-checks the base, then each composition of it:
without a memo the whole base is checked again for every overlay and every combination. With a
:class:`SchemaMemo`, a shared container gets the same plain copy in every document, and a
(part of a document, part of a schema) pair found clean once is not walked again. Only clean
pairs are remembered, so the errors reported, their order and their paths are exactly those of
a check without the memo.

The memo holds (and so keeps alive) every container it has seen: it belongs to one run over
documents nobody changes meanwhile, never to the process.
"""

from __future__ import annotations

import contextvars
import functools
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

__all__ = ["SchemaMemo", "active", "memo_validator"]


class SchemaMemo:
    """Plain copies of containers by identity, and the pairs a check found clean."""

    def __init__(self) -> None:
        # id(node) -> (node, its plain copy: JSON data, typed Any like schema.to_plain's)
        self.plain: dict[int, tuple[object, Any]] = {}
        self.clean: dict[tuple[int, int], tuple[object, object]] = {}  # ids -> (instance, schema)

    def to_plain(self, data: object, convert: Callable[[object], Any]) -> Any:
        """``convert(data)`` (the schema module's ``to_plain``), sharing the copies of containers
        this memo has copied before."""
        if not isinstance(data, Mapping | list | tuple):
            return convert(data)
        hit = self.plain.get(id(data))
        if hit is not None:
            return hit[1]
        if isinstance(data, Mapping):
            from interpreter.load.locate import plain_key

            out: dict[str, Any] | list[Any] = {
                plain_key(k): self.to_plain(v, convert) for k, v in data.items()
            }
        elif isinstance(data, Sequence):
            out = [self.to_plain(v, convert) for v in data]
        self.plain[id(data)] = (data, out)
        return out


_ACTIVE: contextvars.ContextVar[SchemaMemo | None] = contextvars.ContextVar(
    "schema_memo", default=None
)


def active() -> contextvars.ContextVar[SchemaMemo | None]:
    """The memo the checks of this context use (set around one check)."""
    return _ACTIVE


@functools.cache
def memo_validator(base: Any) -> Any:
    """``base`` (a jsonschema validator class) whose ``descend`` skips pairs found clean."""
    from jsonschema import validators

    cls = validators.extend(base)
    plain_descend = cls.descend

    def descend(
        self: Any,
        instance: Any,
        schema: Any,
        path: Any = None,
        schema_path: Any = None,
        resolver: Any = None,
    ) -> Iterator[Any]:
        memo = _ACTIVE.get()
        if memo is None or not isinstance(instance, dict | list) or isinstance(schema, bool):
            yield from plain_descend(self, instance, schema, path, schema_path, resolver)
            return
        key = (id(instance), id(schema))
        if key in memo.clean:
            return
        found = False
        for err in plain_descend(self, instance, schema, path, schema_path, resolver):
            found = True
            yield err
        if not found:  # reached only when the caller took every error there was
            memo.clean[key] = (instance, schema)

    cls.descend = descend
    return cls
