"""Tests that pytest-xdist runs on one worker (``--dist loadgroup``, pyproject.toml), marked
``@pytest.mark.xdist_group(NAME)``, because they pay once for what the later ones reuse."""

# Validating the example house rules (examples/variants): the stacks check judges each stack
# once per process (interpreter/check/judged.py), so the documentation's examples that validate
# them and the project's own validation pay the stacks once between them (the docs examples
# first, in this process; the project's validation forks its workers, which inherit them).
EXAMPLE_HOUSE_RULES = "example-house-rules"
