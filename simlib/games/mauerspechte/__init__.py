"""Die Mauerspechte: the Berlin scenario for Catan with Seafarers ships, 3-4 players, on the Catan engine's blocks.

Spec card
- Play: one game on Berlin (maps/berlin.toml, assumed): a wall splits West and East Berlin; the leading
  player's thresholds release wall sections, whose pieces are bought for points; a lower piece releases
  a hotel, which swaps an East Berlin field's 2, 3, 11 or 12 for a better chip and produces like a city;
  victory-point chips are auctioned at Love Parades on doubles.
- Chance: the layout (option), the development deck, the dice, the steals and the policies' choices, each
  keyed by (seed, play, turn, what is drawn, its rank in the turn), so variants of a play share their dice.
- Seats: seat 0 places first in the set-up and takes the first turn.
- Score: victory points; 15 (four players) or 17 (three) on one's own turn wins; a turn limit stops stalls.
- Rules: docs/games/mauerspechte.md (rule by rule, with provenance and the open questions settled).
- Tables: games (with how the play felt), seats (points by source), production, hotels, wall_pieces,
  love_parades; events with --events; standings (every seat's points after each turn) with --standings.

Version history
- 1: first implementation.
- 2: draws keyed by turn and stream (issue 25).
- 3: the rule text's own readings by default where it is explicit (issue 25): the releasing player may buy the
  upper piece at once (`release_buy`), the chip supply never runs out (`vp_chip_supply`); and an unconnected ship
  opens no settlement site (`ship_sites`, assumed: the text only frees where a ship is built). A knight still
  sends the robber across the closed wall (`knight_robber`: the text is not explicit).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import numpy as np
import pyarrow as pa

from ...core.config import RunConfig
from ...core.errors import SimlibError
from ...core.game import Game, steps_per_second
from ...core.lineup import lineup
from ...core.tables import Standings, no_standings, record_kernel
from ..catan import GAME as CATAN
from ..catan import constants as base
from . import constants as C
from . import tables
from .berlin import Berlin, load_berlin
from .policies import POLICIES, SCRIPTED_OPENINGS, family_weights


@lru_cache(maxsize=8)
def _berlin(map_spec: str, components: str) -> Berlin:
    """A map and components file, checked and derived once per process (the arrays are only read)."""
    from .state import check_berlin

    berlin = load_berlin(map_spec, components)
    check_berlin(berlin)
    return berlin


class Mauerspechte(Game):
    name = "mauerspechte"
    title = "Die Mauerspechte (Catan + Seafarers scenario, Berlin)"
    headline_metric = "hotel_net_yield"
    # 3: readings of the rule text by default: ship_sites, release_buy, vp_chip_supply (issue 25)
    rules_version = 4  # 4: the search's rollouts copy the board's land and sea flags (issue 35)
    engines = (CATAN,)  # Catan's turn, dice, robber and building rules run every play
    min_players = 3
    max_players = 4
    setup_options = {
        "map": "{} map", "components": "{} components",
        "layout": {"fixed": "fixed layout", "shuffled": "shuffled layout"},
        "victory_points_3": "{} victory points at 3", "victory_points_4": "{} victory points at 4",
        "vp_chips": "{} victory-point chips", "love_parade_min_bid": "Love Parade bids from {}",
        "vp_chip_supply": {"unlimited": "chips never run out", "limited": "a limited chip supply"},
        "ship_sites": {"connected": "connected ships open sites", "any": "any ship opens sites"},
        "release_buy": {"at_once": "released piece bought at once", "own_turn": "released piece in own turn"},
        "knight_robber": {"free": "knight moves robber freely", "across": "knight crosses the wall"},
        "hotel_points": "hotels worth {} points", "max_turns": "turn limit {}",
    }
    package = Path(__file__).parent
    skill_ladder = ("random", "weighted", "hotelier", "builder", "specht", "search:budget=32",
                    "search:budget=128")
    best_heuristic = "specht"
    policy_catalogue = POLICIES
    table_schemas = tables.SCHEMAS
    standing = tables.STANDING
    event_tables = ("events",)

    def validate(self, config: RunConfig) -> None:
        _berlin(config.options["map"], config.options["components"])
        if config.options["vp_chips"] > C.MAX_CHIPS:  # the per-play rows of the love_parades table
            raise SimlibError(f"option vp_chips: at most {C.MAX_CHIPS}, not {config.options['vp_chips']}")
        chips = self.parameters()["vp_chips"].default
        if config.options["vp_chip_supply"] == "unlimited" and config.options["vp_chips"] != chips:
            raise SimlibError("option vp_chips sizes a limited supply: with vp_chip_supply = unlimited (the default) "
                              "it changes nothing; set vp_chip_supply=limited too")

    def fixed_opening(self, options: dict, policies: list[str]) -> bool:
        """The map as drawn (layout fixed) and a scripted opening at every seat: the builder, specht and hotelier
        place by the map alone, and the search opens as its base policy does."""
        def scripted(spec: str) -> bool:
            name, *pairs = spec.split(":")
            if name == "search":
                base = dict(p.split("=") for p in pairs).get("base", POLICIES["search"].params["base"])
                return int(float(base)) in SCRIPTED_OPENINGS
            return POLICIES[name].code in SCRIPTED_OPENINGS
        return options.get("layout", "fixed") == "fixed" and all(scripted(spec) for spec in policies)

    @staticmethod
    def win_points(config: RunConfig) -> int:
        return config.options[f"victory_points_{config.players}"]

    def run_kernel(self, config: RunConfig, start: int, stop: int):
        """The kernel's named arrays for plays start..stop-1 (a MauerspechteOutputs; no events)."""
        return self._run_kernel(config, start, stop, events=False)[0]

    def setup(self, config: RunConfig):
        """What the kernels' plays share (state.Setup): the engine's board arrays and Rules, the scenario's arrays
        and rules."""
        from ..catan.state import board_arrays, published_rules
        from .state import BerlinRules, Setup, berlin_arrays

        berlin = _berlin(config.options["map"], config.options["components"])
        shuffled = config.options["layout"] == "shuffled"
        bd = board_arrays(berlin.board)
        if shuffled:  # the producing non-hotel hexes' terrain is drawn per play from their own terrains
            hexes = berlin.shuffled_hexes
            bd = bd._replace(random_hexes=hexes, terrain_bag=berlin.board.hex_terrain[hexes].astype(np.int64))
        rules = published_rules(self.win_points(config), base.BANK_PER_RESOURCE)
        o = config.options
        chips = o["vp_chips"] if o["vp_chip_supply"] == "limited" else C.UNLIMITED_CHIPS
        br = BerlinRules(self.win_points(config), chips, o["love_parade_min_bid"], o["hotel_points"], shuffled,
                         connected_ships=o["ship_sites"] == "connected", release_at_once=o["release_buy"] == "at_once",
                         knight_across=o["knight_robber"] == "across")
        return Setup(bd, rules, berlin_arrays(berlin), br)

    def seat_policies(self, config: RunConfig):
        """The line-up as the kernels take it (catan's state.Seats)."""
        from ..catan.state import Seats

        seats = lineup(config, POLICIES)
        return Seats(seats.codes, seats.params, seats.defaults, family_weights())

    def rollout_speed(self, config: RunConfig, plays: int) -> tuple[float, float]:
        """Turns a second in the kernel's plays and in a search's rollouts of the same plays from their opening
        (single thread)."""
        from .kernel import simulate_games
        from .search import play_from_opening

        setup, seats = self.setup(config), self.seat_policies(config)
        no_ev = (*no_standings(config.players), np.zeros((0, base.EV_COLS), np.int32), np.zeros(0, np.int64))
        max_turns = config.options["max_turns"]
        return steps_per_second(
            lambda: simulate_games(config.seed, 0, plays, max_turns, seats, setup, *no_ev)[0].turns.sum(),
            lambda: play_from_opening(config.seed, 0, plays, max_turns, seats, setup, True)[0].sum())

    def _run_kernel(self, config: RunConfig, start: int, stop: int, events: bool):
        from .kernel import MauerspechteOutputs, simulate_games

        kernel = simulate_games
        if self.kernel_of(config) == "search":  # a kernel of its own: scripted runs do not compile the search
            from .search import simulate_search_games as kernel
        args = (config.seed, start, stop - start, config.options["max_turns"], self.seat_policies(config),
                self.setup(config))
        return record_kernel(kernel, args, MauerspechteOutputs, events=events, events_per_play="n_events",
                             event_columns=base.EV_COLS, standings=Standings(config.players, "turns", config.standings))

    def simulate(self, config: RunConfig, start: int, stop: int, events: bool) -> dict[str, pa.Table]:
        berlin = _berlin(config.options["map"], config.options["components"])
        out, ev, sd = self._run_kernel(config, start, stop, events)
        v = self.rules_version
        result = {
            "games": tables.games_table(v, start, out),
            "seats": tables.seats_table(v, start, out, config.policies, config.options["hotel_points"]),
            "production": base_production(v, start, out),
            "hotels": tables.hotels_table(v, start, out, berlin),
            "wall_pieces": tables.wall_pieces_table(v, start, out, berlin),
            "love_parades": tables.love_parades_table(v, start, out),
        }
        if events:
            result["events"] = tables.events_table(v, start, out.n_events, ev, berlin)
        if sd is not None:
            result["standings"] = tables.standings_table(v, start, out.turns, sd)
        return result

    def describe_play(self, config: RunConfig, play: int) -> str:
        from .replay import describe

        berlin = _berlin(config.options["map"], config.options["components"])
        return describe(config, play, self.replayed(config, play, play + 1),
                        berlin)

    def drawing(self, config: RunConfig, play: int) -> dict:
        """The Berlin board drawn as Catan's (the engine's pieces; the wall, chips and hotels are in the account)."""
        from ..catan.drawing import board_drawing

        berlin = _berlin(config.options["map"], config.options["components"])
        return board_drawing(berlin.board, self.replayed(config, play, play + 1), play)


def base_production(version, start, out) -> pa.Table:
    """The engine's production table (settlements and cities; a hotel's cards are in the hotels table)."""
    from ..catan.tables import production_table

    return production_table(version, start, out.base)


GAME = Mauerspechte()
