"""Which files an overlay composes with: its base ruleset and the overlays it extends.

An overlay's ``extends`` names ids (one, or a list): a ruleset id, or an earlier overlay's id,
whose own ``extends`` lead on down to a base. :class:`OverlayFinder` turns an overlay file into
its :class:`Stack`, the base file and every overlay file to compose, in order, ending with the
overlay itself (``extends: an-expansion`` gives the base, ``an-expansion``, then the overlay).

An id is looked for, in this order of preference, among the files given (those named on a
command line), beside the file that names it, beside the game's base, and among the installed
games (:func:`interpreter.load.catalog.game_dirs`). Two games may both have an overlay of one
id (each game its own expansion of one name): an id is resolved *within the game being
extended*, the game a ruleset id of the same ``extends`` names (``[base-id, overlay-id]``),
else the only game whose overlays have it, else the game of the folder the overlay sits in,
else the one game among the files given. When none of these decides, it is an error naming
every candidate and the ``extends`` that would choose (O004), never a silent pick.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from interpreter.diagnostics.errors import Diagnostic, RulebookError, RulesError
from interpreter.diagnostics.suggest import hint_for
from interpreter.load import catalog
from interpreter.load.locate import is_map, is_seq, json_pointer, position_of
from interpreter.load.node import Node

__all__ = ["OverlayFinder", "RuleFile", "Stack"]

_RULESET_LINE = re.compile(r"^ruleset:[ \t]*['\"]?([A-Za-z0-9_-]+)['\"]?[ \t]*(#.*)?$", re.M)
_OVERLAY_LINE = re.compile(r"^overlay:", re.M)


@dataclass(frozen=True)
class RuleFile:
    """A base ruleset or an overlay, by what it declares."""

    path: str
    kind: str  # "ruleset" or "overlay"
    ident: str
    extends: tuple[str, ...] = ()  # an overlay's targets, as written
    data: Node = None  # an overlay's parsed document data (positions for messages)


@dataclass(frozen=True)
class Stack:
    """What an overlay composes with: its base file and the overlay files, in compose order,
    ending with the overlay itself."""

    base: str
    overlays: tuple[str, ...]


class OverlayFinder:
    """Resolves overlays' ``extends`` (see the module); files are read once per finder."""

    def __init__(self, given: Iterable[str | os.PathLike[str]] = ()) -> None:
        self._files: dict[str, RuleFile | None] = {}
        self._folders: dict[str, list[RuleFile]] = {}
        self._installed: list[RuleFile] | None = None
        self._given = [f for f in (self.read(str(p)) for p in given) if f is not None]
        self._games: dict[str, str | None] = {}

    # -- reading ------------------------------------------------------------------------
    def read(self, path: str) -> RuleFile | None:
        """The file as a ruleset or an overlay (None: neither, or it cannot be read)."""
        key = os.path.realpath(path)
        if key not in self._files:
            self._files[key] = _read(path)
        return self._files[key]

    def _folder(self, folder: str) -> list[RuleFile]:
        key = os.path.realpath(folder)
        if key not in self._folders:
            found = []
            for f in sorted(Path(folder).glob("*.y*ml")):
                rule = self.read(str(f))
                if rule is not None:
                    found.append(rule)
            self._folders[key] = found
        return self._folders[key]

    def _installed_files(self) -> list[RuleFile]:
        if self._installed is None:
            self._installed = [
                f for d in catalog.game_dirs().values() for f in self._folder(str(d))
            ]
        return self._installed

    def _places(self, near: str, game: str | None) -> list[RuleFile]:
        """Every known file in order of preference for a file at `near` of game `game`."""
        out = [*self._given, *self._folder(os.path.dirname(near) or ".")]
        if game is not None:
            out += self._folder(os.path.dirname(game) or ".")
        return out + self._installed_files()

    # -- resolving ----------------------------------------------------------------------
    def stack(self, overlay: str) -> Stack:
        """The base and the overlays `overlay` composes with; raises :class:`RulesError`
        (O004, at its ``extends``) when an id is unknown, ambiguous or leads round."""
        me = self.read(overlay)
        if me is None or me.kind != "overlay":
            raise RulebookError(f"{overlay} is not an overlay")
        game = self.game_of(me)
        chain = self._chain(me, game, ())
        return Stack(game, (*chain, me.path))

    def game_of(self, me: RuleFile) -> str:
        """The base file of the game `me` builds on (see the module)."""
        key = os.path.realpath(me.path)
        if key in self._games:
            found = self._games[key]
            if found is None:  # met again while being worked out
                raise _error(me, 0, f"'extends: {_shown_extends(me)}' forms a cycle")
            return found
        self._games[key] = None
        try:
            found = self._game_of(me)
        except RulesError:
            del self._games[key]
            raise
        self._games[key] = found
        return found

    def _game_of(self, me: RuleFile) -> str:
        places = self._places(me.path, None)
        for target in me.extends:
            base = _first(places, "ruleset", target)
            if base is not None:
                return base.path
        games: dict[str, list[RuleFile]] = {}  # base (real path) -> the candidates leading there
        paths: dict[str, str] = {}
        for i, target in enumerate(me.extends):
            found = _all(places, "overlay", target)
            if not found:
                raise self._unknown(me, i, places)
            for candidate in found:
                if os.path.realpath(candidate.path) == os.path.realpath(me.path):
                    continue
                try:
                    game = self.game_of(candidate)
                except RulesError:
                    continue  # a candidate that leads nowhere is its own file's error
                games.setdefault(os.path.realpath(game), []).append(candidate)
                paths.setdefault(os.path.realpath(game), game)
        if not games:
            raise _error(me, 0, f"'extends: {_shown_extends(me)}' does not lead to a ruleset")
        if len(games) == 1:
            return next(iter(paths.values()))
        return paths[self._choose(me, games)]

    def _choose(self, me: RuleFile, games: dict[str, list[RuleFile]]) -> str:
        """Among several games whose overlays have the ids `me` extends: the game of the folder
        `me` sits in, else the one game among the files given, else an error naming them."""
        folder = os.path.realpath(os.path.dirname(me.path) or ".")
        here = [g for g in games if os.path.dirname(g) == folder]
        if not here:
            here = [g for g, cands in games.items() if any(_beside(c, folder) for c in cands)]
        if len(here) == 1:
            return here[0]
        given = {os.path.realpath(f.path) for f in self._given if f.kind == "ruleset"}
        named = [g for g in games if g in given]
        if len(named) == 1:
            return named[0]
        lines = []
        for g, cands in games.items():
            base = self.read(g)
            gid = base.ident if base is not None else Path(g).parent.name
            lines.append(f"{_shown(cands[0].path)} (of {gid})")
        target = next(t for t in me.extends if t in {c.ident for c in games[next(iter(games))]})
        choices = []
        for g in games:
            base = self.read(g)
            if base is not None:
                choices.append(f"'extends: [{base.ident}, {target}]'")
        raise _error(
            me,
            0,
            f"'extends: {_shown_extends(me)}' is ambiguous: more than one game has an overlay "
            f"'{target}': {', '.join(lines)}",
            hint=f"name the game too ({' or '.join(choices)}), or name the game's ruleset on "
            "the command line beside this file",
        )

    def _chain(self, me: RuleFile, game: str, seen: Sequence[str]) -> list[str]:
        """The overlays `me` extends (through theirs), in compose order, within `game`."""
        key = os.path.realpath(me.path)
        if key in seen:
            raise _error(me, 0, f"'extends: {_shown_extends(me)}' forms a cycle")
        base = self.read(game)
        places = self._places(me.path, game)
        out: list[str] = []
        for i, target in enumerate(me.extends):
            if base is not None and target == base.ident:
                continue
            candidate = None
            for c in _all(places, "overlay", target):
                if os.path.realpath(c.path) == key:
                    continue
                try:
                    same = os.path.realpath(self.game_of(c)) == os.path.realpath(game)
                except RulesError:
                    continue
                if same:
                    candidate = c
                    break
            if candidate is None:
                raise self._unknown(me, i, places, game)
            for path in [*self._chain(candidate, game, (*seen, key)), candidate.path]:
                if all(os.path.realpath(path) != os.path.realpath(p) for p in out):
                    out.append(path)
        return out

    def _unknown(
        self, me: RuleFile, i: int, places: Sequence[RuleFile], game: str | None = None
    ) -> RulesError:
        target = me.extends[i]
        known = sorted({f.ident for f in places} - {me.ident})
        where = ""
        if game is not None:
            base = self.read(game)
            where = f" of {base.ident}" if base is not None else ""
        return _error(
            me,
            i,
            f"'extends: {target}' is not a known ruleset or overlay{where}",
            hint=hint_for(target, known),
        )


def _read(path: str) -> RuleFile | None:
    try:
        text = Path(path).read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError):
        return None
    found = _RULESET_LINE.search(text)
    if found is not None and not _OVERLAY_LINE.search(text):
        return RuleFile(path, "ruleset", found.group(1))
    from interpreter.load.yamlload import load_yaml_text

    try:
        data = load_yaml_text(text, path).tree
    except RulebookError:
        return None
    if not is_map(data):
        return None
    ident = data.get("overlay")
    if isinstance(ident, str) or ("extends" in data and "ruleset" not in data):
        # an overlay that lost its id still composes (the composer says what it lacks)
        target = data.get("extends")
        targets = list(target) if is_seq(target) else [target]
        extends = tuple(t for t in targets if isinstance(t, str) and t)
        return RuleFile(path, "overlay", ident if isinstance(ident, str) else "", extends, data)
    ruleset = data.get("ruleset")
    if isinstance(ruleset, str):
        return RuleFile(path, "ruleset", ruleset)
    return None


def _first(places: Sequence[RuleFile], kind: str, ident: str) -> RuleFile | None:
    return next((f for f in places if f.kind == kind and f.ident == ident), None)


def _all(places: Sequence[RuleFile], kind: str, ident: str) -> list[RuleFile]:
    """Every file of that kind and id, each once (by real path), in order of preference."""
    out: dict[str, RuleFile] = {}
    for f in places:
        if f.kind == kind and f.ident == ident:
            out.setdefault(os.path.realpath(f.path), f)
    return list(out.values())


def _beside(f: RuleFile, folder: str) -> bool:
    return os.path.dirname(os.path.realpath(f.path)) == folder


def _shown_extends(me: RuleFile) -> str:
    if len(me.extends) < 2:
        return "".join(me.extends)
    return f"[{', '.join(me.extends)}]"


def _shown(path: str) -> str:
    rel = os.path.relpath(path)
    return path if rel.startswith("..") else rel


def _error(me: RuleFile, i: int, message: str, hint: str | None = None) -> RulesError:
    """O004 at the ``extends`` of `me` (its item `i` when it is a list)."""
    data = me.data
    target = data.get("extends") if is_map(data) else None
    if is_seq(target):
        pos, pointer = position_of(target, i), json_pointer(["extends", i])
    elif is_map(data) and "extends" in data:
        pos, pointer = position_of(data, "extends"), json_pointer(["extends"])
    else:
        pos, pointer = (me.path, None, None), ""
    _, line, col = pos
    return RulesError([Diagnostic("O004", message, me.path, line, col, pointer, hint=hint)])
