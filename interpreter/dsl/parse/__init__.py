"""Effect texts read: the grammar's parser (Lark, grammar/effects.lark), syntax errors
said at their cause, and expressions written back as text for messages."""
