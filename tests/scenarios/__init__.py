"""Tests: a package, so its conftest.py has a name of its own (`scenarios.conftest`)."""
