"""Hostile rule files the loader and the server must refuse cheaply."""

from __future__ import annotations


def alias_bomb(text: int = 20_000, uses: int = 2_000) -> str:
    """An overlay whose one long description (``text`` characters) is aliased ``uses`` times
    in its patch: a small file whose plain-data copy would be ``text * uses`` characters."""
    return "\n".join(
        [
            "overlay: bomb",
            "extends: puerto-rico",
            "title: Bomb",
            "description: &s " + "x" * text,
            "patch:",
            "  tables/zz: [" + ",".join(["*s"] * uses) + "]",
            "",
        ]
    )
