"""A search's strength by hand, for docs/search.md: one focal policy against a field, seats rotated, its win share
with a 95% normal interval over plays (seed 35).

    python tests/support/search_strength.py GAME PLAYERS FOCAL FIELD PLAYS_PER_SEAT
"""

import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/, where `support` is
from simlib.core.registry import get_game  # noqa: E402

from support.strength import focal_shares  # noqa: E402


def main(argv: list[str]) -> None:
    game, players, focal, field, plays = get_game(argv[0]), int(argv[1]), argv[2], argv[3], int(argv[4])
    began = time.perf_counter()
    shares = focal_shares(game, players, focal, field, plays, seed=35)
    mean, half = shares.mean(), 1.96 * shares.std(ddof=1) / np.sqrt(len(shares))
    print(f"{argv[0]} {players}p {focal} vs {field}: {100 * mean:.1f}% ({100 * (mean - half):.1f}% to "
          f"{100 * (mean + half):.1f}%), fair {100 / players:.0f}%, {len(shares)} plays, "
          f"{time.perf_counter() - began:.0f} s")


if __name__ == "__main__":
    main(sys.argv[1:])
