"""Die Mauerspechte's search neither peeks nor touches (issue 35, item 7): a search play obeys every rule its
scripted plays obey, replayed event by event by the independent reference (tests/support/mauerspechte_reference.py); a
search decision leaves every array of the real play as its base policy's decision leaves it; and it decides alike
whatever its seat cannot see (what a seat can tell is the engine's rule: tests/support/catan_peeking.py writes
it again and holds the checks)."""

from __future__ import annotations

import functools
from collections import Counter

import numpy as np
import pytest

from simlib.core.config import RunConfig
from simlib.core.rng import play_key
from simlib.games.catan.constants import EV_COLS
from simlib.games.catan.play import STOPPED, start_turn
from simlib.games.catan.state import observed_log
from simlib.games.mauerspechte import GAME, _berlin
from simlib.games.mauerspechte.decisions import choose_berlin_action
from simlib.games.mauerspechte.kernel import new_play, start_berlin
from simlib.games.mauerspechte.play import place_opening_berlin, turn_steps
from simlib.games.mauerspechte.policies import PARAMS, SEARCH
from simlib.games.mauerspechte.rules import count_berlin
from simlib.games.mauerspechte.search import Decision, base_seats, choice, new_work, search_action
from simlib.games.mauerspechte.state import Play
from simlib.games.mauerspechte.tables import events_table
from simlib.games.mauerspechte.wall import berlin_points

from support.catan_peeking import ObserverViews, no_peeking
from support.cli_runs import simulated_plays
from support.feel_reference import kept_standing
from support.mauerspechte_reference import RESOURCES as REFERENCE_RESOURCES
from support.mauerspechte_reference import MauerspechteReplay, check_tables, replay_game

EVENT_ROWS = 400_000  # more than a play's events

# Small budgets and horizons keep the plays fast; four search seats make every decision after a roll a search.
# (A rollout that opened a section in the real play, found at 40 plays of four search seats, showed in 4 of them.)
SEARCH_RUNS = {
    "four searches": (4, ["search:budget=4:horizon=2"], 40, 1, {}),
    "searches among scripted seats": (3, ["search:budget=4:horizon=3:base=0", "specht", "search:budget=6"], 10, 6,
                                      {"layout": "shuffled"}),
}


@functools.cache
def search_plays() -> dict[str, tuple[dict, ...]]:
    """The plays of SEARCH_RUNS, simulated through the command line, each with its run's options."""
    runs = simulated_plays("mauerspechte", SEARCH_RUNS, options=True)
    for plays in runs.values():
        for play in plays:
            play["events"].sort(key=lambda e: e["seq"])
    return runs


@pytest.mark.parametrize("run", sorted(SEARCH_RUNS))
def test_a_search_play_obeys_every_rule_its_scripted_plays_obey(run):
    """Every event of a play with search seats legal when it happens (no settlement or road under a standing
    wall, whatever the rollouts bought), and the end on the rows of the tables, as for scripted plays."""
    players, _, _, _, options = SEARCH_RUNS[run]
    for play in search_plays()[run]:
        game = replay_game(play["events"], players, options.get("layout", "fixed"), options=play["options"])
        (games_row,) = play["games"]
        check_tables(game, games_row, play["seats"], play.get("wall_pieces", []), play.get("hotels", []),
                     play.get("love_parades", []), play.get("production", []))
        replayed = game.replayed_standing(games_row["turns"])
        assert kept_standing(play["standings"]) == replayed, "the standings table is not the replayed points"


class SearchPlay:
    """One play of `config` with search seats, stepped from Python as search.simulate_search_games plays it:
    `decisions()` stops wherever a search seat is to choose after its roll (the real play's arrays in hand),
    `decide()` is the search's decision there. With `events`, the play's event rows are kept."""

    def __init__(self, config, play, events=False):
        n = config.players
        self.lineup = GAME.seat_policies(config)  # as the run gives it: the search seats' own code and parameters
        self.seats = base_seats(self.lineup)  # as simulate_search_games: the base policies in play
        self.max_turns = config.options["max_turns"]
        rows = np.zeros((EVENT_ROWS if events else 0, EV_COLS), np.int32)
        setup = GAME.setup(config)
        pl = new_play(setup, observed_log(rows, n, n, 0), n)  # the log keeps what each seat cannot tell
        (self.st, self.tally, self.rules, self.bd, self.to_west, self.to_east, self.ba, self.br, self.wl,
         self.scratch, self.lg) = pl
        self.work = new_work(setup, n)
        start_berlin(pl, np.uint64(play_key(config.seed, play)))
        place_opening_berlin(pl, self.seats)
        self.turn, self.seat, self.winner = 0, -1, -1

    def play(self, st=None, lg=None, wl=None, scratch=None):
        """The real play (with other state, log, wall or work space if given)."""
        return Play(self.st if st is None else st, self.tally, self.rules, self.bd, self.to_west, self.to_east,
                    self.ba, self.br, self.wl if wl is None else wl, self.scratch if scratch is None else scratch,
                    self.lg if lg is None else lg)

    def _steps(self, rolled):
        return turn_steps(self.play(), self.seats, self.turn, self.seat, rolled, self.lineup.codes, SEARCH)

    def decisions(self):
        """Yields at each decision of a search seat (self.seat, self.turn) and plays on with decide()'s action."""
        n = self.st.hands.shape[0]
        while self.turn < self.max_turns and self.winner < 0:
            self.seat = self.turn % n
            start_turn(self.st, self.seat, self.turn)
            self.wl.bought_piece[:] = 0
            self.wl.bought_hotel[0] = 0
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

    def decide(self, st=None, lg=None, wl=None, scratch=None, budget=None):
        """The search's action for the seat to move (on the real play's arrays unless given others)."""
        p = self.seat
        horizon = int(self.lineup.prm[p, PARAMS.search.horizon])
        stop = min(self.max_turns, self.turn + 1 + horizon) if horizon > 0 else self.max_turns
        at = Decision(self.play(st, lg, wl, scratch), self.seats, self.turn, p, stop, self.work)
        return search_action(at, int(self.lineup.prm[p, PARAMS.search.budget]) if budget is None else budget)

    def scripted_decision(self, st, scratch):
        """What the base policy's own decision writes (the count of the actions and its choice's draws)."""
        p = self.seat
        total = count_berlin(st, self.rules, self.bd, self.ba, self.br, self.wl, scratch, p, self.turn)
        return choose_berlin_action(self.play(st=st, scratch=scratch), self.seats, p, self.seats.codes[p], total)

    def arrays(self):
        """Every array of the real play, by name: the engine's state, tally and work space, the wall, the play's
        board (its land, sea and harbour flags; the two side boards share them), the map's and rules' arrays,
        the event log and the policies (the search's own work space, self.work, is not the play's)."""
        parts = {"st": self.st, "tally": self.tally, "wl": self.wl, "scratch": self.scratch, "bd": self.bd,
                 "to_west": self.to_west, "to_east": self.to_east, "ba": self.ba, "rules": self.rules,
                 "lg": self.lg}
        named = {f"{part}.{field}": a for part, t in parts.items() for field, a in zip(t._fields, t)
                 if isinstance(a, np.ndarray)}
        seats = {f"{part}.{field}": a for part, t in (("seats", self.seats), ("lineup", self.lineup))
                 for field, a in zip(t._fields, t)}
        return named | seats

    def points(self):
        return [int(berlin_points(self.st, self.wl, self.br, q)) for q in range(self.st.hands.shape[0])]


def copied(t):
    return type(t)(*(a.copy() if isinstance(a, np.ndarray) else a for a in t))


SEARCH_TABLE = ["search:budget=8:horizon=3", "specht", "search:budget=6:horizon=2:base=0", "hotelier"]


def test_the_stepped_play_is_the_kernels_play():
    """The harness plays what the search kernel plays (so the states below are real plays' states)."""
    config = RunConfig.build(GAME, players=4, policies=SEARCH_TABLE, plays=2, seed=4)
    seats = GAME.simulate(config, 0, 2, False)["seats"].to_pandas()
    for play in range(2):
        p = SearchPlay(config, play)
        for _ in p.decisions():
            pass
        assert p.points() == list(seats[seats.play_index == play]["points"])


def test_a_search_decision_leaves_the_real_play_as_its_base_policys_decision_does():
    """At many decisions of real plays, every array of the play after the search's decision (the wall and the
    board's flags too, which a rollout's wall piece changes) is byte for byte what its base policy's own decision
    leaves (the list of legal actions in scratch, the sites count_berlin decides, the decision's draws)."""
    config = RunConfig.build(GAME, players=4, policies=SEARCH_TABLE, plays=3, seed=8)
    checked = 0
    for play in range(3):
        p = SearchPlay(config, play)
        for k, _ in enumerate(p.decisions()):
            if k % 5:
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


# --- no peeking (the engine's rule and checks, tests/support/catan_peeking.py) --------------------------------------

NO_PEEK_TABLE = ["search:budget=64:horizon=8", "specht", "random", "builder"]


def decisions_with_views(config, plays, every):
    """Every `every`-th decision of the search seat in `plays` of `config`, with every seat's view fed up to it:
    (the play, the seat, the views)."""
    berlin = _berlin(config.options["map"], config.options["components"])
    for i in plays:
        p = SearchPlay(config, i, events=True)
        views = ObserverViews(MauerspechteReplay(config.players, config.options["layout"], options=config.options),
                              REFERENCE_RESOURCES)
        for k, me in enumerate(p.decisions()):
            if k % every == 0:
                n = int(p.lg.pos[0])
                views.feed(events_table(GAME.rules_version, 0, np.array([n]), p.lg.rows[:n], berlin).to_pylist())
                yield p, me, views


def test_what_each_seat_cannot_tell_follows_from_the_public_events():
    """The play's record of the cards each seat cannot tell is what the public events give (wall pieces, hotels
    and Love Parade payments among them), replayed by the independent reference, at every decision of real
    plays."""
    config = RunConfig.build(GAME, players=4, policies=NO_PEEK_TABLE, plays=3, seed=21)
    checked = untold = 0
    for p, _, views in decisions_with_views(config, range(3), 1):
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
    assert counts["a card stolen between two others"] >= 80, counts
    assert counts["the others' development cards"] >= 100 and counts["the deck's order"] >= 100, counts
    assert counts["its own hand"] > 0 and counts["a card it tells of another's hand"] > 0, counts
