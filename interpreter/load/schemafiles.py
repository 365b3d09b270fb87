"""The schema files: found (``schemas/``, or ``RULEBOOK_SCHEMAS``), read and self-checked once per
process, and the registry their ``$ref``s resolve in (by file name or ``$id``)."""

from __future__ import annotations

import functools
import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from interpreter.diagnostics.errors import Diagnostic, RulesError
from interpreter.load.locate import json_pointer
from interpreter.load.resources import data_dir

if TYPE_CHECKING:
    from referencing import Registry

# jsonschema and referencing are imported where they are used: a run whose documents are all
# valid never needs them (fastschema.py says so), and importing them is a tenth of a second of
# every cold `rulebook validate`.

__all__ = ["SOUND", "load_schema", "registry", "schemas_dir"]

_DEFAULT_SCHEMAS = data_dir("schemas").resolve()


def schemas_dir() -> Path:
    """Directory holding ``<name>.schema.json`` files (``RULEBOOK_SCHEMAS`` overrides it)."""
    override = os.environ.get("RULEBOOK_SCHEMAS")
    return Path(override) if override else _DEFAULT_SCHEMAS


def _schema_file(name: str) -> Path:
    filename = name if name.endswith(".json") else f"{name}.schema.json"
    return schemas_dir() / filename


_SCHEMAS: dict[tuple[str, int, int], dict[str, Any]] = {}
# Schemas already checked against the meta-schema (by id): that check costs more than checking
# a ruleset, and a schema object is never changed once loaded.
SOUND: dict[int, dict[str, Any]] = {}


def load_schema(name: str) -> dict[str, Any]:
    """Read and self-check one schema; a broken schema is reported, not crashed on.

    Checking a schema against the meta-schema costs more than checking a ruleset with it, so
    each schema file is read and checked once per process (again if the file changes).
    """
    path = _schema_file(name)
    try:
        st = path.stat()
        key = (str(path), st.st_size, st.st_mtime_ns)
    except OSError:
        key = None
    if key is not None and key in _SCHEMAS:
        return _SCHEMAS[key]
    schema = _read_schema(name, path)
    if key is not None:
        _SCHEMAS[key] = schema
    return schema


def _read_schema(name: str, path: Path) -> dict[str, Any]:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as err:
        raise RulesError(
            Diagnostic("S011", f"cannot read schema '{name}': {err.strerror}", file=str(path))
        ) from None
    try:
        schema = json.loads(text)
    except json.JSONDecodeError as err:
        raise RulesError(
            Diagnostic(
                "S011",
                f"schema is not valid JSON: {err.msg}",
                file=str(path),
                line=err.lineno,
                column=err.colno,
            )
        ) from None
    if not isinstance(schema, dict):
        raise RulesError(Diagnostic("S010", "schema must be a JSON object", file=str(path)))
    # The schemas of this project (schemas/) are checked against the meta-schema by the test suite
    # (tests/schema/test_schemas.py); doing it again on every start would cost more than
    # validating a whole ruleset. Schemas from elsewhere (RULEBOOK_SCHEMAS) are checked here.
    if path.resolve().parent != _DEFAULT_SCHEMAS:
        from jsonschema import Draft202012Validator
        from jsonschema.exceptions import SchemaError

        try:
            Draft202012Validator.check_schema(schema)
        except SchemaError as err:
            raise RulesError(
                Diagnostic(
                    "S010",
                    f"invalid schema: {err.message}",
                    file=str(path),
                    json_path=json_pointer(list(err.absolute_path)),
                )
            ) from None
    SOUND[id(schema)] = schema
    return schema


@functools.lru_cache(maxsize=8)
def registry(directory: str) -> Registry:
    """All schemas of a directory, addressable by file name and by ``$id``."""
    from referencing import Registry, Resource
    from referencing.jsonschema import DRAFT202012

    resources: list[tuple[str, Resource]] = []
    folder = Path(directory)
    if folder.is_dir():
        for file in sorted(folder.glob("*.json")):
            try:
                contents = json.loads(file.read_text(encoding="utf-8"))
            except (OSError, json.JSONDecodeError):
                continue  # reported when that schema itself is loaded
            if not isinstance(contents, dict):
                continue
            resource = Resource.from_contents(contents, default_specification=DRAFT202012)
            resources.append((file.name, resource))
            if isinstance(contents.get("$id"), str):
                resources.append((contents["$id"], resource))
    return Registry().with_resources(resources)
