"""simlib/core/lineup.py: the seats' policies as kernel arrays, their parameters read by name."""

import pytest

from simlib.core.config import PolicyInfo, RunConfig
from simlib.core.lineup import lineup, parameter_index, shared_position
from simlib.games.mauerbruch import GAME
from simlib.games.mauerbruch.policies import CAUTIOUS, PARAMS, POLICIES, SEARCH


def test_a_kernel_reads_each_parameter_where_the_lineup_put_it():
    config = RunConfig.build(GAME, players=3, plays=1, seed=1,
                             policies=["cautious:epsilon=0.25:break_margin=7", "search:budget=9:horizon=4", "random"])
    seats = lineup(config, POLICIES)
    assert seats.codes.tolist() == [CAUTIOUS, SEARCH, POLICIES["random"].code]
    assert seats.params[0, PARAMS.cautious.epsilon] == 0.25 and seats.params[0, PARAMS.cautious.break_margin] == 7
    assert seats.params[1, PARAMS.search.budget] == 9 and seats.params[1, PARAMS.search.horizon] == 4
    assert seats.params[1, PARAMS.search.base] == POLICIES["search"].params["base"]  # a default filled in
    assert seats.defaults[SEARCH, PARAMS.search.budget] == POLICIES["search"].params["budget"]
    assert seats.params.shape[1] == max(len(info.params) for info in POLICIES.values())


def test_a_shared_read_needs_one_position():
    a = PolicyInfo("a", 0, "", {"epsilon": 0.1, "depth": 2.0})
    b = PolicyInfo("b", 1, "", {"epsilon": 0.2})
    c = PolicyInfo("c", 2, "", {"depth": 3.0, "epsilon": 0.3})
    assert shared_position({"a": a, "b": b}, "epsilon") == 0
    with pytest.raises(ValueError, match="epsilon"):
        shared_position({"a": a, "b": b, "c": c}, "epsilon")
    assert parameter_index({"a": a, "c": c}).c.epsilon == 1
