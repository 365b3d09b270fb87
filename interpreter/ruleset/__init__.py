"""Stage 2b: the composed rule files as typed, immutable objects with their source positions.

Built when a game is loaded (``Ruleset.of``, called by ``engine/loader.py``: once per unchanged
rule file) from the composed, schema-checked tree of ``load/`` and ``compose/``; every object
carries the ``Pos`` (file, line, column) where its rule text was written, so a driver's message
about it can point there. The drivers (cli, serve, scenario, simulate, agents, learn) read rule
declarations only through these objects, never the raw tree.

``nodes`` (``Pos``, plain values, typed readers of a tree node), ``header`` (a rule file's
id, title, player counts, game options), ``sections`` (catalogs, tables, state fields,
scoring words), ``presentation`` (the ``presentation:`` section), ``flow`` (the steps of
``flow:`` and ``phases:``), ``hooks`` (catalog entries' ``on:`` hooks), ``definitions``
(functions, procedures, events, sets, extension points), ``gameconfig`` (a game config's
choices), ``scenariofile`` and ``scenariosteps`` (a scenario file: its scenarios, set-ups,
steps and expectations), ``vocabulary`` (every key, text, log
template and option id the rules hold), ``ruleset`` (``Ruleset``, the whole).
"""
