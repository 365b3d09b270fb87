"""The resolve pass: every name, attribute and call of a parse tree decided against the
ruleset's names (scope), typed and checked (the type checker), every diagnostic raised;
its result is the resolved tree (ir.py)."""
