"""Die Mauer's search policy: a rollout from the first Baurunde is the kernel's play, a search play replays alone,
the search never reads what its seat has not seen, and it beats the best heuristic."""

import numpy as np
import pytest

from simlib.core.config import RunConfig
from simlib.core.lineup import Lineup, lineup
from simlib.core.registry import get_game
from simlib.core.rng import play_key
from simlib.games.mauer.play import play_baurunden
from simlib.games.mauer.policies import PARAMS, POLICIES, READER, SEARCH
from simlib.games.mauer.search import determinize, new_work, search_plan
from simlib.games.mauer.state import Events, Setup, State

from support.strength import focal_shares, lower_bound

GAME = get_game("mauer")
PEN = np.array([1, 2, 3, 4, 6, 10, 15], np.int64)
SETUP = Setup(PEN, 500, 1, 0)
NONE = -1


@pytest.mark.parametrize("policies", [["random"], ["reader", "heavy", "hollow", "random"]])
def test_a_rollout_from_the_first_baurunde_is_the_kernels_play(policies):
    config = RunConfig.build(GAME, players=4, policies=policies, plays=60, seed=11, options={"rounds": 1})
    out = GAME._run_kernel(config, 0, 60, False).out
    seats = lineup(config, POLICIES)
    for play in range(60):
        hands = np.ones((4, 7), np.int8)
        st = State(hands, np.zeros((4, 7), np.int8), np.zeros(3, np.int64), np.zeros(4, np.int64),
                   np.zeros(4, np.int64))
        key = np.uint64(play_key(config.seed, play))
        n_br, reason = play_baurunden(st, SETUP, seats, key, np.full(4, NONE, np.int64), 0, 500,
                                      Events(np.zeros((0, 1), np.int32), play, -1, np.zeros((0, 0))))
        assert (n_br, reason) == (out.baurunden[play], out.end_reason[play])
        assert [int((hands[s] * PEN).sum()) for s in range(4)] == list(out.penalties[play])


def test_a_search_play_replays_alone():
    config = RunConfig.build(GAME, players=4, policies=["search:budget=16", "reader", "reader", "reader"], plays=10,
                             seed=3)
    whole = GAME.simulate(config, 0, 10, False)["seats"].to_pandas()
    alone = GAME.simulate(config, 5, 10, False)["seats"].to_pandas()  # the second match of five Spielrunden
    assert list(alone["penalty"]) == list(whole[whole.play_index >= 5]["penalty"])


def _after_a_gift_between_others(held_by_1, held_by_2):
    """Four seats; seat 1 gave a piece to seat 2 (unseen by seats 0 and 3): seat 1 built the wall-1 piece,
    seat 2 the gate; which piece moved is secret."""
    hands = np.ones((4, 7), np.int8)
    built = np.zeros((4, 7), np.int8)
    built[1, 0], built[2, 5] = 1, 1
    hands[1], hands[2] = held_by_1, held_by_2
    gave = np.zeros(4, np.int64)
    gave[1] = 1 << 2
    return hands, built, gave


def test_determinization_deals_only_what_the_seat_has_not_seen():
    # Seat 1 gave its tower: it holds 1-5 crenellations (not the built 1) ... seat 2 holds two towers.
    hands, built, gave = _after_a_gift_between_others([0, 1, 1, 1, 1, 1, 0], [1, 1, 1, 1, 1, 0, 2])
    for r in range(20):
        h = hands.copy()
        determinize(h, built, gave, 0, np.uint64(r))
        assert (h[[0, 3]] == hands[[0, 3]]).all()  # seats no unseen gift touched keep their hands
        assert list(h[1:3].sum(axis=1)) == [5, 7] and (h[1:3].sum(axis=0) == hands[1:3].sum(axis=0)).all()
        assert (h[1] + built[1] <= 1).all()  # the giver received nothing: at most its kit minus what it built
        h = hands.copy()
        determinize(h, built, gave, 1, np.uint64(r))  # the giver knows what it gave
        assert (h == hands).all()


def test_the_search_does_not_read_the_secret_gift():
    # Two states that differ only in which piece seat 1 gave seat 2: seat 0's search plans the same.
    gave_tower = _after_a_gift_between_others([0, 1, 1, 1, 1, 1, 0], [1, 1, 1, 1, 1, 0, 2])
    gave_wall = _after_a_gift_between_others([0, 0, 1, 1, 1, 1, 1], [1, 2, 1, 1, 1, 0, 1])
    any_config = RunConfig.build(GAME, players=4, policies=["random"], plays=1, seed=1, options={"rounds": 1})
    defaults = lineup(any_config, POLICIES).defaults  # every policy's, by code
    prm = np.zeros((4, 5))
    search = PARAMS.search
    prm[0, [search.budget, search.base, search.horizon]] = 32, READER, 0  # to the end
    seats = Lineup(np.full(4, SEARCH, np.int64), prm, defaults)
    work = new_work(4, seats)
    wall = np.array([2, 0, 5], np.int64)
    for key in range(12):  # a search that read the hands (no gift recorded) plans otherwise at keys 5 and 8
        plans = [search_plan(State(h, b, wall.copy(), np.zeros(4, np.int64), g), SETUP, seats, 0, np.uint64(key), 2,
                             work)
                 for h, b, g in (gave_tower, gave_wall)]
        assert plans[0] == plans[1]


def test_the_search_beats_reader_players():
    shares = focal_shares(GAME, 4, "search:budget=16", "reader", 40, 5)
    assert lower_bound(shares) > 0.5  # the fair share is 0.25; at budget 64 the search wins about 0.89 against reader
