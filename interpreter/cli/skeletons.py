"""The files ``rulebook new`` writes: a commented role-selection game and its first scenarios.

The game is the smallest one that has every part of the pattern (roles taken in turn, a phase
everybody plays with a privilege for the one who took it, a limited stock, buildings, an end
that always comes), so that an author replaces its parts one by one and validates as they go.
``{id}`` and ``{title}`` are filled in, and ``{schema_line}`` with the editor's schema line
(:func:`interpreter.cli.new_cmd.schema_line`); everything else is written as it stands.
"""

from __future__ import annotations

__all__ = ["GAME", "OVERLAY", "SCENARIOS"]

GAME = """\
{schema_line}
#
# {title}: a role-selection game, from the skeleton `rulebook new game` writes. It plays as it
# stands: change it one part at a time, and after each change run
#     rulebook validate {folder}            (every mistake, with file:line:col)
#     rulebook play {folder} -p 3 --seed 1  (a game between random bots)
#     rulebook test {folder}                (the scenarios in {folder}/scenarios/)
# docs/tutorial.md builds a whole game this way; docs/rulesets.md and docs/dsl.md are the
# reference.
#
# The rules as they stand. Each round, every seat in turn takes one of the roles nobody has
# taken yet this round; everybody then plays it, the seat that took it with a privilege:
#   gatherer  every seat takes 1 wood from the stockpile; the gatherer 1 more.
#   seller    every seat may sell 1 wood for 2 coins; the seller earns 1 more.
#   maker     every seat may build one building, paying its cost; the maker pays 1 less.
# The game ends after the round in which a seat has 4 buildings, or after the last round.
# Points: the buildings' points, and 1 per 3 coins; ties go to the seat with more coins.
ruleset: {id}
title: {title}
players: {{min: 2, max: 4}}

# Choices made when a game is set up: `rulebook play {folder} -p 3 --option last-round=4`.
options:
  last-round:
    default: 8
    choices: [4, 8, 12]
    doc: The game ends after this round at the latest.

# Fixed numbers; a map keyed by player count is read as `start-coins[players]`.
tables:
  wood-stock: 30
  coin-stock: 60
  start-coins: {{2: 3, 3: 3, 4: 2}}
  town-size: 4

catalogs:
  # The roles; `phase` names the phase (below) everybody plays when a seat takes it.
  roles:
    entries:
      gatherer: {{phase: gathering}}
      seller: {{phase: selling}}
      maker: {{phase: making}}
  # `copies` of each building are in the supply at the start.
  buildings:
    defaults: {{copies: 3}}
    entries:
      hut: {{cost: 1, points: 1}}
      shed: {{cost: 2, points: 1, doc: "Its owner gathers 1 more wood.", grants: {{extra-wood: 1}}}}
      tower: {{cost: 4, points: 3, copies: 2}}

# What changes during a game: global fields once, player fields once per seat.
state:
  global:
    first: {{counter: 0}}              # the seat that takes a role first this round
    stockpile: {{counter: 0}}          # wood nobody holds
    bank: {{counter: 0}}               # coins nobody holds
    supply: {{pile: buildings}}        # buildings nobody has built
    taken: {{bag: roles}}              # 1 for each role taken this round
    end-reason: {{value: none}}
  player:
    wood: {{counter: 0, stock: stockpile}}   # a scenario's set-up takes wood from the stockpile
    coins: {{counter: 0, stock: bank}}
    town: {{area: buildings}}

functions:
  price:
    params: [p, b]
    expr: max(0, b.cost - (1 if p == chooser else 0))   # the maker's privilege

procedures:
  take-wood:
    params: [p, n]
    do: |
      let got = min(n, stockpile)
      stockpile -= got
      p.wood += got
  pay-out:
    params: [p, n]
    do: |
      let paid = min(n, bank)
      bank -= paid
      p.coins += paid
  end-after-this-round:
    params: [why]
    do: |
      if end-reason == none:
        end-reason = why
        log "the game ends after this round ({{why}})"

flow:
  variables: [role]
  setup:
    - do: |
        stockpile = wood-stock
        bank = coin-stock
        for b in buildings:
          for c in range(b.copies):
            push(supply, b)
        for i in seats:
          pay-out(player(i), start-coins[players])
  round:
    - log: "first: seat {{first}}"
    - each-player:
        from: first
        as: chooser
        steps:
          - choose:
              who: chooser
              label: take a role
              options:
                - id: "role:{{r}}"
                  for: r in roles
                  if: taken[r] == 0
                  log: "seat {{chooser}} takes the {{r}}"
                  do: |
                    taken[r] = 1
                    role = r
          - phase: role.phase
    - do: |
        clear(taken)
        first = (first + 1) % players
        if round >= option.last-round:
          end-after-this-round("last-round")
  end-after-round-if: end-reason != none
  trigger: end-reason

# One phase per role: `chooser` took the role, `actor` is the seat whose turn it is.
phases:
  gathering:
    - each-player:
        from: chooser
        steps:
          - do: take-wood(actor, 1 + actor.extra-wood + (1 if actor == chooser else 0))
  selling:
    - each-player:
        from: chooser
        steps:
          - choose:
              who: actor
              label: sell wood
              options:
                - id: sell
                  if: actor.wood > 0
                  do: |
                    actor.wood -= 1
                    stockpile += 1
                    pay-out(actor, 2 + (1 if actor == chooser else 0))
                - id: pass
  making:
    - each-player:
        from: chooser
        steps:
          - choose:
              who: actor
              label: build
              options:
                - id: "build:{{b}}"
                  for: b in distinct(supply)
                  if: price(actor, b) <= actor.coins and len(actor.town) < town-size
                  do: |
                    let cost = price(actor, b)
                    actor.coins -= cost
                    bank += cost
                    remove(supply, b)
                    place(b, actor.town)
                    if len(actor.town) >= town-size:
                      end-after-this-round("town-full")
                - id: pass

scoring:
  components:
    - name: buildings
      value: sum(x.points for x in p.town)
    - name: coins
      value: p.coins // 3
  tiebreak: p.coins

# Checked after every decision by `rulebook test` and `rulebook simulate --check`.
invariants:
  wood: stockpile + sum(player(i).wood for i in seats) == wood-stock
  coins: bank + sum(player(i).coins for i in seats) == coin-stock
"""

SCENARIOS = """\
{schema_line}
#
# Scenarios of {title}: given a set-up, when these options are taken, then this holds.
# Run them with `rulebook test {folder}`; docs/scenarios.md has the whole language.
game: ../ruleset.yaml          # the game, by path relative to this file
players: 3
seed: 1

scenarios:
  - name: the gatherer takes one wood more than the others
    steps:
      - seat 0: role:gatherer
    expect:
      - seat 0: {{wood: 2}}
      - seat 1: {{wood: 1}}
      - stockpile == 30 - 4

  - name: the seller earns one coin more
    setup:
      seat 0: {{wood: 1}}        # taken from the stockpile (`wood` is stocked from it)
      seat 1: {{wood: 1}}
    steps:
      - seat 0: role:seller
      - seat 0: sell
      - seat 1: sell
      # seat 2 has no wood: `pass` is its only option, so the engine takes it (no step here)
    expect:
      - seat 0: {{coins: 6}}     # 3 at the start, 2 + 1
      - seat 1: {{coins: 5}}
      - log contains: Pass (sell wood) (the only choice)

  - name: the maker pays one coin less
    steps:
      - seat 0: role:maker
      - expect:
          seat 0 may: [build:hut, build:shed, build:tower, pass]   # the tower: 4 - 1 = 3
      - seat 0: build:tower
      - seat 1: build:shed
    expect:
      - seat 0: {{coins: 0, town: [tower]}}
      - seat 1: {{coins: 1, town: [shed]}}
      - seat 2 may: [build:hut, build:shed, pass]
"""

OVERLAY = """\
{schema_line}
#
# {title}: an overlay (an expansion, a variant or a house rule) laid over `{game}`, from the
# skeleton `rulebook new overlay` writes. Play it with
#     rulebook play {game_arg} -p {players} --with {with_arg}
# and check it with `rulebook validate {path}`. An overlay changes its game by path:
#   add:     new entries      (`catalogs/buildings/entries/NEW: {{...}}`, `options/NEW: {{...}}`)
#   replace: whole entries    (below: a table, here with its value unchanged: edit it)
#   patch:   some fields      (`catalogs/buildings/entries/OLD: {{cost: 2}}`)
#   remove:  entries          (`remove: [catalogs/buildings/entries/OLD]`)
# docs/rulesets.md ("Overlays") has the details.
overlay: {id}
extends: {base}
title: {title}
{body}"""
