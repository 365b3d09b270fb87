"""The ASGI application of ``rulebook serve``: pages, JSON API, websockets, static files.

``create_app(db_path)`` opens (or creates) the SQLite database of tables, held by this server
alone (a second server on the same file refuses to start); bot-only tables that were still
playing when the server stopped start again where their log ends. ``limits`` bounds what one
client may cost (``limits.py``): quotas on new tables and uploads, how long an unwatched table
stays in memory, how long a websocket may take to read.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.routing import Mount
from starlette.staticfiles import StaticFiles

from interpreter.diagnostics.suggest import echo
from interpreter.engine.savefile import SaveGame
from interpreter.serve.answers_api import answer_routes
from interpreter.serve.api import api_routes, broadcast
from interpreter.serve.caps import Caps
from interpreter.serve.game_menu import games_listing_async
from interpreter.serve.house_rules import store_overlay, store_overlay_async
from interpreter.serve.naming import name_routes
from interpreter.serve.offloop import WorkerHub
from interpreter.serve.pages import page_routes
from interpreter.serve.quotas import Limits, QuotaMiddleware, SlidingWindow
from interpreter.serve.replay_api import replay_routes
from interpreter.serve.replaying import ReplayCache
from interpreter.serve.rule_workers import WorkerPool
from interpreter.serve.stops import stopped_ids
from interpreter.serve.store import TableStore, default_db_path
from interpreter.serve.table_opener import TableOpener
from interpreter.serve.tables import Hub, ServeError, Table
from interpreter.serve.turns import retrieved
from interpreter.serve.undo_api import undo_routes
from interpreter.serve.wire import ReplayStep

__all__ = ["Replays", "Uploads", "Watchers", "create_app"]

STATIC = Path(__file__).parent / "static"
UPLOAD_PREFIX = "upload:"
MAX_DIGEST = 64  # characters of an upload's name (its digest): a longer one is none of ours


class Uploads:
    """Uploaded overlays kept beside the database; a table names one as ``upload:DIGEST``."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def add(self, name: str, data: bytes) -> str:
        path = Path(store_overlay(self.folder, name, data))
        return UPLOAD_PREFIX + path.stem

    async def add_async(self, name: str, data: bytes) -> str:
        """:meth:`add` while the event loop serves every other request (the check is waited
        for in a thread)."""
        path = Path(await store_overlay_async(self.folder, name, data))
        return UPLOAD_PREFIX + path.stem

    def resolve(self, overlay: str) -> str:
        """The path of an uploaded overlay, or a catalog id as it is (never another path)."""
        if overlay.startswith(UPLOAD_PREFIX):
            digest = overlay[len(UPLOAD_PREFIX) :]
            path = self.folder / f"{digest}.yaml"
            if not (digest.isalnum() and len(digest) <= MAX_DIGEST and path.is_file()):
                raise ServeError(f"no uploaded overlay {echo(overlay)} here", 404)
            return str(path)
        if "/" in overlay or "\\" in overlay or overlay.endswith((".yaml", ".yml")):
            raise ServeError(
                f"{echo(overlay)}: 'overlays' takes overlay ids; upload a file to use your own"
            )
        return overlay

    def saved(self, overlay: str) -> str:
        """An overlay as a save names it: a catalog id, or a file uploaded here (a replayed save
        makes the server read no other file of its machine)."""
        if overlay.startswith(UPLOAD_PREFIX):
            return self.resolve(overlay)
        path = Path(overlay)
        if path.suffix in (".yaml", ".yml") or "/" in overlay or "\\" in overlay:
            if path.resolve().parent != self.folder.resolve() or not path.is_file():
                raise ServeError(
                    f"the save uses an overlay file this server does not have: {echo(path.name)}"
                )
            return str(path)
        return overlay


class Watchers:
    """One task per bot-only table, playing its bots at the table's speed (moves/second)."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.tasks: dict[str, asyncio.Task[None]] = {}
        self.wakers: dict[str, asyncio.Event] = {}

    def start(self, table: Table) -> None:
        if table.id in self.tasks or table.state.is_over:
            return
        self.wakers[table.id] = asyncio.Event()
        self.tasks[table.id] = asyncio.create_task(self._run(table))

    def wake(self, table: Table) -> None:
        """The speed changed: stop waiting out the old delay."""
        event = self.wakers.get(table.id)
        if event is not None:
            event.set()

    async def _run(self, table: Table) -> None:
        try:
            while await self.hub.bot_move_async(table):
                broadcast(table)
                event = self.wakers[table.id]
                event.clear()
                delay = 1.0 / table.speed if table.speed > 0 else 0.0
                with contextlib.suppress(asyncio.TimeoutError):
                    await asyncio.wait_for(event.wait(), timeout=delay)
            if table.error is not None:  # a bot or a rule failed: everybody watching sees why
                broadcast(table)
        finally:
            self.tasks.pop(table.id, None)
            self.wakers.pop(table.id, None)

    async def cancel(self, table: Table) -> None:
        """Stop one table's task (the table is being deleted)."""
        task = self.tasks.get(table.id)
        if task is not None and task is not asyncio.current_task():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    async def stop(self) -> None:
        for task in list(self.tasks.values()):
            task.cancel()
        for task in list(self.tasks.values()):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task


class Replays:
    """Any save file, shown as everybody saw it after a chosen number of decisions."""

    def __init__(self, hub: Hub, uploads: Uploads) -> None:
        self.hub = hub
        self.uploads = uploads
        self.cache = ReplayCache()  # the server's own (--workers 0); a worker keeps its own

    def message(
        self, save: SaveGame, step: int | None, key: str = "", most: int | None = None
    ) -> tuple[ReplayStep, int]:
        """The table as a spectator saw it after ``step`` decisions (None: at the end), and
        the decisions played again for it (from the positions kept by ``key``; NotCached
        past ``most``)."""
        overlays = [self.uploads.saved(overlay) for overlay in save.overlays]
        game, pres = self.hub.compile(save.game, save.players, overlays, save.options)
        return self.cache.message(key, game, pres, save, step, most)

    async def message_async(
        self, save: SaveGame, step: int | None, key: str = "", most: int | None = None
    ) -> tuple[ReplayStep, int]:
        """:meth:`message`, in a worker process where the server has them (off the event
        loop, within the CPU budget of one move per decision replayed)."""
        hub = self.hub
        if not isinstance(hub, WorkerHub):
            return self.message(save, step, key, most)
        overlays = [self.uploads.saved(overlay) for overlay in save.overlays]
        return await hub.replay(save, overlays, step, key, most)


async def evict_idle_tables(hub: Hub, watchers: Watchers, idle_s: float) -> None:
    """Forever: let unwatched tables idle for ``idle_s`` leave memory (the bot-only tables the
    server plays stay); each comes back from the database when asked for."""
    while True:
        await asyncio.sleep(max(min(idle_s / 4, 60.0), 0.05))
        hub.evict_idle(idle_s, keep=set(watchers.tasks))


def create_app(
    db_path: str | Path | None = None,
    limits: Limits | None = None,
    workers: int = 0,
    caps: Caps | None = None,
) -> Starlette:
    """The server's application over the database at ``db_path`` (default: the data folder),
    with ``limits`` (default: :class:`Limits`'s); the tables' rules run in ``workers``
    processes (0: in this one, without a CPU budget), within ``caps``. Raises DatabaseInUse
    when another server holds that database."""
    limits = limits or Limits()
    caps = caps or Caps()
    path = Path(db_path) if db_path else default_db_path()
    store = TableStore(path)
    pool = WorkerPool(workers, caps) if workers > 0 else None
    hub = Hub(store, caps) if pool is None else WorkerHub(store, pool)
    watchers = Watchers(hub)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        # the games listing read from the rule files in a thread while the server starts
        listing = asyncio.ensure_future(games_listing_async())
        listing.add_done_callback(retrieved)
        halted = stopped_ids(store)  # stopped by the server's budget: not played on
        for table_id in store.unfinished_ids():
            if table_id in halted:
                continue
            try:
                table = await hub.get_async(table_id)
            except ServeError:
                continue  # a table whose rules are gone stays on disk, untouched
            if table.bot_only:
                watchers.start(table)
            else:
                await hub.run_bots_async(table)
                broadcast(table, hub)  # nobody watches yet: an answer waiting there goes on
        janitor = asyncio.create_task(evict_idle_tables(hub, watchers, limits.idle_table_s))
        yield
        janitor.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await janitor
        await watchers.stop()
        store.close()
        if pool is not None:
            pool.stop()

    app = Starlette(
        routes=[
            *api_routes(),
            *answer_routes(),
            *undo_routes(),
            *replay_routes(),
            *name_routes(),
            *page_routes(),
            Mount("/static", StaticFiles(directory=STATIC)),
        ],
        middleware=[
            Middleware(QuotaMiddleware, limits=limits),
            *([] if pool is None else [Middleware(TableOpener, hub=hub)]),
        ],
        lifespan=lifespan,
    )
    app.state.limits = limits
    from interpreter.serve.faults import LastResort  # a fault: a 500 and one log line
    from interpreter.serve.headers import SecurityHeaders  # every answer, refusals too

    app.add_middleware(LastResort)
    app.add_middleware(SecurityHeaders)  # outermost (add_middleware puts it first)
    app.state.hub = hub
    if isinstance(hub, WorkerHub):
        hub.on_stop = broadcast  # a table that stops tells its sockets why
    app.state.watchers = watchers
    app.state.uploads = Uploads(path.parent / "overlays")
    app.state.replays = Replays(hub, app.state.uploads)
    # a replay that plays decisions again counts like a new table (per client address)
    app.state.replay_quota = SlidingWindow(limits.tables_per_window, limits.window_s)
    return app
