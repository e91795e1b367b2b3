"""Catan's search neither peeks nor touches (issue 35, item 7): a search play obeys every rule its scripted plays
obey (the independent reference, tests/support/catan_reference.py), and a search decision leaves every array of the real
play as its base policy's decision leaves it."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from simlib.core.config import RunConfig
from simlib.core.rng import play_key
from simlib.games.catan import GAME, _board
from simlib.games.catan.constants import BANK_PER_RESOURCE, EV_COLS, N_FAMILIES
from simlib.games.catan.decisions import choose_action
from simlib.games.catan.legal import count_actions
from simlib.games.catan.play import STOPPED, place_opening, start_turn
from simlib.games.catan.policies import PARAMS, SEARCH
from simlib.games.catan.scoring import points
from simlib.games.catan.search import Decision, base_seats, choice, new_work, search_action, steps
from simlib.games.catan.setup import deal_board, new_game, start_play
from simlib.games.catan.state import (
    Play,
    board_arrays,
    new_scratch,
    new_state,
    new_tally,
    observed_log,
    published_rules,
)
from simlib.games.catan.tables import events_table

from support.catan_peeking import ObserverViews, copied, no_peeking
from support.catan_reference import RESOURCES as REFERENCE_RESOURCES
from support.catan_reference import Replay, feel_of, replay_game, topology
from support.feel_reference import kept_standing

EVENT_ROWS = 400_000  # more than a play's events


@pytest.mark.parametrize("players,policies,seed", [(4, ["search:budget=4:horizon=2"], 1),
                                                   (3, ["search:budget=4:base=0", "random", "weighted"], 2)])
def test_a_search_play_obeys_every_rule_its_scripted_plays_obey(players, policies, seed):
    """Every event of a play with search seats legal and affordable when it happens, and the end on the points,
    routes and cards of the seats table, the standings table and the games table's feel columns, as
    tests/catan/test_catan_games.py checks scripted plays."""
    plays = 20
    config = RunConfig.build(GAME, players=players, policies=policies, plays=plays, seed=seed, standings=True)
    tables = GAME.simulate(config, 0, plays, events=True)
    events, seats = tables["events"].to_pylist(), tables["seats"].to_pylist()
    games, standings = tables["games"].to_pylist(), tables["standings"].to_pylist()
    for play in range(plays):
        mine = sorted((e for e in events if e["play_index"] == play), key=lambda e: e["seq"])
        points, game = replay_game(mine, players, topology("standard"))
        kernel = sorted((s for s in seats if s["play_index"] == play), key=lambda s: s["seat"])
        assert points == [s["points"] for s in kernel]
        assert game.routes == [s["longest_route"] for s in kernel]
        assert [game.army == q for q in range(players)] == [s["largest_army_card"] for s in kernel]
        kept = kept_standing([r for r in standings if r["play_index"] == play])
        assert kept == game.replayed_standing(games[play]["turns"]), (play, "the standings table is not the replayed "
                                                                            "points in view")
        assert feel_of(game, games[play]) is None, (play, feel_of(game, games[play]))


class SearchPlay:
    """One play of `config` with search seats, stepped from Python as search.search_game plays it: `decisions()`
    stops wherever a search seat is to choose after its roll (the real play's arrays in hand), `decide()` is the
    search's decision there. With `events`, the play's event rows are kept."""

    def __init__(self, config, play, events=False):
        n = config.players
        self.lineup = GAME.seat_policies(config)  # as the run gives it: the search seats' own code and parameters
        self.seats = base_seats(self.lineup)  # as simulate_search_games: the base policies in play
        self.bd = board_arrays(_board(config.options["map"]))
        self.rules = published_rules(config.options["victory_points"], BANK_PER_RESOURCE)
        self.max_turns = config.options["max_turns"]
        self.st, self.tally = new_state(self.bd, self.rules, n), new_tally(n)
        self.scratch = new_scratch(self.bd, n, N_FAMILIES)
        rows = np.zeros((EVENT_ROWS if events else 0, EV_COLS), np.int32)
        self.lg = observed_log(rows, n, n, 0)  # what each seat cannot tell, as the search kernel keeps it
        self.work = new_work(self.bd, self.rules, n)
        start_play(self.st, self.tally, np.uint64(play_key(config.seed, play)))
        deal_board(self.st, self.bd, self.scratch, self.lg)
        new_game(self.st, self.rules)
        place_opening(self.play(), self.seats)
        self.turn, self.seat, self.winner = 0, -1, -1

    def play(self, st=None, lg=None, scratch=None):
        """The real play (with other state, log or work space if given)."""
        return Play(self.st if st is None else st, self.tally, self.rules, self.bd,
                    self.scratch if scratch is None else scratch, self.lg if lg is None else lg)

    def _steps(self, rolled):
        return steps(self.play(), self.seats, self.turn, self.seat, rolled, self.lineup.codes, SEARCH)

    def decisions(self):
        """Yields at each decision of a search seat (self.seat, self.turn) and plays on with decide()'s action."""
        n = self.st.hands.shape[0]
        while self.turn < self.max_turns and self.winner < 0:
            self.seat = self.turn % n
            start_turn(self.st, self.seat, self.turn)
            r = self._steps(False)
            while r == STOPPED:
                yield self.seat
                f, i = self.decide()
                if choice(self.play(), self.turn, self.seat, self.seats.codes[self.seat], f, i):
                    r = -1
                else:
                    r = self._steps(True)
            self.winner = r
            self.turn += 1

    def decide(self, st=None, lg=None, scratch=None, budget=None):
        """The search's action for the seat to move (on the real play's arrays unless given others)."""
        p = self.seat
        horizon = int(self.lineup.prm[p, PARAMS.search.horizon])
        stop = min(self.max_turns, self.turn + 1 + horizon) if horizon > 0 else self.max_turns
        at = Decision(self.play(st, lg, scratch), self.seats, self.turn, p, stop, self.work)
        return search_action(at, int(self.lineup.prm[p, PARAMS.search.budget]) if budget is None else budget)

    def scripted_decision(self, st, scratch):
        """What the base policy's own decision writes (the count of the actions and its choice's draws)."""
        p, seats = self.seat, self.seats
        total = count_actions(st, self.rules, self.bd, scratch, p, self.turn)
        return choose_action(st, self.rules, self.bd, scratch, p, seats.codes[p], seats.prm, seats.family_weight,
                             total)

    def arrays(self):
        """Every array of the real play, by name: its state, tally, work space, board, rules, event log and
        policies (the search's own work space, self.work, is not the play's)."""
        parts = {"st": self.st, "tally": self.tally, "scratch": self.scratch, "bd": self.bd, "rules": self.rules,
                 "lg": self.lg}
        named = {f"{part}.{field}": a for part, t in parts.items() for field, a in zip(t._fields, t)
                 if isinstance(a, np.ndarray)}
        seats = {f"{part}.{field}": a for part, t in (("seats", self.seats), ("lineup", self.lineup))
                 for field, a in zip(t._fields, t)}
        return named | seats


SEARCH_TABLE = ["search:budget=8:horizon=3", "builder", "search:budget=6:horizon=2:base=0", "weighted"]


def test_the_stepped_play_is_the_kernels_play():
    """The harness plays what the search kernel plays (so the states below are real plays' states)."""
    config = RunConfig.build(GAME, players=4, policies=SEARCH_TABLE, plays=2, seed=4)
    seats = GAME.simulate(config, 0, 2, False)["seats"].to_pandas()
    for play in range(2):
        p = SearchPlay(config, play)
        for _ in p.decisions():
            pass
        assert [int(points(p.st, q)) for q in range(4)] == list(seats[seats.play_index == play]["points"])


def test_a_search_decision_leaves_the_real_play_as_its_base_policys_decision_does():
    """At many decisions of real plays, every array of the play after the search's decision is byte for byte
    what its base policy's own decision leaves (the list of legal actions in scratch and the decision's draws):
    the rollouts touch only their copies."""
    config = RunConfig.build(GAME, players=4, policies=SEARCH_TABLE, plays=3, seed=8)
    checked = 0
    for play in range(3):
        p = SearchPlay(config, play)
        for k, _ in enumerate(p.decisions()):
            if k % 7:
                continue
            before = {name: a.copy() for name, a in p.arrays().items()}
            st, scratch = copied(p.st), copied(p.scratch)
            p.scripted_decision(st, scratch)
            expected = before | {f"st.{f}": a for f, a in zip(st._fields, st)} \
                | {f"scratch.{f}": a for f, a in zip(scratch._fields, scratch)}
            p.decide()
            after = p.arrays()
            changed = [name for name in after if after[name].tobytes() != expected[name].tobytes()]
            assert not changed, (play, p.turn, changed)
            checked += 1
    assert checked >= 20


# --- no peeking (what a seat can tell, and the checks: support/catan_peeking.py) -----------------------------------

# The search's defaults at a larger budget, among builders and a random seat: a changed card it tells of another's
# hand changes about 3% of its decisions (9 of 308 here), a card stolen between two others did as much before the
# seat stopped reading it.
NO_PEEK_TABLE = ["search:budget=64:horizon=8", "builder", "random", "builder"]


def decisions_with_views(config, plays, every):
    """Every `every`-th decision of the search seat in `plays` of `config`, with every seat's view fed up to it:
    (the play, the seat, the views)."""
    for i in plays:
        p = SearchPlay(config, i, events=True)
        views = ObserverViews(Replay(config.players, topology("standard")), REFERENCE_RESOURCES)
        for k, me in enumerate(p.decisions()):
            if k % every == 0:
                n = int(p.lg.pos[0])
                views.feed(events_table(GAME.rules_version, 0, np.array([n]), p.lg.rows[:n]).to_pylist())
                yield p, me, views


def test_what_each_seat_cannot_tell_follows_from_the_public_events():
    """The play's record of the cards each seat cannot tell (its log's unseen: the steals between two others) is
    what the public events give, replayed by the independent reference, at every decision of real plays."""
    config = RunConfig.build(GAME, players=4, policies=NO_PEEK_TABLE, plays=4, seed=21)
    checked = untold = 0
    for p, _, views in decisions_with_views(config, range(4), 1):
        views.check_record(p.st, p.lg)
        checked += 1
        untold += bool(p.lg.unseen.any())
    assert checked >= 100 and untold >= checked // 2


def test_the_search_does_not_peek_at_what_its_seat_cannot_see():
    """At many decisions of real plays, changing only what the seat to move cannot see (a card stolen between
    two others, the others' development cards, the deck's order) deals the same determinizations and gives the
    same decision; changing what it sees (its own hand, a card it tells of another's hand) changes some."""
    config = RunConfig.build(GAME, players=4, policies=NO_PEEK_TABLE, plays=12, seed=22)
    rng, counts = np.random.default_rng(5), Counter()
    for p, me, views in decisions_with_views(config, range(12), 1):
        no_peeking(p, me, views, rng, counts)
    assert counts["a card stolen between two others"] >= 100, counts
    assert counts["the others' development cards"] >= 100 and counts["the deck's order"] >= 100, counts
    assert counts["its own hand"] > 0 and counts["a card it tells of another's hand"] > 0, counts
