"""What generated rule code calls while a game runs: the rule-fault exception, dynamic
reads and writes, the builtins' Python, and log lines with a seat's own text."""
