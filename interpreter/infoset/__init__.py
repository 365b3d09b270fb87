"""What each seat may know: which rule texts can read a secret (secrecy.py, at load), whether a
lone option is settled by what every seat sees (forced.py), what each seat has observed and
remembers (knowledge.py; places.py the piles it follows), full states drawn consistently with
one seat's view (worlds.py), and what changed, kept for each reader at its own place
(changes.py: a state's journal, the seats' memory steps).

Below the model: the model's compiler marks hidden-dependent decisions with secrecy.py, and
the engine asks this package whether to take a lone option and records what seats saw."""
