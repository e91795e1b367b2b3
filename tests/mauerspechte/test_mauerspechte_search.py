"""Die Mauerspechte's search policy: a copy of the wall is the wall, a rollout from the opening with the seats'
policies is the kernel's play, a search play replays alone, and it beats random players. (Table digests pin the
kernel's plays, and Catan's tests the determinization it shares.)"""

import numpy as np
import pytest

from simlib.core.config import RunConfig
from simlib.core.registry import get_game
from simlib.games.mauerspechte.state import copy_wall, new_wall

from support.strength import focal_shares, lower_bound

GAME = get_game("mauerspechte")


def test_a_copy_of_the_wall_holds_every_field():
    src, dst = new_wall(4), new_wall(4)
    rng = np.random.default_rng(3)
    for field in src:
        field[...] = rng.integers(1, 100, field.shape).astype(field.dtype)
    copy_wall(src, dst)
    for name, a, b in zip(src._fields, src, dst):
        assert (a == b).all(), name


def test_a_search_play_replays_alone():
    config = RunConfig.build(GAME, players=4, policies=["search:budget=8", "builder", "builder", "builder"], plays=5,
                             seed=3)
    whole = GAME.simulate(config, 0, 5, False)["seats"].to_pandas()
    alone = GAME.simulate(config, 3, 4, False)["seats"].to_pandas()
    assert list(alone["points"]) == list(whole[whole.play_index == 3]["points"])


def test_the_search_beats_random_players():
    shares = focal_shares(GAME, 4, "search:budget=8", "random", 10, 5)
    assert lower_bound(shares) > 0.5  # the fair share is 0.25


@pytest.mark.parametrize("policies", [["random"], ["specht", "builder", "random", "hotelier"]])
def test_a_rollout_from_the_opening_with_the_seats_policies_is_the_kernels_play(policies):
    from simlib.games.mauerspechte.search import play_from_opening

    config = RunConfig.build(GAME, players=4, policies=policies, plays=20, seed=7)
    out = GAME.run_kernel(config, 0, 20).base
    turns, winners = play_from_opening(config.seed, 0, 20, config.options["max_turns"], GAME.seat_policies(config),
                                       GAME.setup(config), False)
    assert list(turns) == list(out.turns) and list(winners) == list(out.winner)
