"""Journal builds (dsl/emit/journal.py): every field a decision changes is named by the notes its
rules wrote, read through agents/owners.py, in every shipped ruleset, house rule and example
game; plain builds and copies keep no journal; each reader of a journal (infoset/changes.py)
takes every note at its own place."""

from __future__ import annotations

import copy
import random
from pathlib import Path

import pytest

from interpreter.agents.owners import Owners
from interpreter.agents.spaces import spaces_for
from interpreter.dsl.emit import assignments
from interpreter.dsl.emit.journal import journal_line
from interpreter.engine.loader import load_game
from interpreter.infoset.changes import follow

ROOT = Path(__file__).resolve().parents[2]
CANAL = ROOT / "examples" / "games" / "canal-town"

COMPOSITIONS = [
    ("puerto-rico", 4, ()),
    ("puerto-rico", 2, ()),
    ("puerto-rico", 5, ("new-buildings", "nobles")),
    ("san-juan", 3, ()),
    ("san-juan", 2, ()),
    ("san-juan", 4, ("new-buildings",)),
    *(("puerto-rico", 3, (str(v),)) for v in sorted(ROOT.glob("examples/variants/pr-*.yaml"))),
    *(("san-juan", 3, (str(v),)) for v in sorted(ROOT.glob("examples/variants/sj-*.yaml"))),
    (str(CANAL / "ruleset.yaml"), 2, ()),
    *((str(CANAL / "ruleset.yaml"), 2, (str(CANAL / v),)) for v in ("late-seats.yaml",)),
]


def _changed(before_g, before_p, s) -> set[tuple[int, str]]:
    out = {(-1, k) for k, v in s.g.items() if v != before_g[k]}
    for pl, was in zip(s.p, before_p, strict=True):
        out |= {(pl["seat"], k) for k, v in pl.items() if v != was[k]}
    return out


def _name(c: tuple) -> str:
    game, players, overlays = c
    return "-".join(
        [Path(game).parent.name if game.endswith(".yaml") else game, str(players)]
        + [Path(o).stem for o in overlays]
    )


@pytest.mark.parametrize(
    ("game", "players", "overlays"), COMPOSITIONS, ids=map(_name, COMPOSITIONS)
)
def test_the_notes_name_every_field_a_decision_changed(game, players, overlays):
    built = load_game(game, players, list(overlays), journal=True)
    s = built.new_state(5)
    s.log = None
    owners = Owners(built.rules)
    owners.follow(s)
    s.tj.clear()
    rng = random.Random(5)
    known = 0
    while not s.is_over and s.decisions < 300:
        before_g, before_p = copy.deepcopy(s.g), copy.deepcopy(s.p)
        s.apply(rng.choice(s.legal_options()))
        noted = owners.fields(list(s.tj))
        s.tj.clear()
        if noted is not None:  # (None: a container it does not know; everything is compared)
            known += 1
            fields, entries = noted
            named = set(fields) | {(e[0], e[1]) for e in entries}
            missed = _changed(before_g, before_p, s) - named
            assert not missed, f"decision {s.decisions}: changed but not noted: {missed}"
        owners.follow(s)
    assert known > 0.9 * s.decisions  # the notes were read, not passed over


def test_plain_builds_and_copies_keep_no_journal():
    plain = load_game("san-juan", 3).new_state(1)
    assert plain.tj is None
    noted = load_game("san-juan", 3, journal=True).new_state(1)
    assert isinstance(noted.tj, list) and noted.tj  # set-up wrote fields
    assert noted.copy().tj is None
    noted.tj.clear()
    noted.apply(noted.legal_options()[0])
    assert noted.tj  # the decision's writes


@pytest.mark.parametrize("skips", [True, False])
def test_a_write_that_leaves_its_field_as_it_was_is_not_noted(skips, monkeypatch):
    """A rule that sets a field to the very value it holds (an offer cleared that was never
    made) writes no note, so the reader of the notes has nothing to look at: over a game,
    few of the notes on a field name one that the decision left as it was (those are fields
    written twice, there and back). Noting every write, as a build without the check does,
    fails the count."""
    if not skips:
        monkeypatch.setattr(
            assignments, "journal_line", lambda c, k, unless=None: journal_line(c, k)
        )
    built = load_game("puerto-rico", 4, journal=True)
    s = built.new_state(5)
    s.log = None
    s.tj.clear()
    rng = random.Random(5)
    same = total = 0
    while not s.is_over and s.decisions < 300:
        before_g, before_p = copy.deepcopy(s.g), copy.deepcopy(s.p)
        s.apply(rng.choice(s.legal_options()))
        for seat, name in (note for note in s.tj if type(note[0]) is int):
            total += 1
            was = before_g[name] if seat < 0 else before_p[seat][name]
            same += was == (s.g[name] if seat < 0 else s.p[seat][name])
        s.tj.clear()
    assert total > 100
    assert (same < 0.1 * total) is skips, (same, total)


def test_a_container_its_field_no_longer_holds_is_forgotten():
    """A piece that left its field (the field mapped again) is no longer in the map, so a new
    container that happens to get its id (CPython reuses a freed piece's memory) is not taken
    for it; every container in the map is held by its entry, so no two share an id."""
    built = load_game("puerto-rico", 3, journal=True)
    s = built.new_state(5)
    owners = Owners(built.rules)
    owners.follow(s)
    island = s.p[0]["island"]
    piece = island[0]
    gone = id(piece)
    assert owners.of[gone][:3] == (0, "island", 0)
    island.remove(piece)
    owners.own(0, island, "island")
    del piece
    assert gone not in owners.of
    new = {"type": "corn", "workers": 0}  # (often at the freed piece's address)
    noted = owners.fields([(new, "workers")])
    assert noted is None  # unknown: every field is compared, nothing is written to the island
    assert all(id(where[3]) == i for i, where in owners.of.items())


@pytest.mark.parametrize(("game", "players"), [("san-juan", 2), ("puerto-rico", 3)])
def test_every_observation_of_many_games_equals_its_whole_view(game, players):
    """Many short-lived containers (cards drawn and discarded, pieces placed) over many games
    through one environment, as training runs it: every observation of the seat to move
    equals the features of its whole view."""
    from interpreter.agents import make_env

    env = make_env(game, players=players)
    layout = env.spaces.observations
    rng = random.Random(3)
    steps = 0
    for episode in range(12):
        env.reset(seed=700 + episode)
        for _agent in env.agent_iter():
            obs, _reward, terminated, truncated, _info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            seat = env.state.who
            assert (obs["observation"] == layout.encode(env.state.view(seat))).all(), (
                f"episode {episode}, step {steps}"
            )
            env.step(rng.choice(obs["action_mask"].nonzero()[0].tolist()))
            steps += 1
    assert steps > 1000


def test_two_encoders_of_one_state_each_read_every_change():
    """Two readers follow one state's journal, each at its own place: the second encoder's
    vector follows the state as the first one's does (each takes only its own notes)."""
    spaces = spaces_for("san-juan", 3, (), ())
    obs = spaces.observations
    s = spaces.game.new_state(4)
    first, second = obs.encoder(spaces.game), obs.encoder(spaces.game)
    rng = random.Random(1)
    for _ in range(40):
        for enc in (first, second):
            assert (enc.encode(s, 0) == obs.encode(s.view(0))).all(), s.decisions
        s.apply(rng.choice(s.legal_options()))


def test_a_journal_keeps_only_what_some_reader_has_not_taken():
    """Notes every reader has taken are dropped; a reader that is gone holds none back, and
    when the last one is gone the state keeps no journal (its rules note nothing more)."""
    s = spaces_for("san-juan", 3, (), ()).game.new_state(2)
    rng = random.Random(2)
    first = follow(s)
    assert first is not None and not s.tj  # (what set-up wrote was no one's)
    s.apply(rng.choice(s.legal_options()))
    second = follow(s)
    s.apply(rng.choice(s.legal_options()))
    both = second.take()
    assert both and first.take()[-len(both) :] == both
    assert len(s.tj) == 0
    s.apply(rng.choice(s.legal_options()))
    assert s.tj and first.take() and len(s.tj) > 0  # the second has not taken its own
    journal = s.tj
    del second
    assert len(journal) == 0 and s.tj is journal
    del first
    assert s.tj is None
    s.apply(rng.choice(s.legal_options()))
    assert len(journal) == 0 and follow(s) is None
