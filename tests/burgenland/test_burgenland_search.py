"""Burgenland's search policy: a rollout from the deal is exactly the kernel's play, a search play replays alone,
the search never reads what its seat has not seen, and it beats random players by far."""

import numpy as np
import pytest

from simlib.core.config import RunConfig
from simlib.core.lineup import lineup
from simlib.core.rng import play_key
from simlib.games.burgenland import GAME
from simlib.games.burgenland import state as O
from simlib.games.burgenland.constants import EV_COLS
from simlib.games.burgenland.decisions import DEFAULT_WEIGHTS
from simlib.games.burgenland.play import PLAN_SIZE, Until, play_turns, start_play
from simlib.games.burgenland.policies import BUILDER, POLICIES, SEARCH
from simlib.games.burgenland.rules import BONUS_TOP, MASTER_TOP, WELL_TOP
from simlib.games.burgenland.search import Decision, candidates, copy_turn, determinize, new_search_work, search_turn
from simlib.games.burgenland.state import S_PENDING, S_TURN, S_WINNER, Events, new_play, new_work

# The seat outputs the kernel writes at a play's end (the others are added up action by action).
AT_THE_END = [O.PLACED, O.WALLS_LEFT, O.HOUSES_LEFT, O.PALASES_LEFT, O.WELLS_LEFT, O.TURNS, O.CARDS_LEFT,
              O.JOKERS_LEFT]
NO_PLAN = np.full(PLAN_SIZE, -1, np.int64)


class Table:
    """A configuration's kernel inputs, a play's arrays and a search's work space, as the kernel makes them."""

    def __init__(self, policies, players=4, seed=11, **options):
        self.config = RunConfig.build(GAME, players=players, policies=policies, plays=1, seed=seed, options=options)
        self.setup = GAME.kernel_setup(self.config)
        self.lineup = lineup(self.config, POLICIES)
        self.st = new_play(players, len(self.setup.cards.bonus_effect), len(self.setup.cards.master_builders))
        self.wk, self.work = new_work(DEFAULT_WEIGHTS), new_search_work(self.st, self.lineup)
        self.seat_out = np.zeros((len(O.SEAT_COLUMNS), players), np.int32)
        self.events = Events(np.zeros((0, EV_COLS), np.int32), False, self.seat_out, np.zeros(1, np.int32), 0, 0,
                             np.zeros((0, 0)))

    def deal(self, play):
        key = np.uint64(play_key(self.config.seed, play))
        self.seat_out[:] = 0
        self.events = self.events._replace(play=play)
        start_play(self.st, self.setup, self.wk.rec, key, self.events, 0)
        return key

    def play_on(self, st, seats, key, turns=0, stop_code=-1, free=None):
        """Turns of the seats' policies (`seats`, a Lineup; the free actions `free`'s, else theirs) from st: `turns`
        of them (0: to the end), stopping where a seat of policy stop_code is to choose its main action."""
        play_turns(st, self.wk, self.setup, seats, seats if free is None else free, key,
                   Until(NO_PLAN, False, turns, stop_code), self.events, 0)

    def builders(self, codes=None):
        """Every seat a builder at its defaults (`codes`: other policy codes with the builder's parameters)."""
        n = self.st.hands.shape[0]
        return self.lineup._replace(codes=np.full(n, BUILDER, np.int64) if codes is None else codes,
                                    params=np.tile(self.lineup.defaults[BUILDER], (n, 1)))

    def decision(self, st, key):
        """The search's Decision for the seat to move in st (its base policy the builder at its defaults)."""
        n = st.hands.shape[0]
        self.work.rollouts.codes[:] = BUILDER
        self.work.rollouts.params[:] = self.lineup.defaults[BUILDER]
        return Decision(st, self.wk, self.setup, int(st.sc[S_TURN] % n), key, int(st.sc[S_TURN]), 0, self.work)


def _copy(st):
    return type(st)(*(a.copy() for a in st))


@pytest.mark.parametrize("free_well_tile", [False, True])  # both readings of the well marker
@pytest.mark.parametrize("policies", [["random"], ["builder", "saver", "random", "builder"]])
def test_a_rollout_from_the_deal_is_the_kernels_play(policies, free_well_tile):
    options = {"free_well_tile": free_well_tile}
    t = Table(policies, **options)
    out = GAME.run_kernel(RunConfig.build(GAME, players=4, policies=policies, plays=40, seed=11, options=options), 0,
                          40)
    rest = [k for k in range(len(O.SEAT_COLUMNS)) if k not in AT_THE_END]
    for play in range(40):
        key = t.deal(play)
        t.play_on(t.st, t.lineup, key)
        assert (t.st.sc[S_TURN], t.st.sc[S_WINNER]) == (out.turns[play], out.winner[play])
        assert list(t.setup.bd.supply.sum() - t.st.supply.sum(axis=1)) == list(out.seat("placed")[play])
        assert (t.seat_out[rest] == out.seats[play][rest]).all()  # every action accounted alike


@pytest.mark.parametrize("free_well_tile", [False, True])
def test_a_search_play_replays_alone(free_well_tile):
    config = RunConfig.build(GAME, players=4, policies=["builder", "search:budget=8", "builder", "random"], plays=7,
                             seed=3, options={"free_well_tile": free_well_tile})
    whole = GAME.simulate(config, 0, 7, False)["seats"].to_pandas()
    alone = GAME.simulate(config, 4, 5, False)["seats"].to_pandas()
    columns = [c for c in whole.columns if c != "play_index"]
    assert alone[columns].reset_index(drop=True).equals(whole[whole.play_index == 4][columns].reset_index(drop=True))


def _at_a_search_turn(t, play):
    """The play after the first 8, 12, ... turns of builders after which seat 0 (a search seat) has at least three
    main actions to choose from, stopped there (its free actions played)."""
    codes = np.full(4, BUILDER, np.int64)
    codes[0] = SEARCH
    for turns in range(8, 200, 4):
        key = t.deal(play)
        t.play_on(t.st, t.builders(), key, turns)
        t.play_on(t.st, t.builders(codes), key, 0, SEARCH, t.builders())
        assert t.st.sc[S_PENDING] == 1 and t.st.sc[S_TURN] % 4 == 0
        if candidates(t.decision(t.st, key)) >= 3:
            return
    raise AssertionError("no turn with three main actions")


def _what_seat_0_has_not_seen_otherwise(st, rng):
    """The same play but for what seat 0 has not seen: seat 1's cards partly swapped with the face-down pile, the
    face-down bonus tiles' order, the master-builder and well cards under their tops."""
    other = _copy(st)
    held = np.argwhere(other.hands[1] > 0)
    pile = np.argwhere((other.deck > 0) & (other.hands[1] == 0))
    for (c, v), (d, w) in zip(held[:2], pile[:2]):
        other.hands[1, c, v] -= 1
        other.deck[c, v] += 1
        other.hands[1, d, w] += 1
        other.deck[d, w] -= 1
    for a, top in ((other.bonus_order, other.pool[BONUS_TOP]), (other.master, other.pool[MASTER_TOP] + 1),
                   (other.well_order, other.pool[WELL_TOP] + 1)):
        a[top:] = rng.permutation(a[top:])
    return other


def test_the_search_does_not_read_what_its_seat_has_not_seen():
    t = Table(["search:budget=32", "builder", "builder", "builder"])
    for play in range(3):
        _at_a_search_turn(t, play)
        seen = _copy(t.st)
        unseen = _what_seat_0_has_not_seen_otherwise(seen, np.random.default_rng(play))
        assert not all((a == b).all() for a, b in zip(seen, unseen))
        outcomes = set()
        for r in range(12):
            rkey = np.uint64(r + 1000 * play)
            dealt = []
            for st in (seen, unseen):
                at = t.decision(st, rkey)
                copy_turn(at)  # as the search does before each rollout
                determinize(at, rkey)
                dealt.append(_copy(t.work.sim))
            assert all((a == b).all() for a, b in zip(*dealt))  # the re-sampled play is the same
            plans = [list(search_turn(_copy(st), t.wk, t.setup, t.lineup, rkey, t.work)) for st in (seen, unseen)]
            assert plans[0] == plans[1]  # without determinize, they differ at 12 of the 36 keys
            for st in (seen, unseen):  # a search that peeked would play on from the true hidden state
                peek = _copy(st)
                t.play_on(peek, t.builders(), rkey)
                outcomes.add((st is seen, r, peek.sc[S_TURN], peek.sc[S_WINNER]))
        by_state = [{o[1:] for o in outcomes if o[0] == s} for s in (True, False)]
        assert by_state[0] != by_state[1]  # what is hidden changes the rollouts: peeking would show


def _focal_shares(focal, field, plays, seed):
    """Per play, the focal seat's share of the win, at each of the four table positions in turn."""
    shares = []
    for seat in range(4):
        lineup = [field] * 4
        lineup[seat] = focal
        config = RunConfig.build(GAME, players=4, policies=lineup, plays=plays, seed=seed)
        seats = GAME.simulate(config, 0, plays, False)["seats"].to_pandas()
        winners = seats.groupby("play_index").winner.sum().clip(lower=1)
        mine = seats[seats.seat == seat].set_index("play_index")
        shares.extend(mine.winner / winners)
    return np.array(shares, float)


def test_the_search_beats_random_players():
    shares = _focal_shares("search:budget=8", "random", 40, 5)
    lower = shares.mean() - 1.96 * shares.std(ddof=1) / np.sqrt(len(shares))
    assert lower > 0.6  # the fair share is 0.25
