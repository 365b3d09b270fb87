"""JSON Schema (Draft 2020-12) checking that yields positioned, human diagnostics.

Modelled on check-jsonschema and cfn-lint: validate a plain copy of the data, collect *all*
errors, walk each error's path back into the ruamel tree for ``file:line:col``, and rewrite
jsonschema's messages into what a rules author needs ("expected an integer, got 'ten'",
"unknown key 'cots' (did you mean 'cost'?)").  For ``oneOf``/``anyOf`` only the branch that
best fits the data is reported, never the whole pile of alternatives.

Schemas live in the repository's ``schemas/`` directory (override: ``RULEBOOK_SCHEMAS``); a
schema may ``$ref`` another file of that directory by file name or by ``$id`` (schemafiles.py
reads them; schemamemo.py spares a run checking the same parts twice).
"""

from __future__ import annotations

import datetime as _dt
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from interpreter.diagnostics.errors import Diagnostic, DiagnosticSink, RulesError
from interpreter.diagnostics.suggest import did_you_mean, hint_for
from interpreter.load.fastschema import fast_is_valid
from interpreter.load.locate import is_map, is_seq, json_pointer, locate, plain_key
from interpreter.load.node import Node
from interpreter.load.schemafiles import (
    SOUND as _SOUND,
    load_schema,
    registry as _registry,
    schemas_dir,
)
from interpreter.load.schemamemo import SchemaMemo, active, memo_validator

if TYPE_CHECKING:
    from collections.abc import Callable

    from jsonschema.exceptions import ValidationError

    _Handler = Callable[["_Converter", ValidationError, "_Path"], "list[Diagnostic] | None"]

# jsonschema is imported in check(), when it is needed: see schemafiles.py

__all__ = ["load_schema", "check", "check_or_raise", "to_plain", "schemas_dir"]

# a path into the checked data, as jsonschema gives it: map keys (text) and list positions
_Path = list[str | int]


def to_plain(data: object) -> Any:
    """JSON-shaped copy of ruamel data: dict/list/str/int/float/bool/None, keys as text.

    ruamel's scalar subclasses (ScalarInt, ScalarFloat, ScalarString) become builtins so that
    schema checks, equality and ``json.dumps`` behave as on plain JSON.
    """
    if data is None or data is True or data is False:
        return data
    if isinstance(data, str):
        return str(data)
    if isinstance(data, bool):
        return bool(data)
    if isinstance(data, int):
        return int(data)
    if isinstance(data, float):
        return float(data)
    if isinstance(data, Mapping):
        return {plain_key(k): to_plain(v) for k, v in data.items()}
    if isinstance(data, Sequence | set | frozenset) and not isinstance(data, bytes):
        return [to_plain(v) for v in data]
    if isinstance(data, _dt.date | _dt.datetime):
        return data.isoformat()
    return str(data)


# ---------------------------------------------------------------------------------------------
# Message helpers

_TYPE_PHRASES = {
    "integer": "an integer",
    "number": "a number",
    "string": "a string",
    "boolean": "true or false",
    "object": "a map",
    "array": "a list",
    "null": "null",
}


def _type_phrase(types: str | Iterable[str]) -> str:
    if isinstance(types, str):
        types = [types]
    phrases = [_TYPE_PHRASES.get(t, str(t)) for t in types]
    return " or ".join(dict.fromkeys(phrases))


def _describe(value: object) -> str:
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, str):
        text = value if len(value) <= 40 else value[:37] + "..."
        return f"'{text}'"
    if isinstance(value, int | float):
        return str(value)
    if isinstance(value, dict):
        return "a map"
    if isinstance(value, list):
        return "a list"
    return repr(value)


def _short_list(items: Iterable[object], limit: int = 10) -> str:
    shown = [_describe(i) if not isinstance(i, str) else i for i in items]
    if len(shown) > limit:
        return ", ".join(shown[:limit]) + f", ... ({len(shown) - limit} more)"
    return ", ".join(shown)


def _quoted_names(message: str) -> list[str]:
    inner = re.search(r"\((.*) (?:was|were) unexpected\)", message)
    if not inner:
        return []
    return re.findall(r"'((?:[^'\\]|\\.)*)'", inner.group(1))


# ---------------------------------------------------------------------------------------------
# Choosing the best alternative of oneOf / anyOf


def _branch_score(errors: list[ValidationError], base_depth: int) -> tuple[int, int, int, int]:
    """Lower is better: type mismatch of the whole value, then a mismatched tag/kind field."""
    type_miss = any(e.validator == "type" and len(e.absolute_path) == base_depth for e in errors)
    kind_miss = any(
        e.validator in ("const", "enum") and len(e.absolute_path) == base_depth + 1 for e in errors
    )
    depth = max((len(e.absolute_path) for e in errors), default=base_depth)
    return (int(type_miss), int(kind_miss), len(errors), -depth)


def _best_branch(error: ValidationError) -> list[ValidationError] | None:
    """Errors of the alternative the author most likely meant, or None if none fits at all."""
    branches: dict[str | int | None, list[ValidationError]] = {}
    for sub in error.context or ():
        key = sub.relative_schema_path[0] if sub.relative_schema_path else None
        branches.setdefault(key, []).append(sub)
    if not branches:
        return None
    base_depth = len(error.absolute_path)
    ranked = sorted(
        branches.items(),
        key=lambda item: (_branch_score(item[1], base_depth), str(item[0])),
    )
    best_errors = ranked[0][1]
    if _branch_score(best_errors, base_depth)[0]:
        return None  # the value's type fits no alternative: say so once
    return best_errors


# ---------------------------------------------------------------------------------------------
# Converting one jsonschema error


class _Converter:
    def __init__(self, root: Node, prefix: Sequence[str | int]) -> None:
        self.root = root
        self.prefix = list(prefix)

    def _diag(
        self,
        code: str,
        message: str,
        path: Sequence[str | int],
        *,
        key: bool = False,
        expected: str | None = None,
        hint: str | None = None,
    ) -> Diagnostic:
        file, line, col = (
            locate(self.root, list(path), key=key) if self.root is not None else (None,) * 3
        )
        return Diagnostic(
            code,
            message,
            file=file,
            line=line,
            column=col,
            json_path=json_pointer(self.prefix + list(path)),
            expected=expected,
            hint=hint,
        )

    def convert(self, err: ValidationError) -> list[Diagnostic]:
        path = list(err.absolute_path)
        v = err.validator
        handler = _BY_VALIDATOR.get(v) if isinstance(v, str) else None
        if handler is not None:
            out = handler(self, err, path)
            if out is not None:
                return out
        bound = _bound_message(v, err.validator_value, err.instance)
        if bound is not None:
            return [self._diag("S005", bound[0], path, expected=bound[1])]
        if v is None or v is False or err.message.startswith("False schema"):
            return [self._diag("S009", "not allowed here", path, key=True)]
        if v == "not":
            return [self._diag("S009", f"{_describe(err.instance)} is not allowed here", path)]
        return [self._diag("S009", err.message, path)]

    def _alternatives(self, err: ValidationError, path: _Path) -> list[Diagnostic]:
        """``oneOf``/``anyOf``: the errors of the alternative the value came closest to."""
        if not err.context:
            return [
                self._diag(
                    "S007", "matches more than one alternative; it must match exactly one", path
                )
            ]
        best = _best_branch(err)
        if best is None:
            return [self._no_alternative(err, path)]
        out: list[Diagnostic] = []
        for sub in best:
            out.extend(self.convert(sub))
        return out

    def _no_alternative(self, err: ValidationError, path: _Path) -> Diagnostic:
        """No alternative came close: the types they allow, where they say them."""
        val = err.validator_value
        types = [
            s.get("type")
            for s in (val if isinstance(val, list) else [])
            if isinstance(s, dict) and s.get("type")
        ]
        # (an alternative by $ref says its type in its own type error)
        base = len(err.absolute_path)
        types += [
            sub.validator_value
            for sub in err.context
            if sub.validator == "type" and len(sub.absolute_path) == base
        ]
        flat: list[str] = []
        for t in types:
            for one in [t] if isinstance(t, str) else list(t or ()):
                if one not in flat:
                    flat.append(one)
        if not flat:
            return self._diag("S007", "matches none of the allowed alternatives", path)
        phrase = _type_phrase(flat)
        return self._diag(
            "S001", f"expected {phrase}, got {_describe(err.instance)}", path, expected=phrase
        )

    def _type(self, err: ValidationError, path: _Path) -> list[Diagnostic]:
        phrase = _type_phrase(err.validator_value)
        got = _describe(err.instance)
        return [self._diag("S001", f"expected {phrase}, got {got}", path, expected=phrase)]

    def _required(self, err: ValidationError, path: _Path) -> list[Diagnostic] | None:
        inst = err.instance
        if not isinstance(inst, dict):
            return None
        names = [p for p in (err.validator_value or []) if p not in inst and repr(p) in err.message]
        name = names[0] if names else str(err.message)
        close = did_you_mean(name, inst.keys())
        hint = f"is '{close}' a misspelling of '{name}'?" if close else None
        # a schema may say in its own words what is missing (ajv-errors' keyword)
        message = _schema(err).get("errorMessage") or f"missing required key '{name}'"
        return [self._diag("S002", message, path, key=True, hint=hint)]

    def _extra_keys(self, err: ValidationError, path: _Path) -> list[Diagnostic] | None:
        """``additionalProperties``/``unevaluatedProperties``: each unknown key."""
        inst = err.instance
        if not isinstance(inst, dict):
            return None
        schema = _schema(err)
        allowed = list(schema.get("properties", {}) or {})
        patterns = list((schema.get("patternProperties") or {}).keys())
        if err.validator == "additionalProperties":
            extras = [
                k for k in inst if k not in allowed and not any(re.search(p, k) for p in patterns)
            ]
        else:
            extras = _quoted_names(err.message) or [k for k in inst if k not in allowed]
        expected = f"one of {_short_list(sorted(allowed))}" if allowed else None
        return [
            self._diag(
                "S003",
                f"unknown key '{extra}'",
                path + [extra],
                key=True,
                expected=expected,
                hint=hint_for(extra, allowed),
            )
            for extra in extras
        ] or [self._diag("S003", err.message, path)]

    def _enum(self, err: ValidationError, path: _Path) -> list[Diagnostic]:
        inst = err.instance
        options = list(err.validator_value or [])
        expected = f"one of {_short_list(options)}"
        hint = hint_for(inst, [str(o) for o in options]) if isinstance(inst, str) else None
        got = _describe(inst)
        return [
            self._diag(
                "S004", f"expected {expected}, got {got}", path, expected=expected, hint=hint
            )
        ]

    def _const(self, err: ValidationError, path: _Path) -> list[Diagnostic]:
        inst, val = err.instance, err.validator_value
        want = _describe(val)
        hint = hint_for(inst, [val]) if isinstance(inst, str) and isinstance(val, str) else None
        got = _describe(inst)
        return [self._diag("S004", f"expected {want}, got {got}", path, expected=want, hint=hint)]

    def _pattern(self, err: ValidationError, path: _Path) -> list[Diagnostic]:
        inst, val = err.instance, err.validator_value
        if "propertyNames" in err.schema_path and isinstance(inst, str):
            return [
                self._diag(
                    "S006",
                    f"key '{inst}' does not match the pattern {val}",
                    path + [inst],
                    key=True,
                    expected=f"a key matching {val}",
                )
            ]
        form = str(_schema(err).get("description", ""))
        if form.startswith("`"):  # a described form (`NAME in COLLECTION`) beats a regex
            want = form.rstrip(".")
            return [self._diag("S006", f"expected {want}, got {_describe(inst)}", path)]
        return [
            self._diag(
                "S006",
                f"{_describe(inst)} does not match the pattern {val}",
                path,
                expected=f"text matching {val}",
            )
        ]

    def _format(self, err: ValidationError, path: _Path) -> list[Diagnostic]:
        val = err.validator_value
        message = f"{_describe(err.instance)} is not a valid {val}"
        return [self._diag("S006", message, path, expected=val)]

    def _unique(self, err: ValidationError, path: _Path) -> list[Diagnostic] | None:
        inst = err.instance
        if not isinstance(inst, list):
            return None
        seen: list[object] = []
        for i, item in enumerate(inst):
            if item in seen:
                return [self._diag("S008", f"duplicate item {_describe(item)}", path + [i])]
            seen.append(item)
        return [self._diag("S008", "items must be unique", path)]

    def _dependent(self, err: ValidationError, path: _Path) -> list[Diagnostic]:
        return [self._diag("S002", err.message, path, key=True)]


def _schema(err: ValidationError) -> dict[str, Any]:
    return err.schema if isinstance(err.schema, dict) else {}


# each validator's diagnostics (None: the generic ones below in convert)
_BY_VALIDATOR: dict[str, _Handler] = {
    "oneOf": _Converter._alternatives,
    "anyOf": _Converter._alternatives,
    "type": _Converter._type,
    "required": _Converter._required,
    "additionalProperties": _Converter._extra_keys,
    "unevaluatedProperties": _Converter._extra_keys,
    "enum": _Converter._enum,
    "const": _Converter._const,
    "pattern": _Converter._pattern,
    "format": _Converter._format,
    "uniqueItems": _Converter._unique,
    "dependentRequired": _Converter._dependent,
    "dependencies": _Converter._dependent,
}


def _bound_message(v: object, val: object, inst: object) -> tuple[str, str] | None:
    got = _describe(inst)
    if v == "minimum":
        return f"expected a number >= {val}, got {got}", f"a number >= {val}"
    if v == "maximum":
        return f"expected a number <= {val}, got {got}", f"a number <= {val}"
    if v == "exclusiveMinimum":
        return f"expected a number > {val}, got {got}", f"a number > {val}"
    if v == "exclusiveMaximum":
        return f"expected a number < {val}, got {got}", f"a number < {val}"
    if v == "multipleOf":
        return f"expected a multiple of {val}, got {got}", f"a multiple of {val}"
    size = len(inst) if isinstance(inst, str | list | dict) else None
    unit = {"Length": "characters", "Items": "items", "Properties": "keys"}
    for suffix, noun in unit.items():
        if v == f"min{suffix}":
            return (f"expected at least {val} {noun}, got {size}", f"at least {val} {noun}")
        if v == f"max{suffix}":
            return (f"expected at most {val} {noun}, got {size}", f"at most {val} {noun}")
    return None


def check(
    data: Node,
    schema: dict[str, Any],
    root_for_positions: Node = None,
    *,
    prefix: Sequence[str | int] = (),
    memo: SchemaMemo | None = None,
) -> list[Diagnostic]:
    """Every schema violation of ``data``, positioned and sorted (empty list = valid).

    ``root_for_positions`` is the ruamel node that corresponds to ``data`` (default: ``data``
    itself) and is where positions are looked up; ``prefix`` is prepended to every JSON path
    when ``data`` is a part of a larger document. With ``memo`` (one per run over unchanging
    documents), the parts of ``data`` already found clean by an earlier check are not walked
    again (:mod:`interpreter.load.schemamemo`); what is reported stays the same.
    """
    root = data if root_for_positions is None else root_for_positions
    plain = to_plain(data) if memo is None else memo.to_plain(data, to_plain)
    if id(schema) not in _SOUND:
        from jsonschema import Draft202012Validator
        from jsonschema.exceptions import SchemaError

        try:
            Draft202012Validator.check_schema(schema)
        except SchemaError as bad:
            return [
                Diagnostic(
                    "S010",
                    f"invalid schema: {bad.message}",
                    json_path=json_pointer(list(bad.absolute_path)),
                )
            ]
        _SOUND[id(schema)] = schema  # the value keeps the id from being reused
    if fast_is_valid(plain, schema):
        return []  # most documents are valid: only the others need jsonschema's walk
    from jsonschema import Draft202012Validator
    from referencing.exceptions import Unresolvable

    cls = Draft202012Validator if memo is None else memo_validator(Draft202012Validator)
    validator = cls(
        schema,
        registry=_registry(str(schemas_dir())),
        format_checker=Draft202012Validator.FORMAT_CHECKER,
    )
    converter = _Converter(root if (is_map(root) or is_seq(root)) else None, prefix)
    sink = DiagnosticSink()
    token = active().set(memo)
    try:
        for err in validator.iter_errors(plain):
            sink.extend(converter.convert(err))
    except Unresolvable as unresolvable:
        sink.error("S010", f"schema reference cannot be resolved: {unresolvable}")
    finally:
        active().reset(token)
    return sink.sorted()


def check_or_raise(data: Node, schema: dict[str, Any], root_for_positions: Node = None) -> None:
    """Raise :class:`RulesError` carrying every violation (the pipeline's usual entry point)."""
    diagnostics = check(data, schema, root_for_positions)
    if any(d.severity == "error" for d in diagnostics):
        raise RulesError(diagnostics)
