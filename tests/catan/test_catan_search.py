"""Catan's search policy: a copy of the state is the state, a rollout from the opening with the seats' policies is
the kernel's play, a search play replays alone, the search never reads the cards its seat has not seen, and it
beats random players."""

import numpy as np
import pytest

from simlib.core.config import RunConfig
from simlib.core.registry import get_game
from simlib.games.catan.constants import BANK_PER_RESOURCE, EV_COLS, N_DEV
from simlib.games.catan.search import determinize, play_from_opening
from simlib.games.catan.state import board_arrays, copy_state, new_state, observed_log, published_rules

from support.strength import focal_shares, lower_bound

GAME = get_game("catan")


def _board_and_rules(config):
    from simlib.games.catan import _board

    return (board_arrays(_board(config.options["map"])),
            published_rules(config.options["victory_points"], BANK_PER_RESOURCE))


def test_a_copy_of_the_state_holds_every_field():
    config = RunConfig.build(GAME, players=4, policies=["random"], plays=1, seed=1)
    bd, rules = _board_and_rules(config)
    src, dst = new_state(bd, rules, 4), new_state(bd, rules, 4)
    rng = np.random.default_rng(3)
    for field in src:
        field[...] = rng.integers(1, 100, field.shape).astype(field.dtype)
    copy_state(src, dst)
    for name, a, b in zip(src._fields, src, dst):
        assert (a == b).all(), name


@pytest.mark.parametrize("policies", [["random"], ["builder", "weighted", "random", "builder"]])
def test_a_rollout_from_the_opening_is_the_kernels_play(policies):
    config = RunConfig.build(GAME, players=4, policies=policies, plays=30, seed=11)
    out = GAME.run_kernel(config, 0, 30)
    bd, rules = _board_and_rules(config)
    seats = GAME.seat_policies(config)
    turns, winners, points = play_from_opening(config.seed, 0, 30, config.options["max_turns"], seats, bd, rules, False)
    assert list(turns) == list(out.turns) and list(winners) == list(out.winner)
    assert (points == out.points).all()


def test_a_search_play_replays_alone():
    config = RunConfig.build(GAME, players=4, policies=["search:budget=8", "builder", "builder", "builder"], plays=6,
                             seed=3)
    whole = GAME.simulate(config, 0, 6, False)["seats"].to_pandas()
    alone = GAME.simulate(config, 4, 5, False)["seats"].to_pandas()
    assert list(alone["points"]) == list(whole[whole.play_index == 4]["points"])


def _hidden_cards(swap):
    """A state in play: seat 1 holds a knight or (swap) the victory-point card that is otherwise the deck's next."""
    config = RunConfig.build(GAME, players=4, policies=["random"], plays=1, seed=1)
    bd, rules = _board_and_rules(config)
    st = new_state(bd, rules, 4)
    st.deck[:] = np.sort(np.arange(st.deck.shape[0]) % N_DEV)
    st.deck_pos[0] = 3
    st.dev_hand[0, 2], st.dev_hand[1, 0] = 1, 1  # seat 0's own card, seat 1's knight
    st.deck[3] = 4  # the deck's next card: a victory point
    if swap:
        st.dev_hand[1, 0], st.dev_hand[1, 4] = 0, 1
        st.deck[3] = 0  # ... and the knight is in the deck instead
    return st


def test_determinization_reads_only_what_the_seat_has_seen():
    for key in range(10):
        a, b = _hidden_cards(False), _hidden_cards(True)
        assert not (a.dev_hand == b.dev_hand).all()
        no_record = observed_log(np.zeros((0, EV_COLS), np.int32), 0, 4, 0)  # nothing robbed between two others
        determinize(a, no_record, 0, np.uint64(key), np.zeros(a.deck.shape[0], np.int64))
        determinize(b, no_record, 0, np.uint64(key), np.zeros(b.deck.shape[0], np.int64))
        assert (a.dev_hand == b.dev_hand).all() and (a.deck == b.deck).all()
        assert a.dev_hand[0, 2] == 1 and a.dev_hand[1].sum() == 1 and a.dev_hand[2:].sum() == 0


def test_the_search_beats_random_players():
    shares = focal_shares(GAME, 4, "search:budget=8", "random", 10, 5)
    assert lower_bound(shares) > 0.5  # the fair share is 0.25; at budget 32 it wins 42% against builder players
