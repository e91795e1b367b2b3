"""The Catan engine as blocks a scenario composes (issue 10): the rules' numbers are inputs, families are
data, and the dice are two."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from simlib.core.config import RunConfig
from simlib.games.catan import GAME
from simlib.games.catan import constants as C
from simlib.games.catan.board import load_board
from simlib.games.catan.policies import WEIGHT_GROUPS as WEIGHTS
from simlib.games.catan.policies import family_weights
from simlib.games.catan.state import Rules, board_arrays


def simulate(rules: Rules, plays=60, players=4, policies=("random",), seed=3):
    """The kernel straight, with these rules (what a scenario does with its own numbers)."""
    from simlib.core.tables import no_standings
    from simlib.games.catan.kernel import simulate_games

    config = RunConfig.build(GAME, players=players, policies=list(policies), plays=plays, seed=seed)
    return simulate_games(seed, 0, plays, 1000, GAME.seat_policies(config), board_arrays(load_board("standard")), rules,
                          *no_standings(players), np.zeros((0, C.EV_COLS), np.int32), np.zeros(0, np.int64))


def published(**changes) -> Rules:
    rules = Rules(C.WIN_POINTS, np.array(list(C.PIECES.values()), np.int64), C.BANK_PER_RESOURCE,
                  np.array(C.COST_ROWS, np.int64), np.array(C.DEV_DECK, np.int64))
    return rules._replace(**changes)


def test_the_win_threshold_is_an_input():
    out = simulate(published(win_points=6))
    won = out.end_reason == C.WON
    assert won.all()  # 6 points come long before the turn limit
    winners = out.points[np.arange(len(won)), out.winner]
    assert (winners >= 6).all() and (winners < 10).all()  # stopped at 6: one step adds at most 3 points


def test_the_piece_limits_are_inputs():
    out = simulate(published(piece_limits=np.array([3, 2, 6, 4], np.int64)))
    assert out.pieces.reshape(-1, 4).max(axis=0).tolist() == [3, 2, 6, 4]  # reached, never passed


def test_the_bank_size_is_an_input():
    out = simulate(published(bank_size=7))
    cards = out.hands.sum(axis=1) + out.bank  # every card is in a hand or the bank
    assert (cards == 7).all()


def test_the_costs_are_inputs():
    costs = np.array(C.COST_ROWS, np.int64)
    costs[C.PAY_CITY] = [0, 0, 0, C.BANK_PER_RESOURCE + 1, 0]  # more grain than there is: no city
    out = simulate(published(costs=costs), plays=20)
    assert out.pieces[:, :, 1].max() == 0
    assert simulate(published(), plays=20).pieces[:, :, 1].max() > 0


def test_the_deck_is_an_input():
    out = simulate(published(dev_deck=np.array([0, 3, 0, 0, 0], np.int64)), plays=40)
    assert out.dev_cards[:, :, 0].sum(axis=1).max() == 3  # only three cards to buy
    assert (out.knights == 0).all()
    assert out.vp_cards.sum(axis=1).max() == 3


def test_a_scenarios_own_family_weighs_as_other_unless_it_says():
    weights = family_weights(C.FAMILIES + ("build_hotel",))
    assert len(weights) == C.N_FAMILIES + 1
    assert WEIGHTS[weights[-1]] == "other"
    assert [WEIGHTS[w] for w in weights[:6]] == ["end_turn", "road", "ship", "settlement", "city", "dev_card"]


def test_locate_finds_the_family_where_the_running_count_passes_k():
    from simlib.games.catan.legal import locate

    counts = np.array([1, 0, 3, 2], np.int64)
    assert [locate(counts, k) for k in range(6)] == [(0, 0), (2, 0), (2, 1), (2, 2), (3, 0), (3, 1)]


@pytest.fixture(scope="module")
def rolls():
    config = RunConfig.build(GAME, players=4, policies=["random"], plays=40, seed=23)
    events = GAME.simulate(config, 0, 40, events=True)["events"].to_pandas()
    return events[events["action"] == "roll"][["dice", "die_1", "die_2"]]


def test_both_dice_are_kept_and_make_the_sum(rolls):
    assert rolls["die_1"].between(1, 6).all() and rolls["die_2"].between(1, 6).all()
    assert (rolls["die_1"] + rolls["die_2"] == rolls["dice"]).all()


def test_doubles_come_one_roll_in_six(rolls):
    doubles = int((rolls["die_1"] == rolls["die_2"]).sum())
    assert stats.binomtest(doubles, len(rolls), 1 / 6).pvalue > 0.001


def test_the_victory_points_option_reaches_the_rules():
    config = RunConfig.build(GAME, players=3, policies=["random"], plays=30, seed=9, options={"victory_points": 6})
    games = GAME.simulate(config, 0, 30, events=False)["games"].to_pandas()
    assert games["completed"].all()
    won = [points[winners[0]] for points, winners in zip(games["final_points"], games["winners"])]
    assert min(won) >= 6 and max(won) < 10


def test_rules_of_the_wrong_shape_are_refused():
    from simlib.core.errors import SimlibError
    from simlib.games.catan.state import check_rules

    for wrong in (published(dev_deck=np.array([14, 5, 2, 2], np.int64)),
                  published(piece_limits=np.array([5, 4, 40, 40], np.int64)),
                  published(costs=np.zeros((4, 5), np.int64))):
        with pytest.raises(SimlibError, match="Catan rules"):
            check_rules(wrong)
    assert check_rules(published()) is not None
