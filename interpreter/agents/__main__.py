"""Print the sizes of the agent spaces of a configuration (docs/agents.md quotes them).

    python -m interpreter.agents my-game -p 3 --with my-expansion,my-variant
    my-game, 3 players, with my-expansion,my-variant: 722 actions, 895 features

The spaces do not depend on the order the overlays are given in (the line lists them sorted).
"""

from __future__ import annotations

import argparse
import sys

from interpreter.diagnostics.errors import RulebookError


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m interpreter.agents", description="the sizes of the agent spaces"
    )
    ap.add_argument("game", help="a ruleset name under rulesets/ or a ruleset path")
    ap.add_argument("-p", "--players", type=int, required=True)
    ap.add_argument("--with", dest="overlays", action="append", default=[], metavar="OVERLAYS")
    a = ap.parse_args(argv)
    overlays = tuple(x for part in a.overlays for x in part.split(",") if x)
    from interpreter.agents.spaces import spaces_for

    try:
        spaces = spaces_for(a.game, a.players, overlays, ())
    except RulebookError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    extra = f", with {','.join(sorted(overlays))}" if overlays else ""
    print(
        f"{a.game}, {a.players} players{extra}: {spaces.actions.size} actions, "
        f"{spaces.observations.size} features"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
