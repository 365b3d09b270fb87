"""``rulebook serve``: start the web table (``interpreter/serve``) on uvicorn."""

from __future__ import annotations

import argparse
import sys

from interpreter.cli import Command

__all__ = ["COMMAND", "run"]


def run(args: argparse.Namespace) -> int:
    """Entry point of ``rulebook serve``: runs until interrupted."""
    from interpreter.serve.app import create_app
    from interpreter.serve.quotas import limits_from
    from interpreter.serve.rule_workers import caps_from
    from interpreter.serve.store import default_db_path
    from interpreter.serve.transport import run_server

    db = args.db or str(default_db_path())
    # opened first: a database another server holds is refused before anything is announced
    app = create_app(db, limits_from(args), max(args.workers, 0), caps_from(args))
    print(f"rulebook: tables are kept in {db}", file=sys.stderr)
    print(f"rulebook: open http://{args.host}:{args.port}/ in a browser", file=sys.stderr)
    run_server(app, args.host, args.port, args.log_level, args.forwarded_allow_ips)
    return 0


def configure(parser: argparse.ArgumentParser) -> None:
    """Declare the arguments of ``rulebook serve``."""
    from interpreter.serve.quotas import add_limit_flags
    from interpreter.serve.rule_workers import add_worker_flags

    parser.add_argument(
        "--host", default="127.0.0.1", help="address to listen on (default: %(default)s)"
    )
    parser.add_argument("--port", type=int, default=8000, help="port (default: %(default)s)")
    parser.add_argument(
        "--db",
        metavar="FILE",
        help="the SQLite database of tables (default: rulebook/tables.sqlite3 in the user's "
        "data folder, $XDG_DATA_HOME or ~/.local/share)",
    )
    parser.add_argument(
        "--log-level",
        default="warning",
        choices=["critical", "error", "warning", "info", "debug"],
        help="server log detail, all of it on stderr (default: %(default)s); 'info' logs each "
        "request, its seat and creator tokens written as token=REDACTED",
    )
    parser.add_argument(
        "--forwarded-allow-ips",
        metavar="IPS",
        default="127.0.0.1",
        help="the reverse proxies (comma-separated addresses, or '*') whose X-Forwarded-For "
        "and X-Forwarded-Proto headers are believed, so that quotas count each visitor's "
        "address, not the proxy's (default: %(default)s)",
    )
    add_limit_flags(parser)  # --max-tables, --max-uploads, --idle-minutes
    add_worker_flags(parser)  # --workers, --move-seconds, --max-decisions, --max-rounds


COMMAND = Command(
    name="serve",
    help="a web table: play any ruleset in the browser with friends and bots",
    description="Serve the web table: start games (any game, expansion or house rule), share a "
    "link per seat, watch bots, replay saves. Tables are kept in a SQLite database and survive "
    "restarts. Example: rulebook serve --port 8000",
    configure=configure,
    run=run,
)
