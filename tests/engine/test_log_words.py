"""Log lines print ids as names: a declared id (set member, catalog entry, option choice) as its
`presentation: labels:` entry or the id in words, a list as names joined by ", ", a piece as its
entry's name; numbers, yes/no, none and texts that are no id as before. An option taken without
a `log:` whose effect logs nothing is logged in its family's text (the id in words without one),
a forced one too, with its seat. Option ids themselves keep their ids."""

from __future__ import annotations

from interpreter import load_game
from interpreter.model.words import Words, in_words
from interpreter.ruleset.ruleset import Ruleset
from interpreter.table.presenter import Presentation

RULESET = """
ruleset: words
title: Words in the log
players: {min: 2, max: 2}
options:
  pace: {choices: [slow-pace, fast-pace], default: slow-pace}
sets:
  hats: [big-hat, red-cap]
catalogs:
  tools:
    entries:
      hand-saw: {doc: A saw}
      drill: {doc: A drill}
tables:
  counts: [1, 2]
state:
  global:
    row: {pile: tools}
  player:
    coins: {counter: 0}
    kit: {area: tools}
    bought: {counter: 0}
flow:
  setup:
    - do: |
        push(row, hand-saw)
        push(row, drill)
        place(drill, player(0).kit)
        log "the row: {row}; hats: {hats}; first: {first(row)}; {option.pace}"
        let why = "not-an-id-at-all"
        log "plain {3} {true} {none} {players} {why} {len(row)}"
        log "a piece: {first(player(0).kit)}"
  end-after-round-if: round >= 1
  round:
    - each-player:
        as: actor
        steps:
          - choose:
              who: actor
              options:
                - id: "wear:{h}"
                  for: h in hats
                  if: actor.seat == 0
                - id: "buy:{t}:{h}"
                  for: [t in tools, h in hats]
                  if: actor.seat == 0 and actor.bought == 0
                  do: actor.bought += 1
                - id: "pick:{t}"
                  for: t in tools
                  if: actor.seat == 1
                  log: "seat {actor} picks the {t}"
                - id: rest
                  if: actor.seat == 1
                  do: actor.coins += 1
          - choose:
              who: actor
              options:
                - id: "wave:{h}"
                  for: h in hats
                  if: h == big-hat
scoring:
  components:
    - {name: coins, value: p.coins}
presentation:
  labels: {big-hat: Top hat}
  options:
    buy: {text: "Buy the {1} for the {2}"}
"""


def _game(tmp_path):
    path = tmp_path / "words.yaml"
    path.write_text(RULESET, encoding="utf-8")
    return load_game(str(path), 2)


def test_log_templates_print_declared_ids_as_names(tmp_path):
    state = _game(tmp_path).new_state(1)
    texts = [text for _r, _s, text in state.log]
    assert texts[:3] == [
        "the row: Hand saw and Drill; hats: Top hat and Red cap; first: Hand saw; Slow pace",
        "plain 3 yes none 2 not-an-id-at-all 2",
        "a piece: Drill",
    ]


def test_an_option_without_a_log_is_logged_in_its_text_the_id_in_words_without_one(tmp_path):
    state = _game(tmp_path).new_state(1)
    assert "buy:hand-saw:big-hat" in state.legal_options()  # ids stay ids
    state.apply("buy:hand-saw:big-hat")
    lines = [(seat, text) for _r, seat, text in state.log[3:]]
    assert lines[0] == (0, "Buy the Hand saw for the Top hat")
    # the one wave is forced: its seat, the id in words (no text), the only choice
    assert lines[1] == (0, "seat 0: Wave Top hat (the only choice)")
    state.apply("pick:drill")
    assert (1, "seat 1 picks the Drill") in [(s, t) for _r, s, t in state.log]
    assert state.history == ["buy:hand-saw:big-hat", "pick:drill"]


def test_without_a_log_no_words_are_made(tmp_path):
    game = _game(tmp_path)
    state = game.new_state(1)
    quiet = state.copy()  # a copy keeps no log, as in a simulation
    assert quiet.log is None
    quiet.apply("wear:red-cap")
    assert quiet.log is None and quiet.history == ["wear:red-cap"]


def test_the_engine_and_the_presentation_share_the_words(tmp_path):
    data = {
        "sets": {"hats": ["big-hat", "red-cap"]},
        "presentation": {"labels": {"big-hat": "Top hat"}, "options": {"buy": {"text": "Buy {1}"}}},
    }
    words, pres = Words.from_ruleset(Ruleset.from_data(data)), Presentation.from_data(data)
    for option in ("buy:big-hat", "buy:red-cap", "sell:red-cap", "pass"):
        assert pres.option_text(option) == words.option(option)
    assert words.option("sell:red-cap") == "Sell Red cap" and in_words("red-cap") == "Red cap"
    assert words.text(["big-hat", "red-cap", 3]) == "Top hat, Red cap and 3"
    assert words.names == {"big-hat": "Top hat", "red-cap": "Red cap"}


def test_the_shipped_games_log_names_not_ids(tmp_path):
    for name, overlays in (("puerto-rico", ("new-buildings", "nobles")), ("san-juan", ())):
        game = load_game(name, 3, overlays)
        ids = set(game.rules.words.names)
        state = game.new_state(7)
        while not state.is_over and state.round < 4:
            state.apply(state.legal_options()[-1])
        texts = [text for _r, _s, text in state.log]
        assert texts
        for text in texts:
            assert "[" not in text and "'" not in text, text  # no Python repr
            hyphened = [w.strip("(),.:;") for w in text.split() if "-" in w]
            assert not [w for w in hyphened if w in ids], text
