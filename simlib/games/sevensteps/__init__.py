"""7 Steps (Michael Kiesling and Reinhard Staupe, Kosmos 2014), 2-4 players: discs stacked in chains on a
49-field board of seven hexagonal tiles.

Spec card
- Play: one game: each player holds 7 discs drawn from a bag of 140 (20 in each of 7 colours); a turn
  places a chain of up to 7 (each disc adjacent to the one before, same level or one higher), scores the
  levels, may take a tile after a low turn, throws back and refills; a player who cannot refill ends the
  game after the round.
- Chance: the bag, the tile piles and the policies' choices, each keyed by (seed, play, turn, what is drawn, its
  rank in the turn), so variants of a play draw the same discs and tiles turn by turn.
- Seats: seat 0 starts; turns go in seat order.
- Score: the levels of the discs placed, victory-point bonuses, 2 per unused tile; ties share the win.
- Rules: shared/seeds/003_18fad9fc6592207b.txt, settled in issue 12 (docs/games/sevensteps.md).
- Data: the tiles (tiles/fano.toml, back sides assumed), the layout (layouts/standard.toml) and the special
  tiles (specials/assumed.toml, effects assumed) are files a designer can replace.

Version history
- 1: first implementation.
- 2: draws keyed by turn and stream, not a running counter (issue 25).
- 3: the rule text's readings are the defaults: first_disc = tile, and the new threshold_counts = discs (issue 25).
"""

from __future__ import annotations

import hashlib
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
from . import tables
from .board import Board, board_from_text, layout_text, tiles_text
from .constants import EV_COLS
from .policies import POLICIES
from .specials import Specials, specials_from_text, specials_text

if TYPE_CHECKING:
    from .state import Setup

_DATA_FILES = {"tiles": tiles_text, "layout": layout_text, "specials": specials_text}


@lru_cache(maxsize=16)
def _board(tiles: str, tiles_data: str, layout: str, layout_data: str, side: str) -> Board:
    return board_from_text(tiles, tiles_data, layout, layout_data, side)


@lru_cache(maxsize=16)
def _specials(spec: str, text: str) -> Specials:
    return specials_from_text(spec, text)


class SevenSteps(Game):
    name = "sevensteps"
    title = "7 Steps"
    headline_metric = "skill_gap"
    rules_version = 3  # 3: defaults follow the rule text: first_disc = tile, threshold_counts = discs (issue 25)
    min_players = 2
    max_players = 4
    setup_options = {
        "side": {"front": "one-colour sides", "back": "mixed sides"},
        "tile_threshold": "a tile for fewer than {} points",
        "threshold_counts": {"discs": "the threshold counts the discs' points",
                             "total": "the threshold counts the turn's total, bonus included"},
        "first_disc": {"colour": "first disc at its colour's lowest level on the board",
                       "tile": "first disc at its colour's lowest level on a tile"},
        "layout": "{} layout", "tiles": "{} tiles", "specials": "{} special tiles",
        "unused_tile_points": "unused tiles worth {}", "max_turns": "turn limit {}",
    }
    event_tables = ("events", "turns")
    package = Path(__file__).parent
    skill_ladder = ("random", "climber", "greedy", "search:budget=64", "search:budget=256")
    best_heuristic = "greedy"
    policy_catalogue = POLICIES
    table_schemas = tables.SCHEMAS
    standing = tables.STANDING

    def resolve_options(self, options: dict) -> dict:
        """Each data file (a name or a path) is read once into the run's options, with a hash of all three."""
        texts = {f"{kind}_text": options[f"{kind}_text"] or read(options[kind]) for kind, read in _DATA_FILES.items()}
        data_id = hashlib.sha256("\0".join(texts.values()).encode()).hexdigest()[:16]
        if options["data_id"] and options["data_id"] != data_id:
            raise SimlibError(f"data_id {options['data_id']}: the data files' text does not match it")
        return options | texts | {"data_id": data_id}

    @staticmethod
    def board(config: RunConfig) -> Board:
        o = config.options
        return _board(o["tiles"], o["tiles_text"], o["layout"], o["layout_text"], o["side"])

    @staticmethod
    def specials(config: RunConfig) -> Specials:
        return _specials(config.options["specials"], config.options["specials_text"])

    def validate(self, config: RunConfig) -> None:
        self.board(config)
        self.specials(config)

    def run_kernel(self, config: RunConfig, start: int, stop: int):
        """The kernel's named arrays for plays start..stop-1 (a SevenStepsOutputs; no events)."""
        return self._run_kernel(config, start, stop, events=False)[0]

    def kernel_setup(self, config: RunConfig) -> Setup:
        """What the kernels take of the run's board, special tiles and rule options (state.Setup)."""
        from .state import Setup, board_arrays, rule_options, tile_arrays

        o = config.options
        return Setup(board_arrays(self.board(config), o["first_disc"]), tile_arrays(self.specials(config)),
                     rule_options(o))

    def _run_kernel(self, config: RunConfig, start: int, stop: int, events: bool):
        from .kernel import SevenStepsOutputs, simulate_plays  # loads Numba: only when simulating

        args = (config.seed, start, stop - start, self.kernel_setup(config), lineup(config, POLICIES))
        kernel = simulate_plays
        if self.kernel_of(config) == "search":  # a kernel of its own: scripted runs do not compile the search
            from .search import simulate_search_plays as kernel
        return record_kernel(kernel, args, SevenStepsOutputs, events=events, events_per_play="n_events",
                             event_columns=EV_COLS, standings=Standings(config.players, "turns", config.standings))

    def rollout_speed(self, config: RunConfig, plays: int) -> tuple[float, float]:
        """Turns a second in the kernel's plays and in a search's rollouts of the same plays (single thread)."""
        from .kernel import simulate_plays
        from .search import rollout_bench

        setup, seats = self.kernel_setup(config), lineup(config, POLICIES)
        args = (config.seed, 0, plays, setup, seats, *no_standings(config.players), np.zeros((0, EV_COLS), np.int32),
                np.zeros(0, np.int64))
        return steps_per_second(lambda: simulate_plays(*args)[0].sum(),
                                lambda: rollout_bench(config.seed, 0, plays, setup, seats))

    def simulate(self, config: RunConfig, start: int, stop: int, events: bool) -> dict[str, pa.Table]:
        out, ev, sd = self._run_kernel(config, start, stop, events)
        v = self.rules_version
        result = {"games": tables.games_table(v, start, out, config.options["side"]),
                  "seats": tables.seats_table(v, start, out, config.policies)}
        if events:
            result["events"] = tables.events_table(v, ev, self.board(config))
            result["turns"] = tables.turns_table(v, ev, self.specials(config))
        if sd is not None:
            result["standings"] = tables.standings_table(v, start, out.turns, sd)
        return result

    def describe_play(self, config: RunConfig, play: int) -> str:
        from .replay import describe

        result = self.replayed(config, play, play + 1)
        return describe(config, play, result, self.board(config))

    def drawing(self, config: RunConfig, play: int) -> dict:
        from .drawing import board_drawing

        return board_drawing(self.board(config), self.specials(config), self.replayed(config, play, play + 1), play)


GAME = SevenSteps()
