"""Learned players: a small policy-and-value model trained by expert iteration with the
search bot as teacher (``rulebook train``), the ``learned:FILE`` bot that plays from it alone,
and the search bot guided by it (``search:...:model=FILE``). See docs/bots.md.

It reads games only through the agent spaces (interpreter/agents/spaces.py) and the engine's
seat views: no game knowledge, so any ruleset, overlay or house rule trains the same way.
"""
