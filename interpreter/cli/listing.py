"""``rulebook list``: the games the catalog knows (player range, overlays, options) and the bots.

Everything shown comes from the catalog (the rulesets' own metadata) and the bot registry, so
a new ruleset or bot appears here without touching the command line.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

import interpreter.cli as cli
from interpreter.bots import BOTS, bot_names
from interpreter.cli import Command
from interpreter.cli.logfmt import format_value
from interpreter.load.catalog import OptionInfo

__all__ = ["COMMAND", "catalog_data", "run"]


def catalog_data() -> dict[str, Any]:
    """Games and bots as plain JSON data (what ``list --json`` prints)."""
    games = []
    for info in sorted(cli.list_games(), key=lambda g: g.name):
        games.append(
            {
                "name": info.name,
                "title": info.title,
                "path": str(info.path),
                "min_players": info.min_players,
                "max_players": info.max_players,
                "overlays": [
                    {
                        "name": o.name,
                        "title": o.title,
                        "path": str(o.path),
                        "options": [_option(x) for x in o.options],
                    }
                    for o in info.overlays
                ],
                "options": [_option(o) for o in info.options],
                "fault": info.fault,
            }
        )
    bots = [
        {
            "name": name,
            "doc": BOTS[name].doc,
            "params": {
                key: {"type": p.kind.__name__, "default": p.default, "doc": p.doc}
                for key, p in BOTS[name].params.items()
            },
        }
        for name in bot_names()
    ]
    return {"games": games, "bots": bots}


def _option(o: OptionInfo) -> dict[str, Any]:
    return {
        "name": o.name,
        "default": o.default,
        "choices": None if o.choices is None else list(o.choices),
        "doc": o.doc,
    }


def _option_lines(option: dict[str, Any], indent: str) -> list[str]:
    text = f"{indent}{option['name']}={format_value(option['default'])}"
    if option["choices"]:
        text += "  [" + ", ".join(format_value(c) for c in option["choices"]) + "]"
    lines = [text]
    if option["doc"]:
        lines.append(f"{indent}    {option['doc']}")
    return lines


def format_catalog(data: dict[str, Any]) -> str:
    """The readable listing."""
    lines = ["Games:"]
    if not data["games"]:
        lines.append("  (none found)")
    for game in data["games"]:
        if game["fault"]:
            lines.append(f"  {game['name']}  (cannot be listed: {game['fault']})")
            continue
        low, high = game["min_players"], game["max_players"]
        span = f"{low} players" if low == high else f"{low}-{high} players"
        lines.append(f"  {game['name']}  {game['title']} ({span})")
        if game["overlays"]:
            lines.append("    overlays (--with):")
            width = max(len(o["name"]) for o in game["overlays"])
            for overlay in game["overlays"]:
                lines.append(f"      {overlay['name']:<{width}}  {overlay['title']}")
                if overlay.get("options"):
                    lines.append("        adds options (with it, --option NAME=VALUE):")
                    for option in overlay["options"]:
                        lines.extend(_option_lines(option, "          "))
        if game["options"]:
            lines.append("    options (--option NAME=VALUE):")
            for option in game["options"]:
                lines.extend(_option_lines(option, "      "))
    lines.append("Bots (--bots NAME or NAME:KEY=VALUE[:KEY=VALUE...]):")
    width = max((len(b["name"]) for b in data["bots"]), default=0)
    for bot in data["bots"]:
        lines.append(f"  {bot['name']:<{width}}  {bot['doc']}")
        for key, param in bot.get("params", {}).items():
            lines.append(f"  {'':<{width}}    {key}={param['type']}  {param['doc']}")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    """Entry point of ``rulebook list``."""
    data = catalog_data()
    if args.json:
        print(json.dumps(data, ensure_ascii=False, default=str))
    else:
        print(format_catalog(data))
    sys.stdout.flush()
    return 0


def configure(parser: argparse.ArgumentParser) -> None:
    """Declare the arguments of ``rulebook list``."""
    parser.add_argument("--json", action="store_true", help="print one JSON object")


COMMAND = Command(
    name="list",
    help="list games (players, overlays, options) and bots",
    configure=configure,
    run=run,
)
