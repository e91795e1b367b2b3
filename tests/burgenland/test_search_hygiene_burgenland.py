"""Burgenland's search neither peeks nor touches (issue 35, item 7): at real decisions of real plays, the main
action it chooses does not change when only what the deciding seat has not seen changes (the other seats' colour
cards behind their screens and the face-down pile they were drawn from, which bonus tiles the others hold face
down and the order of the face-down bonus tiles, the master-builder and well cards under their open tops), while a
change it can see (its own hand) changes some; and a decision leaves every array of the real play byte for byte as
it found it."""

from __future__ import annotations

import numpy as np

from simlib.core.config import RunConfig
from simlib.core.lineup import lineup
from simlib.core.rng import play_key
from simlib.games.burgenland import GAME
from simlib.games.burgenland import state as O
from simlib.games.burgenland.constants import EV_COLS, JOKERS, MAX_COINS, N_COLOURS
from simlib.games.burgenland.decisions import DEFAULT_WEIGHTS
from simlib.games.burgenland.play import PLAN_SIZE, Until, play_turns, start_play
from simlib.games.burgenland.policies import BUILDER, POLICIES, SEARCH
from simlib.games.burgenland.rules import BONUS_TOP, MASTER_TOP, WELL_TOP
from simlib.games.burgenland.search import free_actions, new_search_work, search_turn
from simlib.games.burgenland.state import S_REASON, S_TURN, S_WINNER, Events, new_play, new_work

NO_EV = np.zeros((0, EV_COLS), np.int32)
N_CARDS = N_COLOURS * MAX_COINS


class SearchPlay:
    """One play of `config` with search seats, stepped from Python as search.simulate_search_plays plays it:
    `decisions()` stops wherever a search seat is to choose its main action (its free actions played; the real
    play's arrays in hand), `decide()` is the search's choice there. With `leftovers`, the search decides once more
    after each decision, on the play with the seat's own hand otherwise, before the play goes on: the turn's work
    space it shares with the play (wk) then holds another decision's leftovers."""

    def __init__(self, config, play, leftovers=False):
        n = config.players
        self.setup = GAME.kernel_setup(config)
        self.lineup = lineup(config, POLICIES)
        self.free = free_actions(self.lineup)  # as simulate_search_plays
        cards = self.setup.cards
        self.st = new_play(n, len(cards.bonus_effect), len(cards.master_builders))
        self.wk, self.work = new_work(DEFAULT_WEIGHTS), new_search_work(self.st, self.lineup)
        self.plan = np.full(PLAN_SIZE, -1, np.int64)
        self.seat_out, self.n_events = np.zeros((len(O.SEAT_COLUMNS), n), np.int32), np.zeros(1, np.int32)
        self.events = Events(NO_EV, False, self.seat_out, self.n_events, 0, play, np.zeros((0, 0)))
        self.key, self.play, self.leftovers = np.uint64(play_key(config.seed, play)), play, leftovers
        start_play(self.st, self.setup, self.wk.rec, self.key, self.events, 0)

    def _turns(self, planned, limit, stop_code):
        play_turns(self.st, self.wk, self.setup, self.lineup, self.free, self.key,
                   Until(self.plan, planned, limit, stop_code), self.events, 0)

    def decisions(self):
        """Yields at each main action of a search seat (the seat) and plays on with decide()'s."""
        rng = np.random.default_rng(self.play)
        while True:
            self._turns(False, 0, SEARCH)
            if self.st.sc[S_REASON] >= 0:
                return
            seat = int(self.st.sc[S_TURN] % self.st.hands.shape[0])
            yield seat
            self.plan[:] = self.decide()
            if self.leftovers and (control := own_hand_otherwise(self.st, seat, rng)) is not None:
                self.decide(control)
            self._turns(True, 1, -1)

    def decide(self, st=None, key=None):
        """The search's main action for the seat to move, on the real play's arrays unless given others, keyed by
        the play's key unless given another."""
        return search_turn(self.st if st is None else st, self.wk, self.setup, self.lineup,
                           self.key if key is None else np.uint64(key), self.work).copy()

    def arrays(self):
        """Every array of the real play, by name: its state and outputs, the board's, cards' and rules' arrays, the
        policies. Not the play's: the search's own work space (self.work), and the turn's work space it shares with
        the play (self.wk: the event row, builds and payments, which the play writes afresh before it reads them:
        test_the_work_space_the_search_shares_carries_nothing_into_the_play) but for the saver's weights in it."""
        named = {f"{part}.{f}": np.asarray(a) for part, t in (("st", self.st), ("bd", self.setup.bd),
                                                              ("cards", self.setup.cards), ("rules", self.setup.rules),
                                                              ("lineup", self.lineup), ("free", self.free))
                 for f, a in zip(t._fields, t)}
        return named | {"seat_out": self.seat_out, "n_events": self.n_events, "wk.saver_weights": self.wk.saver_weights}


def copied(t):
    return type(t)(*(a.copy() for a in t))


def hidden_otherwise(st, seat, bonus_effect, rng):
    """The same play but for what `seat` has not seen: the other seats' colour cards dealt again from them and the
    face-down pile (each seat keeping its count), the bonus tiles the others hold dealt again from them and the
    face-down tiles (as many each; a jokers tile is never held), the rest the pile in another order, and the
    master-builder and well cards under their open tops (never on top yet) in another order."""
    other = copied(st)
    others = [s for s in range(st.hands.shape[0]) if s != seat]
    unseen = list(rng.permutation(np.repeat(np.arange(N_CARDS), (st.deck + st.hands[others].sum(axis=0)).ravel())))
    for s in others:
        dealt = [unseen.pop() for _ in range(st.hands[s].sum())]
        other.hands[s] = np.bincount(dealt, minlength=N_CARDS).reshape(N_COLOURS, MAX_COINS)
    other.deck[:] = np.bincount(unseen, minlength=N_CARDS).reshape(N_COLOURS, MAX_COINS)
    top = st.pool[BONUS_TOP]
    tiles = list(rng.permutation([*st.bonus_order[top:], *np.flatnonzero(st.tiles_held[others].any(axis=0))]))
    for s in others:
        other.tiles_held[s] = False
        for _ in range(st.tiles_held[s].sum()):
            t = next(t for t in tiles if bonus_effect[t] != JOKERS)
            tiles.remove(t)
            other.tiles_held[s, t] = True
    other.bonus_order[top:] = tiles
    for a, t in ((other.master, st.pool[MASTER_TOP]), (other.well_order, st.pool[WELL_TOP])):
        a[t + 1:] = rng.permutation(a[t + 1:])
    return other


def own_hand_otherwise(st, seat, rng):
    """The control: one colour card of the seat's hand traded for another kind from the face-down pile (the seat
    sees its hand). None if there is none to trade."""
    held, piled = np.flatnonzero(st.hands[seat].ravel()), np.flatnonzero(st.deck.ravel())
    trades = [(c, d) for c in held for d in piled if c != d]
    if not trades:
        return None
    c, d = trades[rng.integers(len(trades))]
    other = copied(st)
    hand, deck = other.hands[seat].reshape(-1), other.deck.reshape(-1)
    hand[c], hand[d], deck[c], deck[d] = hand[c] - 1, hand[d] + 1, deck[c] + 1, deck[d] - 1
    return other


def played_on(p, st):
    """The seats' pieces left after eight more turns of builders from `st`, with the play's draws."""
    st, n = copied(st), st.hands.shape[0]
    builders = p.lineup._replace(codes=np.full(n, BUILDER, np.int64),
                                 params=np.tile(p.lineup.defaults[BUILDER], (n, 1)))
    play_turns(st, p.wk, p.setup, builders, builders, p.key, Until(p.plan.copy(), False, 8, -1), p.events, 0)
    return st.supply


SEARCH_TABLE = ["search:budget=8:horizon=8", "builder", "search:budget=8:horizon=8:base=2", "saver"]


def test_the_stepped_play_is_the_kernels_play():
    """The harness plays what the search kernel plays (so the states below are real plays' states)."""
    config = RunConfig.build(GAME, players=4, policies=SEARCH_TABLE, plays=2, seed=5)
    out = GAME.run_kernel(config, 0, 2)
    for play in range(2):
        p = SearchPlay(config, play)
        for _ in p.decisions():
            pass
        assert (p.st.sc[S_TURN], p.st.sc[S_WINNER]) == (out.turns[play], out.winner[play])
        assert list(p.setup.bd.supply.sum() - p.st.supply.sum(axis=1)) == list(out.seat("placed")[play])


def test_the_work_space_the_search_shares_carries_nothing_into_the_play():
    """The turn's work space the search shares with the play (wk) holding another decision's leftovers at every
    search decision, the plays end as the kernel's: the play reads none of it before writing it."""
    config = RunConfig.build(GAME, players=4, policies=SEARCH_TABLE, plays=2, seed=5)
    out = GAME.run_kernel(config, 0, 2)
    for play in range(2):
        p = SearchPlay(config, play, leftovers=True)
        for _ in p.decisions():
            pass
        assert (p.st.sc[S_TURN], p.st.sc[S_WINNER]) == (out.turns[play], out.winner[play])
        assert (p.st.supply == out.seats[play][O.WALLS_LEFT:O.WALLS_LEFT + 4].T).all()


def test_what_the_seat_has_not_seen_never_changes_its_main_action():
    """At every main action of two search seats in real plays, with three keys each: the other hands, the face-down
    pile, the bonus tiles the others hold and those face down, the master-builder and well cards under their tops
    dealt otherwise never change the action; the seat's own hand otherwise (the control) changes some; and what is
    dealt otherwise matters (the play on from it, with the same draws, goes otherwise at some: a search that read it
    would show)."""
    config = RunConfig.build(GAME, players=4, policies=SEARCH_TABLE, plays=3, seed=7)
    rng = np.random.default_rng(35)
    checked, seen_changes, controls, held_tiles, hidden_matters, decisions = 0, 0, 0, 0, 0, 0
    for play in range(3):
        p = SearchPlay(config, play)
        for k, seat in enumerate(p.decisions()):
            unseen = hidden_otherwise(p.st, seat, p.setup.cards.bonus_effect, rng)
            control = own_hand_otherwise(p.st, seat, rng)
            held_tiles += np.delete(p.st.tiles_held, seat, axis=0).any()
            hidden_matters += not (played_on(p, p.st) == played_on(p, unseen)).all()
            decisions += 1
            for key in (p.key, *rng.integers(1, 2**62, 2)):
                plan = p.decide(copied(p.st), key)
                assert (p.decide(copied(unseen), key) == plan).all(), (play, k, seat, int(key))
                checked += 1
                if control is not None:
                    seen_changes += (p.decide(copied(control), key) != plan).any()
                    controls += 1
    assert checked >= 150 and held_tiles >= 10 and hidden_matters >= 0.3 * decisions
    assert seen_changes >= 0.05 * controls  # the test can fail: what the seat sees does move its action


def test_a_search_decision_leaves_the_real_play_as_it_found_it():
    """At every main action of the search seats in two real plays, every array of the play after the search's
    decision is byte for byte what it was before (the rollouts play on the search's own copy)."""
    config = RunConfig.build(GAME, players=4, policies=SEARCH_TABLE, plays=2, seed=8)
    checked = 0
    for play in range(2):
        p = SearchPlay(config, play)
        for seat in p.decisions():
            before = {name: a.copy() for name, a in p.arrays().items()}
            p.decide()
            after = p.arrays()
            changed = [name for name in after if after[name].tobytes() != before[name].tobytes()]
            assert not changed, (play, int(p.st.sc[S_TURN]), seat, changed)
            checked += 1
    assert checked >= 30
