"""A fast first look at a document against its schema: is it valid at all?

jsonschema walks a document through the schema one keyword object at a time, a large share of
a cold `rulebook validate`. fastjsonschema writes the schema out as plain Python functions
instead, much faster on a ruleset (docs/performance.md, "Validation"). It gives only the first
error, without the paths and words our diagnostics need, so it is used only to say "valid":
a document it rejects is walked again by jsonschema (schema.py), which reports every error.
Most documents a rule author checks are valid, so most checks end here.

The written functions are compiled once per schema and kept, as a marshalled code object, in
the user's cache folder (``$XDG_CACHE_HOME/rulebook``, else ``~/.cache/rulebook``), keyed by
the schema's text and the versions of fastjsonschema and Python; a cache that cannot be read
or written only costs the compile. Our schemas are Draft 2020-12 and use only keywords that
Draft 7 reads alike (no ``$ref`` with siblings, no array ``items``, no ``unevaluated*``);
fastjsonschema is told Draft 7. A schema it cannot take (a ``$ref`` to another file, a
keyword it does not know) has no fast validator: every document then takes jsonschema's walk.
tests/schema/test_fast_schema.py checks that both say "valid" of exactly the same documents.
"""

from __future__ import annotations

import hashlib
import json
import marshal
import os
import sys
from collections.abc import Callable
from pathlib import Path
from types import CodeType
from typing import Any

__all__ = ["fast_is_valid"]

_DRAFT7 = "http://json-schema.org/draft-07/schema#"
# a generated validator: returns, or raises where the data is not valid
_Validate = Callable[[object], object]
# id(schema) -> (schema, its validator or None where it has none); the schema is kept so that
# its id stays its own
_VALIDATORS: dict[int, tuple[dict[str, Any], _Validate | None]] = {}


def fast_is_valid(plain: object, schema: dict[str, Any]) -> bool:
    """True when ``plain`` (JSON-shaped data) is valid against ``schema`` by the fast
    validator; False when it is not, or when the schema has none (ask jsonschema then)."""
    hit = _VALIDATORS.get(id(schema))
    if hit is None:
        hit = _VALIDATORS[id(schema)] = (schema, _validator(schema))
    validate = hit[1]
    if validate is None:
        return False
    try:
        validate(plain)
    except Exception:  # noqa: BLE001 - any complaint (or failure) means: walk it properly
        return False
    return True


def _validator(schema: dict[str, Any]) -> _Validate | None:
    try:
        import fastjsonschema
    except ImportError:  # pragma: no cover - a core dependency; without it, jsonschema only
        return None
    draft7 = {**schema, "$schema": _DRAFT7}
    text = json.dumps(draft7, sort_keys=True)
    key = hashlib.sha256(f"{text}|{fastjsonschema.VERSION}|{sys.version}".encode()).hexdigest()[:24]
    cached = _cache_dir() / f"fastschema-{key}.bin"
    code = _read(cached)
    if code is None:
        try:
            source = fastjsonschema.compile_to_code(draft7)
            code = compile(source, f"<schema {schema.get('$id', '')}>", "exec")
        except Exception:  # noqa: BLE001 - a schema it cannot take: jsonschema alone then
            return None
        _write(cached, code)
    namespace: dict[str, Any] = {}
    try:
        exec(code, namespace)  # noqa: S102 - code fastjsonschema wrote from our own schema
    except Exception:  # noqa: BLE001
        return None
    return _entry(namespace)


def _entry(namespace: dict[str, Any]) -> _Validate | None:
    """The generated module's validator of the whole document: fastjsonschema names it after
    the schema's $id; the others it writes validate its definitions."""
    names = [
        n
        for n, v in namespace.items()
        if n.startswith("validate") and callable(v) and "___defs_" not in n
    ]
    return namespace[names[0]] if len(names) == 1 else None


def _cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "rulebook"


def _read(path: Path) -> CodeType | None:
    try:
        return marshal.loads(path.read_bytes())
    except (OSError, ValueError, EOFError, TypeError):
        return None


def _write(path: Path, code: CodeType) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(f".{os.getpid()}.tmp")
        partial.write_bytes(marshal.dumps(code))
        os.replace(partial, path)  # whole or not at all, whoever writes at the same time
    except OSError:
        pass  # a read-only home: the compile is paid again next time
