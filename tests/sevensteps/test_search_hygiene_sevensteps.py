"""7 Steps' search neither peeks nor touches (issue 35, item 7): at real decisions of real plays, the turn plan it
chooses does not change when only what the deciding seat has not seen changes (the other seats' hands behind their
screens and the bag they were drawn from, which tiles the others hold face down, the order of the face-down
piles), while a change it can see (its own hand) changes some; and a decision leaves every array of the real play
byte for byte as it found it."""

from __future__ import annotations

import numpy as np

from simlib.core.config import RunConfig
from simlib.core.lineup import Lineup, lineup
from simlib.core.rng import play_key
from simlib.games.sevensteps import GAME
from simlib.games.sevensteps.constants import AID, BONUS, EV_COLS, N_COLOURS
from simlib.games.sevensteps.play import Events, Until, deal, new_turn_work, play_on
from simlib.games.sevensteps.policies import GREEDY, POLICIES, SEARCH
from simlib.games.sevensteps.search import new_work, search_turn
from simlib.games.sevensteps.state import PLAN_WIDTH, S_REASON, S_TURN, new_state

NO_EV = Events(np.zeros((0, EV_COLS), np.int32), 0, -1, np.zeros((0, 0)))


class SearchPlay:
    """One play of `config` with search seats, stepped from Python as search.simulate_search_plays plays it:
    `decisions()` stops wherever a search seat is to move (the real play's arrays in hand), `decide()` is the
    search's turn plan there."""

    def __init__(self, config, play):
        self.setup, self.lineup = GAME.kernel_setup(config), lineup(config, POLICIES)
        sizes = len(self.setup.tiles.aid_effect), len(self.setup.tiles.bonus_measure)
        self.st = new_state(config.players, *sizes)
        self.work = new_work(config.players, *sizes, self.lineup)  # the search's own work space
        self.key, self.play = np.uint64(play_key(config.seed, play)), play
        deal(self.st, *sizes, self.key)

    def play_on(self, plan, turns, stop_code):
        play_on(self.st, self.setup, self.lineup, self.key, plan, Until(turns, stop_code), NO_EV, self.work.turn)

    def decisions(self):
        """Yields at each turn of a search seat (the seat) and plays on with decide()'s plan."""
        no_plan = np.zeros(PLAN_WIDTH, np.int64)
        while self.st.sc[S_REASON] < 0:
            self.play_on(no_plan, 0, SEARCH)
            if self.st.sc[S_REASON] < 0:
                yield int(self.st.sc[S_TURN] % self.st.hands.shape[0])
                self.play_on(self.decide(), 1, -1)

    def decide(self, st=None, key=None):
        """The search's turn plan for the seat to move, on the real play's arrays unless given others, keyed by the
        play's key unless given another."""
        c = search_turn(self.st if st is None else st, self.setup, self.lineup,
                        self.key if key is None else np.uint64(key), self.work)
        return self.work.cand[c].copy()

    def arrays(self):
        """Every array of the real play, by name: its state, the board's and tiles' arrays, the policies (the
        search's own work space, self.work, is not the play's)."""
        board, tiles, rules = self.setup
        parts = ("st", self.st), ("bd", board), ("ta", tiles), ("lineup", self.lineup)
        named = {f"{part}.{f}": a for part, t in parts for f, a in zip(t._fields, t)}
        return named | {"rules.tile_threshold": np.int64(rules.tile_threshold)}


def copied(t):
    return type(t)(*(a.copy() for a in t))


def hidden_otherwise(st, seat, rng):
    """The same play but for what `seat` has not seen: the other hands dealt again from the discs it cannot see
    (the bag and those hands, each hand keeping its size), the tiles the others hold dealt again from those and
    the face-down pile of their kind, each pile in another order."""
    other = copied(st)
    others = [t for t in range(st.hands.shape[0]) if t != seat]
    unseen = np.repeat(np.arange(N_COLOURS), st.bag + st.hands[others].sum(axis=0))
    unseen = list(rng.permutation(unseen))
    for t in others:
        other.hands[t] = np.bincount([unseen.pop() for _ in range(st.hands[t].sum())], minlength=N_COLOURS)
    other.bag[:] = np.bincount(unseen, minlength=N_COLOURS)
    for kind in (AID, BONUS):
        holders = [t for t in others if st.held[t, kind] >= 0]
        tiles = rng.permutation([*st.piles[kind, :st.n_piles[kind]], *st.held[holders, kind]])
        other.held[holders, kind] = tiles[:len(holders)]
        other.piles[kind, :st.n_piles[kind]] = tiles[len(holders):]
    return other


def own_hand_otherwise(st, seat, rng):
    """The control: one disc of the seat's hand traded for one of another colour from the bag (the seat sees its
    hand). None if there is none to trade."""
    held, bagged = np.flatnonzero(st.hands[seat]), np.flatnonzero(st.bag)
    trades = [(c, d) for c in held for d in bagged if c != d]
    if not trades:
        return None
    c, d = trades[rng.integers(len(trades))]
    other = copied(st)
    other.hands[seat, c] -= 1
    other.hands[seat, d] += 1
    other.bag[c] += 1
    other.bag[d] -= 1
    return other


def played_on(p, st):
    """The seats' outputs after eight more turns of greedy seats from `st`, with the play's draws."""
    st, n, defaults = copied(st), len(p.lineup.codes), p.lineup.defaults
    greedy = Lineup(np.full(n, GREEDY), np.tile(defaults[GREEDY], (n, 1)), defaults)
    play_on(st, p.setup, greedy, p.key, np.zeros(PLAN_WIDTH, np.int64), Until(8, -1), NO_EV, new_turn_work())
    return st.seat_out


SEARCH_TABLE = ["search:budget=8:horizon=4", "climber", "search:budget=8:horizon=4:base=2", "greedy"]


def test_the_stepped_play_is_the_kernels_play():
    """The harness plays what the search kernel plays (so the states below are real plays' states)."""
    config = RunConfig.build(GAME, players=4, policies=SEARCH_TABLE, plays=2, seed=5)
    out = GAME.run_kernel(config, 0, 2)
    for play in range(2):
        p = SearchPlay(config, play)
        for _ in p.decisions():
            pass
        assert p.st.sc[S_TURN] == out.turns[play]
        assert (p.st.seat_out == out.seats[play]).all()


def test_what_the_seat_has_not_seen_never_changes_its_plan():
    """At every turn of two search seats in six real plays, with four keys each: the other hands, the bag,
    the others' tiles and the piles' order dealt otherwise never change the plan; the seat's own hand otherwise
    (the control) changes some; and what is dealt otherwise matters (the play on from it, with the same draws,
    goes otherwise at some turns: a search that read it would show)."""
    config = RunConfig.build(GAME, players=4, policies=SEARCH_TABLE, plays=6, seed=7)
    rng = np.random.default_rng(35)
    checked, seen_changes, controls, held_tiles, hidden_matters = 0, 0, 0, 0, 0
    for play in range(6):
        p = SearchPlay(config, play)
        for k, seat in enumerate(p.decisions()):
            unseen, control = hidden_otherwise(p.st, seat, rng), own_hand_otherwise(p.st, seat, rng)
            held_tiles += (np.delete(p.st.held, seat, axis=0) >= 0).any()
            hidden_matters += not (played_on(p, p.st) == played_on(p, unseen)).all()
            for key in (p.key, *rng.integers(1, 2**62, 3)):
                plan = p.decide(copied(p.st), key)
                assert (p.decide(copied(unseen), key) == plan).all(), (play, k, seat, int(key))
                checked += 1
                if control is not None:
                    seen_changes += (p.decide(copied(control), key) != plan).any()
                    controls += 1
    assert checked >= 300 and held_tiles >= 40 and hidden_matters >= 0.5 * checked / 4
    assert seen_changes >= 0.1 * controls  # the test can fail: what the seat sees does move its plan


def test_a_search_decision_leaves_the_real_play_as_it_found_it():
    """At every turn of the search seats in four real plays, every array of the play after the search's decision is
    byte for byte what it was before (the rollouts play on the search's own copy)."""
    config = RunConfig.build(GAME, players=4, policies=SEARCH_TABLE, plays=4, seed=8)
    checked = 0
    for play in range(4):
        p = SearchPlay(config, play)
        for seat in p.decisions():
            before = {name: np.asarray(a).copy() for name, a in p.arrays().items()}
            p.decide()
            after = p.arrays()
            changed = [name for name in after if np.asarray(after[name]).tobytes() != before[name].tobytes()]
            assert not changed, (play, int(p.st.sc[S_TURN]), seat, changed)
            checked += 1
    assert checked >= 50
