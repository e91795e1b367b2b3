"""Catan, base game with Seafarers ships, 3-4 players: the engine Die Mauerspechte will run on.

Spec card
- Play: one game on a board drawn per play (the standard map: terrain shuffled, tokens on the spiral)
  or a fixed map (beginner).
- Chance: the board, the development deck, the dice, the steals and the policies' choices, each keyed by
  (seed, play, turn, what is drawn, its rank in the turn), so variants of a play share their dice.
- Seats: seat 0 places first in the set-up and takes the first turn.
- Score: victory points; the first to reach 10 (victory_points) on his own turn wins; a turn limit stops
  stalled games.
- Rules: docs/games/catan.md (player-to-player trade is out of scope).
- Tables: games (with how the play felt), seats, production; events with --events (one row per action, named
  arguments); standings (every seat's victory points in view after each turn) with --standings.

Version history
- 1: first implementation.
- 2: a player with 10 points wins before his next step (before: only after a further action of his,
  so a win by a knight before the roll, or by a route card gained on another's turn, could wait).
  Later, still 2: the kernel also returns the cards the dice promised (the production table's `expected`
  column, with a row wherever it or `amount` is above 0); an extra output, no rule and no games or seats
  row changed, so the number stays.
- 3: a ship whose far end meets only one's own road (no building there) is at an open end and may move:
  roads and ships join only at one's own building (before, the road was taken to close the route, and
  such ships could not move; the independent test reference found it).
  Later, still 3: the engine split into blocks (same games at fixed seeds, digests in tests/support/digests.json);
  the events keep both dice (die_1, die_2), drawn as before; victory_points other than 10 allowed.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pyarrow as pa

from ...core.config import RunConfig
from ...core.errors import SimlibError
from ...core.game import Game, steps_per_second
from ...core.lineup import lineup
from ...core.tables import Standings, no_standings, record_kernel
from . import constants as C
from . import tables
from .board import RANDOM, load_board
from .policies import POLICIES, family_weights

if TYPE_CHECKING:
    from .scoring import CatanOutputs


@lru_cache(maxsize=8)
def _board(spec: str):
    """A map's topology, derived once per process (worker processes inherit it from the parent, which
    validates the run first); the arrays are only read."""
    return load_board(spec)


class Catan(Game):
    name = "catan"
    title = "Catan (base game with Seafarers ships)"
    rules_version = 5  # 5: the search deals again the cards robbed between two others (issue 35)
    min_players = 3
    max_players = 4
    setup_options = {"map": "{} map", "victory_points": "{} victory points", "max_turns": "turn limit {}"}
    package = Path(__file__).parent
    skill_ladder = ("random", "weighted", "builder", "search:budget=32", "search:budget=128")
    best_heuristic = "builder"
    policy_catalogue = POLICIES
    table_schemas = tables.SCHEMAS
    standing = tables.STANDING
    event_tables = ("events",)

    def validate(self, config: RunConfig) -> None:
        board = _board(config.options["map"])
        drawn = int((board.hex_terrain == RANDOM).sum())
        if drawn not in (0, sum(C.STANDARD_TERRAINS)):
            raise SimlibError(f"map {config.options['map']}: {drawn} hexes with terrain 'random'; the terrain drawn "
                              f"is the standard set, so it needs exactly {sum(C.STANDARD_TERRAINS)} (or none)")

    def run_kernel(self, config: RunConfig, start: int, stop: int) -> CatanOutputs:
        """The kernel's named arrays for plays start..stop-1 (a CatanOutputs; no events)."""
        return self._run_kernel(config, start, stop, events=False)[0]

    def _run_kernel(self, config: RunConfig, start: int, stop: int, events: bool):
        """The kernel's named arrays, the event rows and the standing rows (core/tables.Recorded: None without events,
        without --standings)."""
        from .kernel import simulate_games  # loads Numba: only when simulating
        from .scoring import CatanOutputs
        from .state import board_arrays, published_rules

        rules = published_rules(config.options["victory_points"], C.BANK_PER_RESOURCE)
        kernel = simulate_games
        if self.kernel_of(config) == "search":  # a kernel of its own: scripted runs do not compile the search
            from .search import simulate_search_games as kernel
        args = (config.seed, start, stop - start, config.options["max_turns"], self.seat_policies(config),
                board_arrays(_board(config.options["map"])), rules)
        return record_kernel(kernel, args, CatanOutputs, events=events, events_per_play="n_events",
                             event_columns=C.EV_COLS, standings=Standings(config.players, "turns", config.standings))

    def seat_policies(self, config: RunConfig):
        """The line-up as the kernels take it (state.Seats)."""
        from .state import Seats

        seats = lineup(config, POLICIES)
        return Seats(seats.codes, seats.params, seats.defaults, family_weights())

    def rollout_speed(self, config: RunConfig, plays: int) -> tuple[float, float]:
        """Turns a second in the kernel's plays and in a search's rollouts of the same plays from their opening
        (single thread)."""
        from .kernel import simulate_games
        from .search import play_from_opening
        from .state import board_arrays, published_rules

        seats = self.seat_policies(config)
        rules = published_rules(config.options["victory_points"], C.BANK_PER_RESOURCE)
        board, max_turns = board_arrays(_board(config.options["map"])), config.options["max_turns"]
        no_ev = (*no_standings(config.players), np.zeros((0, C.EV_COLS), np.int32), np.zeros(0, np.int64))
        return steps_per_second(
            lambda: simulate_games(config.seed, 0, plays, max_turns, seats, board, rules, *no_ev).turns.sum(),
            lambda: play_from_opening(config.seed, 0, plays, max_turns, seats, board, rules, True)[0].sum())

    def simulate(self, config: RunConfig, start: int, stop: int, events: bool) -> dict[str, pa.Table]:
        out, ev, sd = self._run_kernel(config, start, stop, events)
        result = {
            "games": tables.games_table(self.rules_version, start, out),
            "seats": tables.seats_table(self.rules_version, start, out, config.policies),
            "production": tables.production_table(self.rules_version, start, out),
        }
        if events:
            result["events"] = tables.events_table(self.rules_version, start, out.n_events, ev)
        if sd is not None:
            result["standings"] = tables.standings_table(self.rules_version, start, out.turns, sd)
        return result

    def describe_play(self, config: RunConfig, play: int) -> str:
        from .replay import describe

        result = self.replayed(config, play, play + 1)
        return describe(config, play, result, _board(config.options["map"]))

    def drawing(self, config: RunConfig, play: int) -> dict:
        from .drawing import board_drawing

        return board_drawing(_board(config.options["map"]), self.replayed(config, play, play + 1), play)


GAME = Catan()
