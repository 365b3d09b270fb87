"""Reading a field (`obj.name`) in the effect language: a seat's field or ability, a placed
piece's field or its entry's attribute, an entry id's attribute, and a field of an id or piece
of one of several catalogs (a union type: every member must have it, of one kind). The type
checker (type_checker.py) asks `field_type` for each such read, with the ruleset's names (Env)
and their types (TypeInfo); D009 a field the value has not, D010 an attribute some entries lack.
"""

from __future__ import annotations

from lark import Tree

from interpreter.dsl.parse.unparse import Lazy, show_tree
from interpreter.dsl.resolve import ir
from interpreter.dsl.resolve.scope import Env, TypeInfo
from interpreter.dsl.resolve.type_faults import TypeFault, found_words, strip_optional, type_of
from interpreter.dsl.resolve.types import (
    ANY,
    COUNT,
    NONE,
    SEAT,
    Id,
    OneOf,
    Piece,
    Type,
    join,
    one_of,
)

__all__ = ["field_type"]


def field_type(
    env: Env, info: TypeInfo, tree: Tree, node: ir.Expr, obj: ir.Expr, name: str
) -> Type:
    """`obj.name`: a seat's field or ability, a piece's field or attribute, an entry id's
    attribute; anything else has no fields (D009)."""
    t = strip_optional(type_of(obj))
    if isinstance(t, OneOf) and not isinstance(node, ir.Ability):
        return _field_of_one_of(env, info, tree, node, obj, name, t)
    return _field_of(env, info, tree, node, obj, name, t)


def _field_of_one_of(
    env: Env, info: TypeInfo, tree: Tree, node: ir.Expr, obj: ir.Expr, name: str, t: OneOf
) -> Type:
    """`obj.name` for an id (or piece) of one of several catalogs: every one of them must
    have the field, and the types it gives must go together."""
    found: Type | None = None
    for member in t.members:
        try:
            ft = _field_of(env, info, tree, node, obj, name, member)
        except TypeFault:
            raise TypeFault(
                f"'{show_tree(tree)}': reads '{name}' of {found_words(obj)}, but "
                f"{member.universe} has no field '{name}'",
                tree.children[1],
                obj,
                None,
                "D009",
            ) from None
        found = ft if found is None else one_of(found, ft)
        if found is None:
            raise TypeFault(
                f"'{show_tree(tree)}': '{name}' is not of one kind across "
                f"{' and '.join(m.universe for m in t.members)}",
                tree.children[1],
                obj,
                None,
                "D009",
            )
    return found or ANY


def _field_of(
    env: Env, info: TypeInfo, tree: Tree, node: ir.Expr, obj: ir.Expr, name: str, t: Type
) -> Type:
    tok = tree.children[1]
    text = Lazy(tree)
    if isinstance(node, ir.Ability):
        if t in (ANY, SEAT, NONE):
            return COUNT
        raise TypeFault(
            f"'{text}': '{name}' is granted to a seat, not to {found_words(obj)}",
            tok,
            obj,
            SEAT,
            "D009",
        )
    if t == SEAT:
        if name in info.player_fields:
            return info.player_fields[name]
        raise TypeFault(f"'{text}': a seat has no field '{name}'", tok, obj, None, "D009")
    if isinstance(t, Piece | Id) and (not isinstance(t, Id) or t.universe in info.attributes):
        cat = t.catalog if isinstance(t, Piece) else t.universe
        return _entry_field(env, info, tree, obj, name, cat, piece=isinstance(t, Piece))
    if t in (ANY, NONE):
        return _any_field(info, tree, obj, name)
    raise TypeFault(
        f"'{text}': reads the field '{name}' of {found_words(obj)}, which has no fields",
        tok,
        obj,
        None,
        "D009",
    )


def _entry_field(
    env: Env, info: TypeInfo, tree: Tree, obj: ir.Expr, name: str, cat: str, piece: bool
) -> Type:
    text = Lazy(tree)
    tok = tree.children[1]
    if not cat:  # a piece of some catalog
        return _any_field(info, tree, obj, name)
    fields = info.piece_fields.get(cat, {})
    if name == "type":
        return Id(cat) if piece else _no_field(env, info, tree, obj, name, cat)
    if name in fields:
        if piece:
            return fields[name]
        raise TypeFault(
            f"'{text}': '{name}' is a field of a placed piece, and {found_words(obj)} is an id",
            tok,
            obj,
            Piece(cat),
            "D009",
        )
    attrs = info.attributes.get(cat, {})
    if name not in attrs:
        return _no_field(env, info, tree, obj, name, cat)
    info.reads.add((cat, name))
    if not isinstance(obj, ir.Const):
        info.entry_reads.add((cat, name))
    lacking = info.partial.get(cat, {}).get(name)
    if lacking and not isinstance(obj, ir.Const):
        shown = ", ".join(lacking[:3]) + (", ..." if len(lacking) > 3 else "")
        raise TypeFault(
            f"'{text}': not every entry of {cat} has '{name}' (not {shown}), and it "
            "has no default; give it one under the catalog's defaults:",
            tok,
            None,
            None,
            "D010",
        )
    return attrs[name]


def _no_field(env: Env, info: TypeInfo, tree: Tree, obj: ir.Expr, name: str, cat: str) -> Type:
    if name in info.player_fields or name in env.abilities:
        expected: Type | None = SEAT
    else:
        expected = None
    raise TypeFault(
        f"'{show_tree(tree)}': {found_words(obj)} has no field '{name}'",
        tree.children[1],
        obj,
        expected,
        "D009",
    )


def _any_field(info: TypeInfo, tree: Tree, obj: ir.Expr, name: str) -> Type:
    """A field of a value whose type is not known: the field's type if all agree."""
    info.reads.add(("", name))  # of whatever catalog the value turns out to be of
    found: list[Type] = []
    if name in info.player_fields:
        found.append(info.player_fields[name])
    for cat, fields in info.piece_fields.items():
        if name in fields:
            found.append(fields[name])
        if name == "type":
            found.append(Id(cat))
    found += [a[name] for a in info.attributes.values() if name in a]
    out: Type | None = found[0] if found else ANY
    for t in found[1:]:
        out = join(out, t) if out is not None else None
    return out or ANY
