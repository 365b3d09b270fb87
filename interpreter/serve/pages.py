"""The HTML pages: lobby, new game form, table, replay. Server-rendered, every text escaped; no
inline script (the Content-Security-Policy of headers.py runs this server's own files only): the
table and replay pages load static/table.js, which draws the server's messages, and the form
pages static/forms.js.
"""

from __future__ import annotations

from html import escape
from pathlib import Path
from typing import Any

from starlette.datastructures import UploadFile
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from interpreter.diagnostics.suggest import echo
from interpreter.serve.api import (
    create_from,
    creator_token,
    remember_table,
    remembered_tables,
    remove_table,
    start_table,
    table_summary,
)
from interpreter.serve.game_menu import BotEntry, GameEntry, Listing, games_listing_async
from interpreter.serve.house_rules import MAX_UPLOAD, UploadRejected
from interpreter.serve.randoms import TABLE_ID
from interpreter.serve.tables import HUMAN, ServeError, Table
from interpreter.table.seat_names import MAX_NAME, seat_names

__all__ = ["PRACTICE_NOTE", "page_routes"]

PRACTICE_NOTE = (
    "Practice table: its creator chose the seed, and whoever knows the seed can know every "
    "hidden card. Play here for practice only."
)


def layout(title: str, body: str, script: str = "") -> str:
    """A whole page; ``script`` names the static scripts it loads, in order ("table.js",
    "forms.js", "gesture.js table.js")."""
    js = "".join(f'<script src="/static/{escape(s)}" defer></script>' for s in script.split())
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{escape(title)} · rulebook</title>"
        '<link rel="icon" href="/favicon.svg" type="image/svg+xml">'
        f'<link rel="stylesheet" href="/static/style.css">{js}</head><body>'
        '<header><a href="/" class="brand">rulebook</a> <a href="/new">New game</a> '
        f'<a href="/replay">Replay a save</a></header><main>{body}</main></body></html>'
    )


def _owned(request: Request, table_id: str) -> Table | None:
    """The table, when this browser made it (its cookie holds the creator token)."""
    token = remembered_tables(request).get(table_id)
    if not token:
        return None
    try:
        table = request.app.state.hub.get(table_id)
        return table if table.is_creator(token) else None
    except ServeError:  # a table gone, or a cookie that holds no token of this server
        return None


def _manage_cell(table: Table) -> str:
    """The seat links and a delete button: shown to the table's creator only."""
    links = "".join(
        f'<a class="seat-link" href="{escape(s["url"])}">Player {s["seat"] + 1}</a> '
        for s in table_summary(table)["seats"]
        if "url" in s
    )
    return (
        f'<td class="manage">{links}<form method="post" action="/t/{escape(table.id)}/delete" '
        'class="delete"><button type="submit">delete</button></form></td>'
    )


async def lobby(request: Request) -> Response:
    rows = []
    for t in request.app.state.hub.store.recent():
        who = ", ".join(seat_names(t["seats"]))
        moves = t["decisions"]
        status = "finished" if t["finished"] else f"{moves} move{'' if moves == 1 else 's'} made"
        owned = _owned(request, t["id"])
        rows.append(
            f'<tr data-table="{escape(t["id"])}">'
            f'<td><a href="/t/{escape(t["id"])}">{escape(t["game"])}</a></td>'
            f"<td>{escape(who)}</td><td>{escape(status)}</td>"
            f'<td><a href="/replay?table={escape(t["id"])}">replay</a></td>'
            + (_manage_cell(owned) if owned else "<td></td>")
            + "</tr>"
        )
    table = (
        '<table class="lobby"><tr><th>game</th><th>seats</th><th>status</th><th></th>'
        "<th>yours</th></tr>" + "".join(rows) + "</table>"
        if rows
        else "<p>No tables yet.</p>"
    )
    body = (
        '<h1>Tables</h1><p><a class="button" href="/new">Start a new game</a></p>'
        f"<h2>Recent tables</h2>{table}"
    )
    return HTMLResponse(layout("Tables", body))


def new_game_form(listing: Listing, error: str = "", values: dict[str, Any] | None = None) -> str:
    """The new-game form over ``listing`` (game_menu.py), with ``error`` and the ``values``
    sent last."""
    values = values or {}
    games = listing["games"]
    chosen = values.get("game") or (games[0]["name"] if games else "")
    bots = listing["bots"]
    game_options = "".join(
        f'<option value="{escape(g["name"])}"{" selected" if g["name"] == chosen else ""}'
        f' data-min="{g["min_players"]}" data-max="{g["max_players"]}"'
        f' data-bot="{escape(g["bot"])}">{escape(g["title"])}</option>'
        for g in games
    )
    default = next((g["bot"] for g in games if g["name"] == chosen), "random")
    sections = "".join(_game_section(g, g["name"] == chosen) for g in games)
    most = max((g["max_players"] for g in games), default=4)
    seat_rows = "".join(
        _seat_row(i, bots, i < int(values.get("players", 4)), default) for i in range(most)
    )
    shown = f'<pre class="error" id="form-error">{escape(error)}</pre>' if error else ""
    return f"""
<h1>New game</h1>{shown}
<form method="post" action="/new" enctype="multipart/form-data" id="new-game">
 <label>Game <select name="game" id="game">{game_options}</select></label>
 <label>Players <input type="number" name="players" id="players" min="1" max="{most}"
   value="{escape(str(values.get("players", 4)))}"></label>
 {sections}
 <fieldset><legend>House rules (your own overlay files, checked first)</legend>
  <input type="file" name="upload" id="upload" accept=".yaml,.yml" multiple>
  <small>At most {MAX_UPLOAD // 1024} KB each.</small></fieldset>
 <fieldset><legend>Seats</legend>{seat_rows}</fieldset>
 <label>Seed <input type="text" name="seed" inputmode="numeric" pattern="[0-9]*"
   placeholder="secret (drawn by the server)"> <small>A chosen seed makes a <b>practice</b>
   table: every seat is told so, since whoever knows the seed knows every hidden card.</small>
 </label>
 <label>Bot speed (moves per second, bot-only tables)
   <input type="number" name="speed" value="2" min="0" max="100" step="any"></label>
 <button type="submit" id="start">Start the game</button>
</form>
"""


def _game_section(game: GameEntry, shown: bool) -> str:
    name = game["name"]
    overlays = "".join(
        f'<label class="check"><input type="checkbox" name="overlay:{escape(name)}" '
        f'value="{escape(o["name"])}"> {escape(o["title"])}</label>'
        for o in game["overlays"]
    )
    options = []
    for opt in game["options"] + [x for o in game["overlays"] for x in o["options"]]:
        choices = "".join(
            f"<option{' selected' if c == opt['default'] else ''}>{escape(str(c))}</option>"
            for c in opt["choices"]
        )
        # the name people read (from the doc), the whole doc on hover
        options.append(
            f'<label class="game-option" title="{escape(opt["doc"])}">'
            f"{escape(opt['label'] or opt['name'])}"
            f' <select name="option:{escape(name)}:{escape(opt["name"])}">{choices}'
            "</select></label>"
        )
    hidden = "" if shown else " hidden disabled"
    return (
        f'<fieldset data-game="{escape(name)}"{hidden}><legend>Expansions and variants</legend>'
        f'{overlays or "<p>none</p>"}<div class="options">{"".join(options)}</div></fieldset>'
    )


def _seat_row(seat: int, bots: list[BotEntry], shown: bool, bot: str) -> str:
    """One seat's select: a person or a bot, each bot by its title with its one-line
    description (shown under the select, forms.js); a game's own bot is marked with its
    game, so that the form offers it only for that game. Seat 0 is a person, every other
    seat the game's default bot."""
    kinds = [
        (HUMAN, "A person (gets a link to share)", "", None),
        *((b["name"], b["title"], b["doc"], b["game"]) for b in bots),
    ]
    default = HUMAN if seat == 0 else bot
    choices = "".join(
        f'<option value="{escape(k)}"'
        + (" selected" if k == default else "")
        + (f' data-game="{escape(g)}"' if g else "")
        + f' data-doc="{escape(doc)}">{escape(title)}</option>'
        for k, title, doc, g in kinds
    )
    hidden = "" if shown else " hidden"
    return (
        f'<div class="seat-row"{hidden}><label>Player {seat + 1} '
        f'<select name="seat{seat}">{choices}</select></label>'
        ' <small class="bot-doc"></small></div>'
    )


async def new_game_page(request: Request) -> Response:
    listing = await games_listing_async()
    return HTMLResponse(layout("New game", new_game_form(listing), "forms.js"))


async def create_game(request: Request) -> Response:
    """The form's POST: uploads validated first; on any problem the form again, with it."""
    values: dict[str, Any] = {}
    listing = await games_listing_async()
    try:
        async with request.form(max_files=8, max_fields=200, max_part_size=MAX_UPLOAD + 1) as form:
            values = {k: v for k, v in form.items() if isinstance(v, str)}
            game = str(form.get("game") or "")
            players = _int(form.get("players"), "players")
            overlays = [str(v) for v in form.getlist(f"overlay:{game}")]
            for upload in form.getlist("upload"):
                if isinstance(upload, UploadFile) and upload.filename:
                    data = await upload.read(MAX_UPLOAD + 1)
                    uploads = request.app.state.uploads
                    overlays.append(await uploads.add_async(upload.filename, data))
            prefix = f"option:{game}:"
            allowed = _option_names(listing, game, overlays)
            options = {
                k[len(prefix) :]: v
                for k, v in form.items()
                if k.startswith(prefix) and k[len(prefix) :] in allowed
            }
            seats = [str(form.get(f"seat{i}") or HUMAN) for i in range(players)]
            seed = form.get("seed")
            speed = float(str(form.get("speed") or 2))
        uploads = request.app.state.uploads
        table = await create_from(
            request.app.state.hub,
            {
                "game": game,
                "players": players,
                "seats": seats,
                "options": options,
                "seed": _int(seed, "seed") if seed else None,
                "speed": speed,
            },
            [uploads.resolve(o) for o in overlays],
        )
    except UploadRejected as exc:
        return HTMLResponse(
            layout("New game", new_game_form(listing, exc.message, values), "forms.js"), 422
        )
    except ServeError as exc:
        return HTMLResponse(
            layout("New game", new_game_form(listing, exc.message, values), "forms.js"), exc.status
        )
    except ValueError as exc:
        return HTMLResponse(
            layout("New game", new_game_form(listing, str(exc), values), "forms.js"), 400
        )
    await start_table(request.app, table)
    summary = table_summary(table)
    humans = [s for s in summary["seats"] if "url" in s]
    if not humans:
        response: Response = RedirectResponse(summary["watch"], status_code=303)
        remember_table(response, request, table)
        return response
    links = "".join(
        f'<li>Player {s["seat"] + 1}: <a class="seat-link" href="{escape(s["url"])}">'
        f'<span class="url">{escape(s["url"])}</span></a> '
        f'<button type="button" class="copy" data-url="{escape(s["url"])}">copy link</button></li>'
        for s in humans
    )
    body = (
        f"<h1>Table ready</h1>{_practice_note(table)}<p>Share one link per person (each link is "
        f'that seat\'s key; keep it to yourself):</p><ul class="links">{links}</ul>'
        f'<p>Spectators: <a href="{escape(summary["watch"])}">{escape(summary["watch"])}</a></p>'
    )
    response = HTMLResponse(layout("Table ready", body, "forms.js"), 201)
    remember_table(response, request, table)
    return response


async def delete_page(request: Request) -> Response:
    """The lobby's delete button: the table goes if this browser made it; else a 403 page."""
    try:
        table = request.app.state.hub.get(request.path_params["table_id"])
        await remove_table(request.app, table, creator_token(request, table))
    except ServeError as exc:
        return HTMLResponse(
            layout("Table", f'<p class="error">{escape(exc.message)}</p>'), exc.status
        )
    return RedirectResponse("/", status_code=303)


def _option_names(listing: Listing, game: str, overlays: list[str]) -> set[str]:
    """The options the form may set: the game's own and those of the chosen expansions (the
    form lists every expansion's options; an unchosen expansion's are not the game's)."""
    for info in listing["games"]:
        if info["name"] == game:
            names = {o["name"] for o in info["options"]}
            for overlay in info["overlays"]:
                if overlay["name"] in overlays:
                    names.update(o["name"] for o in overlay["options"])
            return names
    return set()


def _int(value: object, name: str) -> int:
    try:
        return int(str(value))
    except ValueError:
        raise ServeError(f"{name} must be a whole number, not {echo(value)}") from None


async def table_page(request: Request) -> Response:
    table_id = request.path_params["table_id"]
    try:
        table = request.app.state.hub.get(table_id)
        seat = table.seat_of(request.query_params.get("token"))
    except ServeError as exc:
        return HTMLResponse(
            layout("Table", f'<p class="error">{escape(exc.message)}</p>'), exc.status
        )
    token = request.query_params.get("token", "")
    names = seat_names(table.save.seats, table.names)
    who = "spectator" if seat is None else names[seat]
    body = (
        f'<div id="app" data-mode="table" data-table="{escape(table.id)}" '
        f'data-token="{escape(token)}" data-bot-only="{int(table.bot_only)}" '
        f'data-speed="{table.speed:g}" '
        f'data-creator="{int(_owned(request, table.id) is not None)}">'
        f"<h1>{escape(table.game.title or table.game.name)} "
        f'<small>as <span id="who">{escape(who)}</span></small></h1>'
        + _practice_note(table)
        + (_name_form(seat, names) if seat is not None and seat not in table.names else "")
        + _table_skeleton()
        + "</div>"
        # a seat's answers set in advance (a panel of its own: static/answers.js)
        + '<script src="/static/answers.js" defer></script>'
        # its Undo button (static/undo.js)
        + '<script src="/static/undo.js" defer></script>'
        # a person names their seat on joining (static/names.js)
        + '<script src="/static/names.js" defer></script>'
        # the board's things an option stands for, clickable (static/acts.js); what happened
        # since the seat's last decision, under its options and marked on the board (recent.js)
        + '<script src="/static/acts.js" defer></script>'
        + '<script src="/static/recent.js" defer></script>'
    )
    # gesture.js (a run of decisions asked as one move) is there before table.js draws
    return HTMLResponse(layout(table.game.title or "Table", body, "gesture.js table.js"))


def _name_form(seat: int, names: list[str]) -> str:
    """Asked once, when a person opens their seat's link: the name the others will read."""
    return (
        '<form id="name-form" class="name-form"><label>Your name '
        f'<input id="name" name="name" maxlength="{MAX_NAME}" required autocomplete="nickname" '
        f'placeholder="{escape(names[seat])}"></label> <button type="submit">Take a seat</button>'
        " <small>The other players read it in the log and the scores.</small>"
        ' <span id="name-error" class="name-error" role="alert"></span></form>'
    )


def _practice_note(table: Table) -> str:
    """What every page of a practice table says (the table's messages say it too)."""
    if not table.practice:
        return ""
    return f'<p class="practice" id="practice">{escape(PRACTICE_NOTE)}</p>'


def _table_skeleton() -> str:
    """The table page's places, in the order a phone shows them: the seat's status and options
    first, then the result, the board (the seat's own area first, by style.css), the log.
    On a wide window style.css puts the panel (status, options, log) beside the board and
    keeps it in view while the board scrolls."""
    return (
        '<div class="layout"><div class="side">'
        '<section id="panel" class="panel" aria-label="Your options">'
        '<div id="status" class="status" role="status"></div>'
        '<div id="error" class="error" hidden></div><div id="options" class="options"></div>'
        '</section><section class="extras"><h3>Log</h3><ol id="log" class="log"></ol>'
        '<div id="controls" class="controls"></div></section></div>'
        '<div id="result" class="result"></div><div id="board" class="board"></div></div>'
    )


async def replay_page(request: Request) -> Response:
    table_id = request.query_params.get("table", "")
    if not TABLE_ID.fullmatch(table_id):  # no table's id: the page opens save files only
        table_id = ""
    body = (
        f'<div id="app" data-mode="replay" data-table="{escape(table_id)}"><h1>Replay</h1>'
        '<p><label>Open a save file <input type="file" id="save-file" accept=".json"></label></p>'
        '<div class="slider"><input type="range" id="slider" min="0" max="0" value="0" disabled>'
        ' <span id="step">0 / 0</span> <button type="button" id="prev">◀</button>'
        '<button type="button" id="next">▶</button></div>' + _table_skeleton() + "</div>"
    )
    return HTMLResponse(layout("Replay", body, "table.js"))


async def favicon(_request: Request) -> Response:
    """The site's icon (one SVG; ``/favicon.ico`` too, for clients that ask for it by name)."""
    return FileResponse(
        Path(__file__).parent / "static" / "favicon.svg",
        media_type="image/svg+xml",
        headers={"Cache-Control": "public, max-age=86400"},
    )


def page_routes() -> list[BaseRoute]:
    return [
        Route("/", lobby),
        Route("/favicon.svg", favicon),
        Route("/favicon.ico", favicon),
        Route("/new", new_game_page),
        Route("/new", create_game, methods=["POST"]),
        Route("/t/{table_id}", table_page),
        Route("/t/{table_id}/delete", delete_page, methods=["POST"]),
        Route("/replay", replay_page),
    ]
