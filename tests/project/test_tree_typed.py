"""The rule tree is typed through load/ and compose/: a value there is a ``Node`` (a map, a
list or a scalar, interpreter/load/node.py), never ``Any``, except the few places named below,
each with the reason its value truly is any (or must stay untyped for readers outside).

Every use of ``typing.Any`` in those folders is found by name, through any alias a module
gives it (``from typing import Any as X``, ``X = Any``, ``X: TypeAlias = dict[str, Any]``), so
renaming it does not hide one. The mypy test below checks that ``is_map`` / ``is_seq``
narrow a ``Node`` to its map or list, and an untyped value to ``Mapping[Any, Any]`` /
``Sequence[Any]``.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FOLDERS = ("load", "compose")

_SCHEMA = "a JSON Schema document or fragment: JSON read from schemas/, of any shape"
_JSONSCHEMA = "jsonschema's validator class and its descend() (jsonschema ships no types)"
_PLAIN = (
    "JSON data whose shape the schema, not the type checker, knows (to_plain's result): "
    "readers outside load/ index it by that shape"
)
_OUTSIDE = (
    "the tree handed to readers outside load/ and compose/ (check/, model/) that index it "
    "unchecked; inside, the typed view is Document.tree / a Node"
)
_RUAMEL = "ruamel's parser and resolver: ruamel types them Any, and fastyaml swaps the parser"

# "folder/module.py:qualified.name:parameter" (or :return, :annotation, :expression) -> why
ALLOWED = {
    "load/fastschema.py:_VALIDATORS:annotation": _SCHEMA,
    "load/fastschema.py:fast_is_valid:schema": _SCHEMA,
    "load/fastschema.py:_validator:schema": _SCHEMA,
    "load/fastschema.py:_validator.namespace:annotation": "the namespace exec() fills",
    "load/fastschema.py:_entry:namespace": "the namespace exec() fills",
    "load/fastyaml.py:_convert:event": "a PyYAML event (PyYAML ships no types)",
    "load/node.py:is_map:return": (
        "TypeIs[Mapping[Any, Any]]: a Node narrows to NodeMap, an untyped value to "
        "Mapping[Any, Any] (the readers outside load/ and compose/)"
    ),
    "load/node.py:is_seq:return": "the overload for an untyped value: it narrows to Sequence[Any]",
    "load/schema.py:to_plain:return": _PLAIN,
    "load/schema.py:_schema:return": _SCHEMA,
    "load/schema.py:check:schema": _SCHEMA,
    "load/schema.py:check_or_raise:schema": _SCHEMA,
    "load/schemafiles.py:_SCHEMAS:annotation": _SCHEMA,
    "load/schemafiles.py:SOUND:annotation": _SCHEMA,
    "load/schemafiles.py:load_schema:return": _SCHEMA,
    "load/schemafiles.py:_read_schema:return": _SCHEMA,
    "load/schemamemo.py:SchemaMemo.__init__.self.plain:annotation": _PLAIN,
    "load/schemamemo.py:SchemaMemo.to_plain:convert": _PLAIN,
    "load/schemamemo.py:SchemaMemo.to_plain:return": _PLAIN,
    "load/schemamemo.py:SchemaMemo.to_plain.out:annotation": _PLAIN,
    "load/schemamemo.py:memo_validator:base": _JSONSCHEMA,
    "load/schemamemo.py:memo_validator:return": _JSONSCHEMA,
    "load/schemamemo.py:memo_validator.descend:self": _JSONSCHEMA,
    "load/schemamemo.py:memo_validator.descend:instance": _JSONSCHEMA,
    "load/schemamemo.py:memo_validator.descend:schema": _JSONSCHEMA,
    "load/schemamemo.py:memo_validator.descend:path": _JSONSCHEMA,
    "load/schemamemo.py:memo_validator.descend:schema_path": _JSONSCHEMA,
    "load/schemamemo.py:memo_validator.descend:resolver": _JSONSCHEMA,
    "load/schemamemo.py:memo_validator.descend:return": _JSONSCHEMA,
    "load/yamlload.py:Document.data:annotation": _OUTSIDE,
    "load/yamlload.py:_GuardedComposer.__init__.self._parser:annotation": _RUAMEL,
    "load/yamlload.py:_GuardedComposer.__init__.self._resolver:annotation": _RUAMEL,
    "load/yamlload.py:_GuardedComposer.parser:return": _RUAMEL,
    "load/yamlload.py:_GuardedComposer.resolver:return": _RUAMEL,
    "compose/overlays.py:Composed.data:annotation": _OUTSIDE,
    "compose/rulefiles.py:load_rules_data:return": _OUTSIDE,
    "compose/rulefiles.py:_errors:schema": _SCHEMA,
}


def _any_names(tree: ast.Module) -> set[str]:
    """The names that stand for ``typing.Any`` in a module: its imports of it, and every
    module-level name bound to an expression that holds one (an alias of an alias too)."""
    names = {"Any"}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module in ("typing", "typing_extensions"):
            names |= {a.asname or a.name for a in node.names if a.name == "Any"}
    grew = True
    while grew:
        grew = False
        for node in tree.body:
            targets, value = [], None
            if isinstance(node, ast.Assign):
                targets, value = node.targets, node.value
            elif isinstance(node, ast.AnnAssign) and node.value is not None:
                targets, value = [node.target], node.value
            if value is None or not _holds(value, names):
                continue
            for target in targets:
                if isinstance(target, ast.Name) and target.id not in names:
                    names.add(target.id)
                    grew = True
    return names


def _holds(node: ast.AST, names: set[str]) -> bool:
    """Whether an expression names Any (``typing.Any`` or an alias), in quotes too."""
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name) and sub.id in names:
            return True
        if isinstance(sub, ast.Attribute) and sub.attr == "Any":
            return True
        if isinstance(sub, ast.Constant) and isinstance(sub.value, str):
            try:
                if _holds(ast.parse(sub.value, mode="eval"), names):
                    return True
            except SyntaxError:
                continue
    return False


def _uses(name: str, tree: ast.Module) -> list[str]:
    """Every place of a module that names Any: a parameter, a return, an annotated name, or
    any other expression (a ``cast``), each as ``module:qualified.name:role``."""
    names = _any_names(tree)
    found: list[str] = []

    def visit(node: ast.AST, scope: list[str]) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                where = f"{name}:{'.'.join([*scope, child.name])}"
                a = child.args
                params = [*a.posonlyargs, *a.args, *a.kwonlyargs, a.vararg, a.kwarg]
                for param in params:
                    if param is not None and param.annotation is not None:
                        if _holds(param.annotation, names):
                            found.append(f"{where}:{param.arg}")
                if child.returns is not None and _holds(child.returns, names):
                    found.append(f"{where}:return")
                for deco in child.decorator_list:
                    if _holds(deco, names):
                        found.append(f"{where}:expression")
                for default in [*a.defaults, *a.kw_defaults]:
                    if default is not None and _holds(default, names):
                        found.append(f"{where}:expression")
                for statement in child.body:
                    visit_statement(statement, [*scope, child.name])
            elif isinstance(child, ast.ClassDef):
                for base in child.bases:
                    if _holds(base, names):
                        found.append(f"{name}:{'.'.join([*scope, child.name])}:expression")
                for statement in child.body:
                    visit_statement(statement, [*scope, child.name])
            else:
                visit_statement(child, scope)

    def visit_statement(node: ast.AST, scope: list[str]) -> None:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            holder = ast.Module(body=[node], type_ignores=[])
            visit(holder, scope)
            return
        if isinstance(node, ast.ImportFrom | ast.Import):
            return
        if isinstance(node, ast.AnnAssign):
            target = ast.unparse(node.target)
            if _holds(node.annotation, names):
                found.append(f"{name}:{'.'.join([*scope, target])}:annotation")
            if node.value is not None and _holds(node.value, names):
                found.append(f"{name}:{'.'.join([*scope, target])}:expression")
            return
        if isinstance(node, ast.Assign | ast.Expr | ast.Return):
            if _holds(node, names):
                label = ".".join(scope) or "<module>"
                found.append(f"{name}:{label}:expression")
            return
        visit(node, scope)

    visit(tree, [])
    return found


def _all_uses(root: Path) -> list[str]:
    found: list[str] = []
    for folder in FOLDERS:
        for path in sorted((root / "interpreter" / folder).glob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            found += _uses(f"{folder}/{path.name}", tree)
    return found


def test_the_tree_is_typed_in_load_and_compose() -> None:
    found = _all_uses(ROOT)
    loose = sorted(set(found) - set(ALLOWED))
    assert not loose, (
        "a value typed Any in load/ or compose/: type the rule tree as a Node (NodeMap, "
        "NodeSeq, a scalar: interpreter/load/node.py), a position helper's argument as object; "
        "or name it in ALLOWED with the reason it truly is any:\n" + "\n".join(loose)
    )
    stale = sorted(set(ALLOWED) - set(found))
    assert not stale, "ALLOWED names places that use no Any:\n" + "\n".join(stale)


def test_an_alias_of_any_is_still_any(tmp_path: Path) -> None:
    module = tmp_path / "interpreter" / "load" / "sample.py"
    module.parent.mkdir(parents=True)
    (tmp_path / "interpreter" / "compose").mkdir()
    module.write_text(
        "from typing import Any as Anything\n"
        "import typing\n"
        "Loose = Anything\n"
        "Looser = dict[str, Loose]\n"
        "def a(x: Looser) -> None: ...\n"
        "def b(x: typing.Any) -> 'Loose': ...\n"
        "def c(x: object) -> int: return typing.cast(Loose, x)\n",
        encoding="utf-8",
    )
    assert sorted(_all_uses(tmp_path)) == [
        "load/sample.py:<module>:expression",
        "load/sample.py:<module>:expression",
        "load/sample.py:a:x",
        "load/sample.py:b:return",
        "load/sample.py:b:x",
        "load/sample.py:c:expression",
    ]


_NARROWING = """
from typing import Any
from interpreter.load.node import Node, is_map, is_seq

def f(node: Node, loose: Any, thing: object) -> None:
    if is_map(node):
        reveal_type(node)
    else:
        reveal_type(node)
    if is_seq(node):
        reveal_type(node)
    if is_map(loose):
        reveal_type(loose)
    if is_seq(loose):
        reveal_type(loose)
    if is_seq(thing):
        reveal_type(thing)
"""


def test_is_map_and_is_seq_narrow_a_node(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    api = pytest.importorskip("mypy.api")
    monkeypatch.chdir(ROOT)  # where mypy finds the interpreter package
    sample = tmp_path / "narrowing.py"
    sample.write_text(_NARROWING, encoding="utf-8")
    out, err, _ = api.run(
        [
            "--no-error-summary",
            "--follow-imports=silent",
            "--cache-dir",
            str(tmp_path / "cache"),
            "--python-version",
            "3.11",
            str(sample),
        ]
    )
    revealed = [
        line.split("Revealed type is ", 1)[1] for line in out.splitlines() if "Revealed" in line
    ]
    assert len(revealed) == 6, out + err
    node_map, not_map, node_seq, loose_map, loose_seq, thing_seq = revealed
    # a map of the tree: its keys are scalars and its values nodes again
    assert node_map.startswith('"typing.Mapping[str | int | float | None, '), node_map
    # not a map: a list or a scalar, never a map
    assert not_map.startswith('"typing.Sequence[') and "Mapping" not in not_map.split("] |")[-1]
    assert not_map.endswith('| str | int | float | None"') or not_map.endswith(
        '| int | float | None"'
    ), not_map
    assert node_seq.startswith('"typing.Sequence[typing.Mapping['), node_seq
    # untyped values narrow loosely (the readers outside load/ and compose/)
    assert loose_map == '"typing.Mapping[Any, Any]"', loose_map
    assert loose_seq == '"typing.Sequence[Any]"', loose_seq
    assert thing_seq == '"typing.Sequence[Any]"', thing_seq
