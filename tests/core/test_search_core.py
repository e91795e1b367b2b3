"""simlib/core/search.py, the game-agnostic half of the search policies: the rollouts' keys, successive
halving's schedule, the incumbent rule, the win share."""

import pickle

import numba as nb
import numpy as np
import pytest

from simlib.core import search
from simlib.core.blocks import block
from simlib.core.rng import draw, play_key
from simlib.core.rollout_decider import rollout_decider
from simlib.games.mauerbruch import search as mauerbruch_search


def _decide(values, budget, incumbent=-1, z=1.0, noise=None):
    """Run a decision whose rollouts of candidate c are worth values[c] (plus noise[c][j] for its j-th);
    returns (the choice, rollouts per candidate)."""
    plan, stats = search.plan_arrays()
    search.start_plan(len(values), budget, incumbent, plan, stats)
    while (c := search.next_rollout(plan, stats)) >= 0:
        j = int(stats[search.V_COUNT, c])
        search.record(plan, stats, c, values[c] + (noise[c][j % len(noise[c])] if noise is not None else 0.0))
    return search.best_candidate(plan, stats, np.uint64(7), z), stats[search.V_COUNT, :len(values)].copy()


def test_rollout_keys_are_apart_from_the_plays_draws_and_from_each_other():
    key = play_key(1, 2)
    keys = {int(search.rollout_key(key, d, r)) for d in range(20) for r in range(50)}
    assert len(keys) == 1000
    assert keys.isdisjoint({int(draw(key, i)) for i in range(100_000)})
    assert search.rollout_key(key, 3, 4) == search.rollout_key(key, 3, 4)  # a pure function: replays alone


def test_halving_finds_the_best_of_many_within_the_budget():
    values = np.linspace(0.0, 1.0, 37)[np.random.default_rng(0).permutation(37)]
    best, counts = _decide(values, 256)
    assert best == int(np.argmax(values))
    assert counts.sum() <= 256 + 37  # each candidate at least once, then the budget
    assert counts[best] == counts.max() and counts[np.argmin(values)] < counts.max()  # the budget went to the good


def test_one_candidate_takes_no_rollout():
    best, counts = _decide(np.array([0.3]), 64)
    assert best == 0 and counts.sum() == 0


def test_the_incumbent_stays_unless_beaten_by_z_standard_errors():
    coin = [[1.0, 0.0]]  # every candidate's rollouts alternate 1, 0 around its value
    close = np.array([0.50, 0.52, 0.49])
    assert _decide(close - 0.5, 16, incumbent=0, noise=coin * 3)[0] == 0  # 2 points: within the noise
    assert _decide(close - 0.5, 16, incumbent=-1, noise=coin * 3)[0] == 1  # without one, the best mean
    far = np.array([0.1, 0.9, 0.2])
    assert _decide(far, 64, incumbent=0, noise=[[0.0]] * 3)[0] == 1  # clearly better: switched
    counts = _decide(np.array([0.0, 1.0, 1.0, 1.0]), 64, incumbent=0)[1]
    assert counts[0] == counts.max()  # never halved away


def test_win_share_splits_ties():
    assert search.win_share(np.array([5, 9, 9, 2]), 1) == 0.5
    assert search.win_share(np.array([5, 9, 8, 2]), 1) == 1.0
    assert search.win_share(np.array([5, 9, 8, 2]), 0) == 0.0


def test_a_block_pickles_by_name():
    """A rollout decider is cached under the pickle of the blocks it closes over: the same bytes in every process."""
    assert pickle.loads(pickle.dumps(mauerbruch_search.candidates)) is mauerbruch_search.candidates
    assert b"mauerbruch.search" in pickle.dumps(mauerbruch_search.candidates)


def test_a_decider_takes_blocks_only():
    """A plain dispatcher pickles with an id drawn per process: its decider would be compiled in every process."""
    blocks = [block()(lambda at: 0) for _ in range(6)]
    with pytest.raises(TypeError, match="@block"):
        rollout_decider(nb.njit(lambda at: 0), *blocks[1:])
