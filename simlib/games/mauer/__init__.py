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

from ...core.config import RunConfig
from ...core.errors import SimlibError
from ...core.game import Game, steps_per_second
from ...core.lineup import lineup
from ...core.tables import Standings, no_standings, record_kernel
from . import tables
from .constants import EV_COLS, PIECES, START_MODES
from .policies import POLICIES


class Mauer(Game):
    name = "mauer"
    title = "Die Mauer"
    headline_metric = "mean_penalty"
    rules_version = 1
    min_players = 3
    max_players = 6
    setup_options = {
        **{f"penalty_wall_{k}": f"{k}-crenellation wall {{}} penalty points" for k in range(1, 6)},
        "penalty_gate": "gate {} penalty points", "penalty_tower": "tower {} penalty points",
        "start": {"continue": "next round starts left of the last Bauherr",
                  "rotate": "first Bauherr rotates round by round",
                  "fixed": "every round starts with the match's first player"},
        "rounds": {"1": "single rounds, not matches", "*": "matches of {} rounds"},
    }
    match_parameters = ("rounds", "start")
    package = Path(__file__).parent
    skill_ladder = ("random", "heavy", "hollow", "reader", "search:budget=16", "search:budget=64", "search:budget=256")
    best_heuristic = "reader"
    policy_catalogue = POLICIES
    table_schemas = tables.SCHEMAS
    standing = tables.STANDING

    def block_size(self, config: RunConfig) -> int:
        return config.options["rounds"]

    def validate(self, config: RunConfig) -> None:
        rounds = config.options["rounds"]
        if config.plays % rounds:
            raise SimlibError(f"--plays ({config.plays}) must be a multiple of rounds ({rounds}): "
                              f"a play is one Spielrunde of a match")

    def kernel_setup(self, config: RunConfig):
        """What every play of `config` shares, as the kernels take it (state.Setup)."""
        from .state import Setup

        o = config.options
        pen = np.array([o[f"penalty_{k}"] for k in
                        ("wall_1", "wall_2", "wall_3", "wall_4", "wall_5", "gate", "tower")], np.int64)
        return Setup(pen, o["max_baurunden"], o["rounds"], START_MODES.index(o["start"]))

    def _kernel_args(self, config: RunConfig, start: int, stop: int) -> tuple:
        return config.seed, start, stop - start, self.kernel_setup(config), lineup(config, POLICIES)

    def _run_kernel(self, config: RunConfig, start: int, stop: int, events: bool):
        """The kernel's named arrays (MauerOutputs) for plays start..stop-1, the event rows and standings where
        asked (core/tables.Recorded)."""
        from .kernel import MauerOutputs, simulate_matches  # loads Numba: only when simulating

        args = self._kernel_args(config, start, stop)
        kernel = simulate_matches
        if self.kernel_of(config) == "search":  # a kernel of its own: scripted runs do not compile the search
            from .search import simulate_search_matches as kernel
        return record_kernel(kernel, args, MauerOutputs, events=events, events_per_play="baurunden",
                             event_columns=EV_COLS,
                             standings=Standings(config.players, "baurunden", config.standings))

    def rollout_speed(self, config: RunConfig, plays: int) -> tuple[float, float]:
        """Baurunden a second in the kernel's plays and in a search's rollouts of the same plays (single thread)."""
        from .kernel import simulate_matches
        from .search import rollout_bench

        args = self._kernel_args(config, 0, plays)
        no_ev = (*no_standings(config.players), np.zeros((0, EV_COLS), np.int32), np.zeros(0, np.int64))
        return steps_per_second(lambda: simulate_matches(*args, *no_ev)[0].sum(),
                                lambda: rollout_bench(*args))

    def simulate(self, config: RunConfig, start: int, stop: int, events: bool) -> dict[str, pa.Table]:
        out, ev, sd = self._run_kernel(config, start, stop, events)
        rounds = config.options["rounds"]
        result = {
            "games": tables.games_table(self.rules_version, start, rounds, out),
            "seats": tables.seats_table(self.rules_version, start, rounds, out, config.policies),
        }
        if events:
            result["events"] = tables.events_table(self.rules_version, ev, config.players)
        if sd is not None:
            result["standings"] = tables.standings_table(self.rules_version, start, out.baurunden, sd)
        return result

    def describe_play(self, config: RunConfig, play: int) -> str:
        from .replay import describe

        rounds = config.options["rounds"]
        first = play - play % rounds
        result = self.replayed(config, first, first + rounds)
        return describe(config, play, result)


GAME = Mauer()
__all__ = ["GAME", "Mauer", "PIECES"]
