"""Die Mauer (Thomas Fackler, 1997/Zoch 1999), 3-6 players.

Spec card
- Play: one Spielrunde. A match is `rounds` Spielrunden; plays of a match are simulated together.
- Chance: none in the rules; every draw is a policy's (random choices), keyed by (seed, play, Baurunde,
  seat, purpose).
- Seats: seat 0 is the Spielrunde's first Bauherr, seats count to his left. Policies are given per
  table position; with start=continue the seat of a table position changes from round to round.
- Score: minus the penalty; the lowest penalty wins, ties share the win.
- Rules: shared/seeds/000_aae3786349106505.txt, settled as in issue 2 (see rules.py and docs/games/mauer.md).

Version history
- 1: first implementation.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pyarrow as pa

from ...core.jit import drop_stale_cache

drop_stale_cache(Path(__file__).parent)

from ...core.config import RunConfig  # noqa: E402  (after the cache check, before the kernel is imported)
from ...core.errors import SimlibError  # noqa: E402
from ...core.game import Game  # noqa: E402
from . import tables  # noqa: E402
from .constants import EV_COLS, PIECES, START_MODES  # noqa: E402
from .policies import MAX_PARAMS, POLICIES  # noqa: E402


class Mauer(Game):
    name = "mauer"
    title = "Die Mauer"
    rules_version = 1
    min_players = 3
    max_players = 6
    match_parameters = ("rounds", "start")
    turn_name = "Baurunden"
    option_flags = {"rounds": "Spielrunden per match"}
    package = Path(__file__).parent
    policy_catalogue = POLICIES
    table_schemas = tables.SCHEMAS

    def block_size(self, config: RunConfig) -> int:
        return config.options["rounds"]

    def validate(self, config: RunConfig) -> None:
        rounds = config.options["rounds"]
        if config.plays % rounds:
            raise SimlibError(f"--plays ({config.plays}) must be a multiple of rounds ({rounds}): "
                              f"a play is one Spielrunde of a match")

    def _kernel_args(self, config: RunConfig):
        o = config.options
        pen = np.array([o[f"penalty_{k}"] for k in
                        ("wall_1", "wall_2", "wall_3", "wall_4", "wall_5", "gate", "tower")], np.int64)
        codes, prm = self.policy_arrays(config, MAX_PARAMS)
        return config.seed, o["rounds"], START_MODES.index(o["start"]), o["max_baurunden"], pen, codes, prm

    def _run_kernel(self, config: RunConfig, start: int, stop: int, events: bool):
        from .kernel import simulate_matches  # loads Numba: only when simulating

        seed, rounds, start_mode, max_br, pen, codes, prm = self._kernel_args(config)
        no_events = np.zeros((0, EV_COLS), np.int32)
        out = simulate_matches(seed, start, stop - start, rounds, start_mode, max_br, pen, codes, prm,
                               no_events, np.zeros(0, np.int64))
        ev = None
        if events:
            # Draws are keyed by play, so a second pass replays the same plays and fills the events.
            offsets = np.concatenate([[0], np.cumsum(out[0])]).astype(np.int64)
            ev = np.zeros((offsets[-1], EV_COLS), np.int32)
            simulate_matches(seed, start, stop - start, rounds, start_mode, max_br, pen, codes, prm, ev,
                             offsets[:-1])
        return out, ev

    def simulate(self, config: RunConfig, start: int, stop: int, events: bool) -> dict[str, pa.Table]:
        (baurunden, end_reason, first_player, penalties, left), ev = self._run_kernel(config, start, stop, events)
        rounds = config.options["rounds"]
        names = [p.name for p in config.policies]
        specs = [str(p) for p in config.policies]
        out = {
            "games": tables.games_table(self.rules_version, start, rounds, baurunden, end_reason, first_player,
                                        penalties),
            "seats": tables.seats_table(self.rules_version, start, rounds, first_player, penalties, left, names,
                                        specs),
        }
        if events:
            out["events"] = tables.events_table(self.rules_version, ev, config.players)
        return out

    def describe_play(self, config: RunConfig, play: int) -> str:
        from .replay import describe

        rounds = config.options["rounds"]
        first = play - play % rounds
        result = self.simulate(config, first, first + rounds, events=True)
        return describe(config, play, result)


GAME = Mauer()
__all__ = ["GAME", "Mauer", "PIECES"]
