"""Mauerbruch's search policy: a rollout plays exactly the kernel's play, the search replays alone, and it beats
random play."""

import numpy as np
import pytest

from simlib.core.config import RunConfig
from simlib.core.lineup import lineup
from simlib.core.registry import get_game
from simlib.core.rng import play_key
from simlib.games.mauerbruch.constants import EV_COLS
from simlib.games.mauerbruch.play import TO_THE_END, Events, deal, play_on
from simlib.games.mauerbruch.state import S_TAKE, new_pairs, new_state

from support.strength import focal_shares, lower_bound

GAME = get_game("mauerbruch")


@pytest.mark.parametrize("policies", [["random"], ["greedy", "cautious", "random", "cautious"]])
def test_a_rollout_from_the_deal_is_the_kernels_play(policies):
    config = RunConfig.build(GAME, players=len(policies) if len(policies) > 1 else 3, policies=policies, plays=40,
                             seed=11)
    out = GAME._run_kernel(config, 0, 40, False)[0].out
    setup, seats = GAME.kernel_setup(config), lineup(config, GAME.policy_catalogue)
    n_cards = len(setup.cards.kinds)
    st, pw = new_state(config.players, n_cards, setup.sizes.max()), new_pairs()
    order, no_plan = np.empty(n_cards, np.int16), np.full(3, -1)
    quiet = Events(np.zeros((0, EV_COLS), np.int32), 0, -1, np.zeros((0, 0)))
    for play in range(40):
        key = np.uint64(play_key(config.seed, play))
        deal(st, key, setup.sizes, order)
        play_on(st, setup, pw, seats, key, no_plan, TO_THE_END, quiet)
        assert list(st.pile_n) == list(out.piles[play]) and st.sc[S_TAKE] == out.takes[play]


def _search_run(plays, seed=3):
    return RunConfig.build(GAME, players=4, policies=["search:budget=16", "random", "random", "random"], plays=plays,
                           seed=seed)


def test_a_search_play_replays_alone():
    config = _search_run(6)
    whole = GAME.simulate(config, 0, 6, False)["seats"].to_pandas()
    alone = GAME.simulate(config, 4, 5, False)["seats"].to_pandas()
    assert list(alone["cards"]) == list(whole[whole.play_index == 4]["cards"])


def test_the_search_beats_random_players():
    shares = focal_shares(GAME, 4, "search:budget=16", "random", 40, 5)
    assert lower_bound(shares) > 0.5  # random's fair share is 0.25; the search at budget 64 wins about 0.86
