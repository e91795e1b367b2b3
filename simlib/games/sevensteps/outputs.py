"""The kernel's outputs by name (apart from the kernel, so that reading them does not load Numba)."""

from typing import NamedTuple

import numpy as np

# The per-seat outputs, rows of SevenStepsOutputs.seats in this order (the tables read them by name).
SEAT_COLUMNS = ("score", "tile_points", "bonus_points", "discs", "passes", "aids_taken", "bonuses_taken",
                "aids_played", "bonuses_played", "aid_left", "bonus_left", "thrown", "capped")
(SCORE, TILE_POINTS, BONUS_POINTS, DISCS, PASSES, AIDS_TAKEN, BONUSES_TAKEN, AIDS_PLAYED, BONUSES_PLAYED, AID_LEFT,
 BONUS_LEFT, THROWN, CAPPED) = range(len(SEAT_COLUMNS))


class SevenStepsOutputs(NamedTuple):
    """simulate_plays' arrays by name (the compiled kernel returns them as a tuple in this order)."""

    turns: np.ndarray       # [plays] turns played (passes included)
    collapses: np.ndarray   # [plays] towers that reached 7 and collapsed
    end_reason: np.ndarray  # [plays] BAG_EMPTY or TURN_LIMIT
    bag_left: np.ndarray    # [plays] discs left in the bag at the end
    n_events: np.ndarray    # [plays] event rows (one per disc, one per turn)
    max_nodes: np.ndarray   # [plays] the most chains one search visited
    seats: np.ndarray       # [plays, SEAT_COLUMNS, seats]

    def seat(self, name: str) -> np.ndarray:
        """[plays, seats] of one of SEAT_COLUMNS."""
        return self.seats[:, SEAT_COLUMNS.index(name)]
