"""Test helper: one focal policy against a field of another, seats rotated; the focal seat's win shares."""

import numpy as np

from simlib.core.config import RunConfig


def focal_shares(game, players, focal, field, plays, seed, options=None):
    """Per play (plays at each of the players table positions), the focal seat's share of the win (0 where
    nobody won)."""
    shares = []
    for seat in range(players):
        lineup = [field] * players
        lineup[seat] = focal
        config = RunConfig.build(game, players=players, policies=lineup, plays=plays, seed=seed, options=options)
        seats = game.simulate(config, 0, plays, False)["seats"].to_pandas()
        winners = seats.groupby("play_index").winner.sum()
        position = seats.player if "player" in seats else seats.seat  # Catan's seats are table positions
        mine = seats[position == seat].set_index("play_index")
        shares.extend((mine.winner / winners).fillna(0.0))  # a play nobody won (a turn limit): no share
    return np.array(shares, float)


def lower_bound(shares):
    """The lower end of the mean's 95% normal interval."""
    return shares.mean() - 1.96 * shares.std(ddof=1) / np.sqrt(len(shares))
