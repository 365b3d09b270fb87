"""Helpers shared by the test packages that play the real games.

``moves`` drives any game (apply checked options, pass to the next role choice);
``puerto_rico`` moves the pieces that the base game and its expansions have alike, for
tests/puerto_rico and tests/puerto_rico_expansions. Each test package keeps what is its own
in its ``helpers.py``.

This folder is importable as ``helpers`` because tests/conftest.py puts tests/ on
``sys.path``.
"""
