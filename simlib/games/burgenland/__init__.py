"""Burgenland (Inka and Markus Brand, Ravensburger 2014), 2-4 players: colour cards pay for walls, houses,
palases and wells in castles between border stones; the first to place all his pieces wins at once.

Spec card
- Play: one game: 80 colour cards (8 colours), 17 jokers, 11 small castles and a central one; each turn some
  free actions (a swap tile, coins for a joker) and one main action (draw 2 colour cards or build 1 piece);
  it ends at once when a seat places its last piece.
- Chance: the stones, master builders, well cards, bonus tiles and the card pile's order, and the policies'
  choices, each keyed by (seed, play, turn, what is drawn, its rank in the turn), so variants of a play share
  their draws.
- Seats: seat 0 starts (with the fewest cards under staggered starting hands); turns go in seat order.
- Score: pieces placed; the winner placed all of his, the others rank by pieces left (ties share a rank).
- Rules: shared/seeds/004_91a04d6f1bc7a954.txt, settled in issue 13 (docs/games/burgenland.md).
- Data: the map (maps/standard.toml: network, symbols, set-ups) and the cards and tiles (data/assumed.toml)
  are designed (assumed) files a designer can replace.

Version history
- 1: first implementation.
- 2: draws keyed by turn and stream, not a running counter (issue 25).
- 3: the text's "immer nur" reading of the well marker by default (`free_well_tile = false`: the X5 tile lifts the
  house rule, not the marker; issue 25).
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path

import pyarrow as pa

from ...core.config import RunConfig
from ...core.errors import SimlibError
from ...core.game import Game, steps_per_second
from ...core.lineup import lineup
from ...core.tables import Standings, no_standings, record_kernel
from . import tables
from .board import Board, board_from_text, map_text
from .components import Components, components_from_text, data_text
from .constants import EV_COLS
from .policies import POLICIES


@lru_cache(maxsize=16)
def _board(spec: str, text: str) -> Board:
    return board_from_text(spec, text)


@lru_cache(maxsize=16)
def _components(spec: str, text: str) -> Components:
    return components_from_text(spec, text)


class Burgenland(Game):
    name = "burgenland"
    title = "Burgenland"
    headline_metric = "pieces_left"
    rules_version = 3  # 3: free_well_tile = false by default, the text's "immer nur" (X5 lifts the house rule)
    min_players = 2
    max_players = 4
    setup_options = {
        "start_hands": {"staggered": "staggered starting hands", "equal": "equal starting hands"},
        "map": "{} board", "data": "{} cards and tiles", "central_wall": "central wall costs {}",
        "central_house": "central house costs {}", "central_palas": "central palas costs {}",
        "central_jokers": {"true": "jokers in the central castle", "false": "no jokers in the central castle"},
        "central_master_builder": {"true": "master builder in the central castle",
                                   "false": "no master builder in the central castle"},
        "joker_exchange": "a joker for {} coins",
        "swap_return": {"supply": "swap tiles return to the supply", "out": "swap tiles leave the game"},
        "free_well_tile": {"true": "the X5 tile places a well anywhere", "false": "wells only at the marker"},
        "max_turns": "turn limit {}",
    }
    package = Path(__file__).parent
    skill_ladder = ("random", "saver", "builder", "search:budget=64", "search:budget=256")
    best_heuristic = "builder"
    policy_catalogue = POLICIES
    table_schemas = tables.SCHEMAS
    standing = tables.STANDING

    def resolve_options(self, options: dict) -> dict:
        """The map and data files (a name or a path) are read once into the run's options, with a hash."""
        texts = {"map_text": options["map_text"] or map_text(options["map"]),
                 "data_text": options["data_text"] or data_text(options["data"])}
        data_id = hashlib.sha256("\0".join(texts.values()).encode()).hexdigest()[:16]
        if options["data_id"] and options["data_id"] != data_id:
            raise SimlibError(f"data_id {options['data_id']}: the map and data files' text does not match it")
        return options | texts | {"data_id": data_id}

    @staticmethod
    def board(config: RunConfig) -> Board:
        return _board(config.options["map"], config.options["map_text"])

    @staticmethod
    def components(config: RunConfig) -> Components:
        return _components(config.options["data"], config.options["data_text"])

    def validate(self, config: RunConfig) -> None:
        self.board(config)
        components = self.components(config)
        if components.colour_cards < 8 or components.jokers < config.players:
            raise SimlibError(f"data file {config.options['data']}: too few cards for {config.players} players")

    def run_kernel(self, config: RunConfig, start: int, stop: int):
        """The kernel's named arrays for plays start..stop-1 (a BurgenlandOutputs; no events)."""
        return self._run_kernel(config, start, stop, events=False)[0]

    def kernel_setup(self, config: RunConfig):
        """What every play of `config` shares, as the kernels take it (state.Setup)."""
        from .state import Setup, board_arrays, card_arrays, rules

        return Setup(board_arrays(self.board(config), config.players),
                     card_arrays(self.components(config), config.options), rules(config.options))

    def _kernel_args(self, config: RunConfig, start: int, stop: int) -> tuple:
        return config.seed, start, stop - start, self.kernel_setup(config), lineup(config, POLICIES)

    def _run_kernel(self, config: RunConfig, start: int, stop: int, events: bool):
        from .kernel import simulate_plays  # loads Numba: only when simulating
        from .state import BurgenlandOutputs

        args = self._kernel_args(config, start, stop)
        kernel = simulate_plays
        if self.kernel_of(config) == "search":  # a kernel of its own: scripted runs do not compile the search
            from .search import simulate_search_plays as kernel
        return record_kernel(kernel, args, BurgenlandOutputs, events=events, events_per_play="n_events",
                             event_columns=EV_COLS, standings=Standings(config.players, "turns", config.standings))

    def rollout_speed(self, config: RunConfig, plays: int) -> tuple[float, float]:
        """Turns a second in the kernel's plays and in a search's rollouts of the same plays (single thread)."""
        import numpy as np

        from .kernel import simulate_plays
        from .search import rollout_bench

        args = self._kernel_args(config, 0, plays)
        no_ev = (*no_standings(config.players), np.zeros((0, EV_COLS), np.int32), np.zeros(0, np.int64))
        return steps_per_second(lambda: simulate_plays(*args, *no_ev)[0].sum(),
                                lambda: rollout_bench(*args))

    def simulate(self, config: RunConfig, start: int, stop: int, events: bool) -> dict[str, pa.Table]:
        out, ev, sd = self._run_kernel(config, start, stop, events)
        v, board = self.rules_version, self.board(config)
        result = {"games": tables.games_table(v, start, out, config.options["start_hands"], board),
                  "seats": tables.seats_table(v, start, out, config.policies)}
        if events:
            result["events"] = tables.events_table(v, ev, board, self.components(config))
        if sd is not None:
            result["standings"] = tables.standings_table(v, start, out.turns, sd)
        return result

    def describe_play(self, config: RunConfig, play: int) -> str:
        from .replay import describe

        return describe(config, play, self.replayed(config, play, play + 1))

    def drawing(self, config: RunConfig, play: int) -> dict:
        from .drawing import board_drawing

        return board_drawing(self.board(config), self.replayed(config, play, play + 1), play)


GAME = Burgenland()
