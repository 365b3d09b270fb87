"""``rulebook serve``: a web table for any ruleset, overlay or house rule.

store.py         tables on disk (SQLite): save header, seat tokens, the action log
tables.py        live tables: checked moves, bots, rebuilt from the log after a restart
messages.py      what one seat is told: built only from ``state.view(seat)``, worded by the
                 ``presentation:`` reader the terminal uses too (interpreter/table/)
render.py        HTML of the board, log and score table
house_rules.py   uploaded house rules, validated like ``rulebook validate``
api.py pages.py app.py   the JSON API and websocket, the HTML pages, the ASGI app
fanout.py        each websocket's own bounded, deadlined sender: no reader slows another
publish.py       a new position to everybody at a table; answers set in advance wait for it
quotas.py        per-client quotas, idle tables out of memory, the server's limits
"""
