"""7 Steps' search policy: a rollout plays exactly the kernel's play, the search replays alone, and it beats
random play."""

import numpy as np
import pytest

from simlib.core.config import RunConfig
from simlib.core.lineup import Lineup, lineup
from simlib.core.rng import play_key
from simlib.core.search import rollout_key
from simlib.games.sevensteps import GAME
from simlib.games.sevensteps.constants import AID, EV_COLS
from simlib.games.sevensteps.play import Events, Until, deal, new_turn_work, play_on
from simlib.games.sevensteps.policies import GREEDY, PARAMS, POLICIES, SEARCH
from simlib.games.sevensteps.search import Decision, candidates, new_work, redeal, search_turn
from simlib.games.sevensteps.state import PL_AID, PLAN_WIDTH, S_TURN, new_state


class Play:
    """A play's blocks' inputs for `config`, and its state after the deal."""

    def __init__(self, config, play):
        self.setup, self.lineup = GAME.kernel_setup(config), lineup(config, POLICIES)
        sizes = len(self.setup.tiles.aid_effect), len(self.setup.tiles.bonus_measure)
        self.st = new_state(config.players, *sizes)
        self.work = new_work(config.players, *sizes, self.lineup)
        self.key = np.uint64(play_key(config.seed, play))
        deal(self.st, *sizes, self.key)

    def play_on(self, turns, plan=None):
        plan = np.zeros(PLAN_WIDTH, np.int64) if plan is None else plan
        play_on(self.st, self.setup, self.lineup, self.key, plan, Until(turns, -1),
                Events(np.zeros((0, EV_COLS), np.int32), 0, -1, np.zeros((0, 0))), new_turn_work())

    def search(self, **params):
        """The plan of a search seat (every seat one, with `params` for its defaults) at this point of the play."""
        prm = np.tile(self.lineup.defaults[SEARCH], (len(self.lineup.codes), 1))
        for name, value in params.items():
            prm[:, getattr(PARAMS.search, name)] = value
        seats = Lineup(np.full(len(self.lineup.codes), SEARCH), prm, self.lineup.defaults)
        return self.work.cand[search_turn(self.st, self.setup, seats, self.key, self.work)].copy()


@pytest.mark.parametrize("policies, options", [
    (["random"], {}), (["greedy", "climber", "random", "greedy:reach=2"], {}),
    (["greedy", "climber", "random", "greedy"], {"side": "back", "first_disc": "colour", "threshold_counts": "total"}),
])
def test_a_rollout_from_the_deal_is_the_kernels_play(policies, options):
    players = len(policies) if len(policies) > 1 else 3
    config = RunConfig.build(GAME, players=players, policies=policies, plays=30, seed=11, options=options)
    out = GAME.run_kernel(config, 0, 30)
    for play in range(30):
        p = Play(config, play)
        p.play_on(0)
        assert p.st.sc[S_TURN] == out.turns[play]
        assert (p.st.seat_out == out.seats[play]).all()  # scores, tiles, discs, ... of every seat


def test_the_search_plays_its_build_aid_tile_where_greedy_keeps_it_and_the_rollouts_say_so():
    # Play 0 of seed 5 at turn 8 (rules version 3's draws; at version 1 it was turn 4): greedy (the base) keeps its
    # build-aid tile, a candidate plays it, and 1,024 rollouts to the end choose that candidate.
    config = RunConfig.build(GAME, players=4, policies=["greedy"], plays=1, seed=5)
    p = Play(config, 0)
    p.play_on(8)
    chains = int(p.lineup.defaults[SEARCH, PARAMS.search.chains])
    k = candidates(Decision(p.st, p.setup, p.key, 0, GREEDY, 0, chains, p.work))  # the base policy's plan first
    cand = p.work.cand
    assert cand[0, PL_AID] == 0 and cand[:k, PL_AID].any()
    assert p.search(horizon=0, budget=1024)[PL_AID] == 1


def test_the_search_does_not_peek_at_the_others_hands_and_tiles():
    """Two states that differ only in what seat 0 has not seen (a disc of another hand swapped with one in the
    bag, a tile another seat holds swapped with one in its pile) are determinized alike and give the same
    plan."""
    config = RunConfig.build(GAME, players=4, policies=["greedy"], plays=1, seed=1)
    p = Play(config, 0)
    while not ((p.st.held[1:, AID] >= 0).any() and p.st.n_piles[AID] > 0):
        p.play_on(4)  # whole rounds: seat 0 is to move
    seen = copy_state_of(p.st)
    other = int(np.flatnonzero(p.st.held[:, AID] >= 0)[-1])
    p.st.held[other, AID], p.st.piles[AID, 0] = p.st.piles[AID, 0], p.st.held[other, AID]
    c, d = int(np.flatnonzero(p.st.hands[other])[0]), int(np.flatnonzero(p.st.bag)[-1])
    assert c != d
    p.st.hands[other, c] -= 1
    p.st.hands[other, d] += 1
    p.st.bag[c] += 1
    p.st.bag[d] -= 1
    for j in range(5):
        key = np.uint64(rollout_key(p.key, 0, j))
        a, b = copy_state_of(seen), copy_state_of(p.st)
        redeal(a, 0, key)
        redeal(b, 0, key)
        assert all((x == y).all() for x, y in zip(a, b))
    plans = []
    for st in (seen, p.st):
        p.st = st
        plans.append(p.search(budget=32))
    assert (plans[0] == plans[1]).all()


def copy_state_of(st):
    return type(st)(*(a.copy() for a in st))


def test_a_search_play_replays_alone():
    config = RunConfig.build(GAME, players=4, policies=["greedy", "search:budget=12", "random", "climber"], plays=7,
                             seed=3)
    whole = GAME.simulate(config, 0, 7, False)["seats"].to_pandas()
    alone = GAME.simulate(config, 4, 5, False)["seats"].to_pandas()
    columns = [c for c in whole.columns if c != "play_index"]
    assert alone[columns].reset_index(drop=True).equals(whole[whole.play_index == 4][columns].reset_index(drop=True))


def test_the_search_beats_random_players():
    shares = []
    for seat in range(4):
        lineup = ["random"] * 4
        lineup[seat] = "search:budget=8:base=0"
        config = RunConfig.build(GAME, players=4, policies=lineup, plays=25, seed=5)
        seats = GAME.simulate(config, 0, 25, False)["seats"].to_pandas()
        winners = seats.groupby("play_index").winner.sum()
        mine = seats[seats.seat == seat].set_index("play_index")
        shares.extend(mine.winner / winners)
    shares = np.array(shares, float)
    low = shares.mean() - 1.96 * shares.std(ddof=1) / np.sqrt(len(shares))
    assert low > 0.6  # random's fair share is 0.25
