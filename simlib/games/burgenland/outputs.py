"""The kernel's outputs by name (apart from the kernel, so that reading them does not load Numba)."""

from typing import NamedTuple

import numpy as np

# The per-seat outputs, rows of BurgenlandOutputs.seats in this order (the tables read them by name).
SEAT_COLUMNS = ("placed", "walls_left", "houses_left", "palases_left", "wells_left", "turns", "draws", "builds",
                "start_cards", "cards_drawn", "cards_rewarded", "jokers_walls", "jokers_spots", "jokers_tiles",
                "jokers_exchanged", "jokers_used", "spot_bonuses", "swaps_taken", "swaps_played", "tiles_taken",
                "tiles_played", "wells_built", "well_coins", "central_built", "cards_left", "jokers_left",
                "coins_paid")
(PLACED, WALLS_LEFT, HOUSES_LEFT, PALASES_LEFT, WELLS_LEFT, TURNS, DRAWS, BUILDS, START_CARDS, CARDS_DRAWN,
 CARDS_REWARDED, JOKERS_WALLS, JOKERS_SPOTS, JOKERS_TILES, JOKERS_EXCHANGED, JOKERS_USED, SPOT_BONUSES, SWAPS_TAKEN,
 SWAPS_PLAYED, TILES_TAKEN, TILES_PLAYED, WELLS_BUILT_SEAT, WELL_COINS, CENTRAL_BUILT_SEAT, CARDS_LEFT, JOKERS_LEFT,
 COINS_PAID) = range(len(SEAT_COLUMNS))


class BurgenlandOutputs(NamedTuple):
    """simulate_plays' arrays by name (the compiled kernel returns them as a tuple in this order)."""

    turns: np.ndarray       # [plays] turns played (deals not counted)
    end_reason: np.ndarray  # [plays] LAST_PIECE, TURN_LIMIT or STALLED
    winner: np.ndarray      # [plays] the seat that placed its last piece, -1 if none
    wells: np.ndarray       # [plays] wells built in play (pre-placed ones not counted)
    swaps: np.ndarray       # [plays] swaps played (swap tiles and swap bonus tiles)
    reshuffles: np.ndarray  # [plays] times the discard pile became the face-down pile
    central: np.ndarray     # [plays] pieces built in the central castle
    stones: np.ndarray      # [plays, 8] the colour of the stone on each position at set-up
    n_events: np.ndarray    # [plays] event rows
    seats: np.ndarray       # [plays, SEAT_COLUMNS, seats]

    def seat(self, name: str) -> np.ndarray:
        """[plays, seats] of one of SEAT_COLUMNS."""
        return self.seats[:, SEAT_COLUMNS.index(name)]
