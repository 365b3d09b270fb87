"""Stage 2: overlays (expansions, variants, house rules) laid over a base ruleset.

``operations`` reads what an overlay asks for, ``conflicts`` finds two overlays changing one
entry, ``tree`` edits a copy of the base keeping every position, and ``overlays.compose``
puts them together; ``rulefiles.load_rules_data`` reads a game's files in (found, loaded,
composed, checked against the schema), the front door every stage above uses;
``stacking`` names the stacks of overlays a house rule joins, for the checks and the smoke run.
"""
