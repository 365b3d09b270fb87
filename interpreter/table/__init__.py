"""What a table of people needs from a game, the same at the terminal (``cli/``) and on the web
(``serve/``): both drivers import it, and neither imports the other.

``presenter`` (the ``presentation:`` reader: labels, zones, boards, option texts),
``field_drawing`` (a state field drawn as a generic component), ``gestures`` (a run of one
step's decisions offered as one gesture), ``offers`` (the seat to move's options with their
words, previews and costs; ``option_costs`` the costs), ``endings`` (the score table and the
end trigger in words), ``seat_names`` (seats' names and colours), ``shapes`` (the shapes of
an offered option and a gesture), ``answers`` (answers set in advance to a ruleset's optional
questions, which the scenario runner's ``optional:`` answers too).
"""
