"""rulebook: a declarative, data-driven rules interpreter for role-selection board games."""
