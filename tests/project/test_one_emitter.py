"""Generated Python becomes a function in one place (dsl/emit/emitter.py), and what a caller knows
of a compiled text travels as typed fields, not as attributes set on the function."""

from __future__ import annotations

import ast
import functools
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "interpreter"

# the emitter itself, and the schema's fast validator: code fastjsonschema wrote, kept in the
# user's cache and run a stage below dsl/ (load/), which may not import it
ALLOWED = {"dsl/emit/emitter.py", "load/fastschema.py"}


@functools.cache
def _texts() -> dict[str, str]:
    return {
        str(path.relative_to(PACKAGE)): path.read_text(encoding="utf-8")
        for path in sorted(PACKAGE.rglob("*.py"))
    }


def _modules(*words: str) -> list[tuple[str, ast.Module]]:
    """The parsed modules whose text holds one of `words` (the others cannot match)."""
    return [
        (name, ast.parse(text))
        for name, text in _texts().items()
        if any(word in text for word in words)
    ]


def test_only_the_emitter_compiles_and_runs_source() -> None:
    found = sorted(
        f"{name}:{node.lineno} {node.func.id}()"
        for name, tree in _modules("exec(", "compile(", "eval(")
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in ("exec", "compile", "eval")
        and name not in ALLOWED
    )
    assert found == [], f"compile or run generated source through dsl/emit/emitter.py: {found}"


# what a caller knows of a compiled text: Emitted's fields (dsl/emit/emitter.py), a Constant's
# value, an Inlined flow step's lines (model/flow.py), an OwnText's public text
# (dsl/runtime/loglines.py)
KNOWN = {
    "constant",
    "parts",
    "select",
    "per_listing",
    "text_values",
    "id_order",
    "with_repeats",
    "flow_var",
    "lone",
    "inline",
    "public",
}


def test_what_a_compiled_text_is_known_by_is_typed() -> None:
    """No `fn.parts = ...` set on a function and read back with `getattr(fn, "parts")`: no
    type checker sees such an attribute, nor who sets it."""
    found = []
    for name, tree in _modules(*(f".{k} = " for k in KNOWN), *(f'"{k}"' for k in KNOWN)):
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign):
                found += [
                    f"{name}:{node.lineno} sets .{t.attr}"
                    for t in node.targets
                    if isinstance(t, ast.Attribute)
                    and t.attr in KNOWN
                    and not (isinstance(t.value, ast.Name) and t.value.id == "self")
                ]
            elif (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in ("getattr", "hasattr")
                and len(node.args) >= 2
                and isinstance(node.args[1], ast.Constant)
                and node.args[1].value in KNOWN
            ):
                found.append(f"{name}:{node.lineno} {node.func.id}(..., {node.args[1].value!r})")
    assert found == [], f"metadata hung on functions: {found}"
