"""The drivers read rule declarations from the typed `Ruleset` (interpreter/ruleset/), never
from the raw composed tree: no driver module calls the loaders that hand the tree out, except
the commands that show the tree itself (docs/architecture.md, "ruleset/")."""

from __future__ import annotations

import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "interpreter"
DRIVERS = ("cli", "serve", "table", "scenario", "simulate", "agents", "learn", "bots")
# `rulebook show GAME PATH` prints the composed YAML at a path with its origins: the tree is
# what it shows
SHOWS_THE_TREE = {"cli/show_cmd.py"}
# (a loader that hands out the tree, a read of it, or the tree handed on to a function)
TREE_LOADERS = re.compile(
    r"\b(load_game_and_data|load_rules_data)\b|\.data\.get\(|\bruleset\.data\s*[),]"
)


def test_no_driver_reads_the_raw_rule_tree() -> None:
    found = []
    for folder in DRIVERS:
        for path in sorted((PACKAGE / folder).rglob("*.py")):
            name = path.relative_to(PACKAGE).as_posix()
            if name in SHOWS_THE_TREE:
                continue
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if TREE_LOADERS.search(line):
                    found.append(f"interpreter/{name}:{number}: {line.strip()}")
    assert not found, "read the game's typed rules (game.ruleset) instead:\n" + "\n".join(found)


# the modules of `rulebook validate`'s checks that read the typed Ruleset: they report at a
# typed object's `pos` (diagnostic_on), never by walking the composed tree (`data.get(...)`,
# `ruleset.data`) or locating a path in it
TYPED_CHECKS = (
    "check/act_names.py",
    "check/drawing.py",
    "check/families.py",
    "check/gesture_names.py",
    "check/references.py",
    "check/stacks.py",
    "check/taint.py",
    "check/taint_texts.py",
    "check/taint_words.py",
    "model/expressions.py",
    "model/logtexts.py",
    "ruleset/option_names.py",
)
RAW_READS = re.compile(
    r"\b(is_map|is_seq|locate|diagnostic_at|key_position|position_of|interpreter\.load)\b"
    r"|\bdata\s*:\s*Any\b|\b(data|ruleset|doc)\.(data\b|get\()"
)


def test_the_typed_checks_do_not_walk_the_raw_rule_tree() -> None:
    found = _lines_matching(TYPED_CHECKS, RAW_READS)
    assert not found, "read the typed rules (interpreter/ruleset/) instead:\n" + "\n".join(found)


# check/ modules that read a config's or a scenario's own file (not a rule file) as written,
# and the rules it names only typed: the composed tree goes to the compiler or
# `Session.typed` whole, never read key by key
READS_A_FILE_OF_ITS_OWN = ("check/configs.py", "check/scenarios.py")
COMPOSED_READS = re.compile(
    r"\bcomposed\s*(\.get\(|\[)|\b(LogTexts|OptionNames|FlowSection\.from_data)\(composed"
    r"|\b(choose_options|whole_number|player_counts)\("
)


def test_configs_and_scenarios_read_the_rules_they_name_typed() -> None:
    found = _lines_matching(READS_A_FILE_OF_ITS_OWN, COMPOSED_READS)
    assert not found, "read the composition's typed rules (Session.typed):\n" + "\n".join(found)


# a scenario file is read once, into its typed `ScenarioFile` (interpreter/ruleset/
# scenariofile.py): `rulebook validate`'s checks and `rulebook test`'s loader read its
# scenarios, steps and expectations, each with where it was written, never the file's tree
SCENARIO_FILE_READERS = ("check/scenarios.py", "scenario/format.py")
SCENARIO_TREE_READS = re.compile(
    r"\b(is_map|is_seq|locate|diagnostic_at|key_position|position_of|walk_steps|to_plain)\("
    r"|\b(top|node|item|step|data|fields|expect)(\.get\(|\[)"
)


def test_scenario_files_are_read_typed() -> None:
    found = _lines_matching(SCENARIO_FILE_READERS, SCENARIO_TREE_READS)
    assert not found, "read the scenario file's ScenarioFile:\n" + "\n".join(found)


# a game config is read through its typed `GameConfig` (interpreter/ruleset/gameconfig.py): what it
# asks for and where each choice was written
CONFIG_BY_KEY = re.compile(r"\bdiagnostic_at\b|\.get\(\"(game|with|players|options)\"")


def test_a_config_is_read_typed() -> None:
    found = _lines_matching(("check/configs.py",), CONFIG_BY_KEY)
    assert not found, "read the config's GameConfig:\n" + "\n".join(found)


# model/ modules that compile the typed flow steps and definitions: what a text is and where
# it sits come from the typed objects, never from the tree by key
TYPED_COMPILERS = ("model/end_triggers.py", "model/flow.py", "model/functions.py")
TREE_BY_KEY = re.compile(
    r"\b(is_map|is_seq|locate|key_position|position_of)\(|\bdata\s*:\s*Any\b"
    r"|\b(data|root|step|spec|flow|fdecl)\.get\(|\bstep\[|\bspec\["
)


def test_the_typed_compilers_do_not_walk_the_raw_rule_tree() -> None:
    found = _lines_matching(TYPED_COMPILERS, TREE_BY_KEY)
    assert not found, "compile the typed rules (interpreter/ruleset/):\n" + "\n".join(found)


def _lines_matching(names: tuple[str, ...], pattern: re.Pattern[str]) -> list[str]:
    """``interpreter/NAME:LINE: text`` of each line of the modules ``names`` that ``pattern``
    finds."""
    found = []
    for name in names:
        text = (PACKAGE / name).read_text(encoding="utf-8")
        for number, line in enumerate(text.splitlines(), 1):
            if pattern.search(line):
                found.append(f"interpreter/{name}:{number}: {line.strip()}")
    return found


# model/ modules that compile the typed sections (catalogs, state, scoring, option costs): what
# an entry, a field or a text holds comes from the typed objects' fields, never a map read by
# a key (`.get("active")`, `cat["held-by"]`), which is how the raw tree is read
TYPED_SECTIONS = (
    "model/catalogs.py",
    "model/costs.py",
    "model/scoring.py",
    "model/state_decl.py",
)
RULE_KEYS = (
    "active|held-by|entries|defaults|fields|grants|on|default|choices|may|for|when|amount|do"
    "|hidden|scope|stock|min|max|remember|before|components|tiebreak|params|price|pay|unit"
    "|because"
)
SECTION_BY_KEY = re.compile(
    TREE_BY_KEY.pattern
    + r"|\.get\([\"']|hasattr\([^)]*[\"']get[\"']\)"
    + rf"|\[[\"']({RULE_KEYS})[\"']\]"
)


def test_the_typed_sections_are_not_read_by_key() -> None:
    found = _lines_matching(TYPED_SECTIONS, SECTION_BY_KEY)
    assert not found, "compile the typed sections (interpreter/ruleset/):\n" + "\n".join(found)


# the scenario runner (interpreter/scenario/) reads a scenario as the typed objects of
# interpreter/ruleset/scenariosteps.py and scenariofile.py: its records hold the typed set-ups,
# expectations and refusals (each with where it was written), never a copy of them as raw maps
RUNNER = PACKAGE / "scenario"
RUNNER_RAW_READS = re.compile(
    r"\b(is_map|is_seq|to_plain|locate|value_at|key_pos|position_of|plain)\("
    r"|\b(data|value|expected|want|item|given|fields|x|spec|setup|e)\s*:\s*Any\b"
    r"|\.get\([\"'](game|players|with|options|seed|setup|steps|expect|name|refused|scenarios"
    r"|blocks|do|set|auto|until|forced|optional|any case|check-totals|uncounted|restart)[\"']"
)


def test_the_scenario_runner_reads_no_raw_scenario_data() -> None:
    names = tuple(p.relative_to(PACKAGE).as_posix() for p in sorted(RUNNER.glob("*.py")))
    found = _lines_matching(names, RUNNER_RAW_READS)
    assert not found, "read the scenario's typed objects (ruleset/scenariosteps.py):\n" + (
        "\n".join(found)
    )


def test_the_scenario_runners_records_hold_the_typed_scenario() -> None:
    from dataclasses import fields

    from interpreter.scenario import format as records

    held = {
        (cls.__name__, f.name): str(f.type)
        for cls in (records.Scenario, records.Step, records.Expectation)
        for f in fields(cls)
    }
    untyped = {name: kind for name, kind in held.items() if re.search(r"\bAny\b", kind)}
    assert not untyped, f"a record holds scenario data untyped: {untyped}"
    for name, typed in (
        (("Scenario", "setups"), "SetupSpec"),
        (("Step", "setup"), "SetupSpec"),
        (("Scenario", "refused"), "Chosen"),
        (("Expectation", "entry"), "ExpectEntry"),
    ):
        assert typed in held.get(name, ""), f"{name} holds {held.get(name)}, not a {typed}"


def test_the_runner_takes_a_games_names_from_below_both_drivers() -> None:
    """The option ids a game can offer and the texts its log can hold are checked by `rulebook
    validate` (check/) and `rulebook test` (scenario/) alike: one implementation, in the stages
    both import (ruleset/, model/), not in one driver for the other to reach into."""
    from interpreter.check import scenarios
    from interpreter.model.logtexts import LogTexts
    from interpreter.ruleset.option_names import OptionNames

    assert OptionNames.__module__ == "interpreter.ruleset.option_names"
    assert LogTexts.__module__ == "interpreter.model.logtexts"
    assert "OptionNames" not in scenarios.__all__
    assert not (PACKAGE / "check" / "logtexts.py").exists()
    names = tuple(p.relative_to(PACKAGE).as_posix() for p in sorted(RUNNER.glob("*.py")))
    found = _lines_matching(names, re.compile(r"interpreter\.check\.(scenarios|logtexts)\b"))
    assert not found, "import the game's names from ruleset/ and model/:\n" + "\n".join(found)


# model/ modules that check the whole ruleset before and after its texts compile (the data
# types, every name's type, the ids' words, the safety bound, what nothing reads, what an
# overlay's entries lack, the seat name an each-player forgot) and the invariants: they read
# the typed rules and report where a typed object says a part was written (its `pos`, its
# `places`), never by a key of the raw tree nor by locating a path in it
TYPED_WHOLE_CHECKS = (
    "model/added_entries.py",
    "model/datatypes.py",
    "model/invariants.py",
    "model/limits.py",
    "model/typeinfo.py",
    "model/unbound.py",
    "model/unread.py",
    "model/words.py",
)
TREE_BY_PATH = re.compile(
    TREE_BY_KEY.pattern
    + r"|\.get\([\"']|\b(locate|node_position|text_origin|choose_options)\(|\bhost\.error\("
    + r"|(?<![:`])\bdata\s*(\[|\.|:|,|\))|\binterpreter\.load\.locate import (?!json_pointer$)"
)


def test_the_whole_ruleset_checks_read_the_typed_rules() -> None:
    found = _lines_matching(TYPED_WHOLE_CHECKS, TREE_BY_PATH)
    assert not found, "read the typed rules (interpreter/ruleset/):\n" + "\n".join(found)


# what the cards' `may:` hooks add is written as typed rules beside the tree (the written
# nodes kept by path, where the host finds their texts' places): the compiler copies no part
# of the composed tree to write them in, and reads no typed section anew from such a copy
MAY_WRITERS = (
    "model/rules.py",
    *(f"model/{p.name}" for p in sorted(PACKAGE.glob("model/may*.py"))),
)
TREE_COPIES = re.compile(
    r"\b(CopyOnWriteTree|deepcopy|copy\.copy|expand_may|extended_by)\b|\.writable\("
    r"|\b(Definitions|FlowSection)\.from_data\(|\bRuleset\.(from_data|of)\((?!data\))"
)


def test_the_may_hooks_write_typed_rules_beside_the_tree() -> None:
    found = _lines_matching(MAY_WRITERS, TREE_COPIES)
    assert not found, "write the typed rules (model/may_phase.py):\n" + "\n".join(found)
