"""Mauerbruch (a card game for the NumNum deck, Alfred Schilken), 2-4 players.

Spec card
- Play: one game. Chance: the shuffle (a keyed Fisher-Yates) and the policies' random choices.
- Seats: seat 0 is the player who begins after the opening; table position 0 opens.
- Score: cards on one's pile; the most cards wins, ties share the win.
- Rules: shared/seeds/001_fee77b1ee06a5da9.txt, settled as in issue 4 (docs/games/mauerbruch.md).
- Deck: data (deck.py); the built-in NumNum deck is assumed.

Version history
- 1: first implementation.
"""

from __future__ import annotations

from functools import cache
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
from .constants import EV_COLS, N_STACKS, OPENING_MODES
from .deck import Deck, load_deck, parse_deck
from .policies import POLICIES

if TYPE_CHECKING:
    from .state import Setup


def stack_sizes(n_cards: int) -> np.ndarray:
    """Seven stacks as even as possible, the smaller ones in the middle (109 cards: 16,16,15,15,15,16,16)."""
    sizes = np.full(N_STACKS, n_cards // N_STACKS, np.int64)
    for s in (0, 6, 1, 5, 2, 4, 3)[: n_cards % N_STACKS]:
        sizes[s] += 1
    return sizes


@cache
def _deck_from_text(name: str, text: str) -> Deck:
    return parse_deck("id,kind,symbol,value\n" + text, "the run configuration", name)


class Mauerbruch(Game):
    name = "mauerbruch"
    title = "Mauerbruch"
    rules_version = 2  # 2: the search deals the hidden cards from a sorted pool (it read their order: issue 35)
    min_players = 2
    max_players = 4
    setup_options = {"deck": "deck {}", "opening": {"discard": "opening onto the discard pile",
                                                   "piles": "opening onto the piles"}}
    event_tables = ("events", "deals")
    package = Path(__file__).parent
    skill_ladder = ("random", "greedy", "cautious", "search:budget=16", "search:budget=64", "search:budget=256")
    best_heuristic = "cautious"
    policy_catalogue = POLICIES
    table_schemas = tables.SCHEMAS
    standing = tables.STANDING

    def resolve_options(self, options: dict) -> dict:
        """`deck` (a name or a file) becomes the deck's name, its cards as text and their hash."""
        if options["deck_cards"]:
            deck = _deck_from_text(options["deck"], options["deck_cards"])
            if options["deck_id"] and deck.id != options["deck_id"]:
                raise SimlibError(f"deck {options['deck']}: its cards do not match deck_id {options['deck_id']}")
        else:
            deck = load_deck(options["deck"])
        return options | {"deck": deck.name, "deck_cards": deck.canonical, "deck_id": deck.id}

    def deck(self, config: RunConfig) -> Deck:
        return _deck_from_text(config.options["deck"], config.options["deck_cards"])

    def kernel_setup(self, config: RunConfig) -> Setup:
        """What the kernels take of the run's rules and deck (state.Setup)."""
        from .state import Cards, Setup

        deck = self.deck(config)
        values = deck.values.astype(np.int64)
        gcd = np.gcd.outer(np.arange(values.max() + 1), np.arange(values.max() + 1)).astype(np.int64)
        cards = Cards(deck.kinds.astype(np.int64), deck.symbols.astype(np.int64), values, gcd)
        return Setup(cards, stack_sizes(len(deck)), config.options["opening"] == OPENING_MODES[0])

    def _run_kernel(self, config: RunConfig, start: int, stop: int, events: bool):
        """The kernel's named arrays (MauerbruchOutputs), the event rows and standings where asked
        (core/tables.Recorded), and with events the dealt walls."""
        from .kernel import MauerbruchOutputs, simulate_plays  # loads Numba: only when simulating

        deals = np.zeros((stop - start if events else 0, len(self.deck(config))), np.int16)  # filled with the events
        args = (config.seed, start, stop - start, self.kernel_setup(config), lineup(config, POLICIES), deals)
        kernel = simulate_plays
        if self.kernel_of(config) == "search":  # a kernel of its own: scripted runs do not compile the search
            from .search import simulate_search_plays as kernel
        recorded = record_kernel(kernel, args, MauerbruchOutputs, events=events, events_per_play="takes",
                                 event_columns=EV_COLS, standings=Standings(config.players, "takes", config.standings))
        return recorded, deals

    def rollout_speed(self, config: RunConfig, plays: int) -> tuple[float, float]:
        """Takes a second in the kernel's plays and in a search's rollouts of the same plays (single thread)."""
        from .kernel import simulate_plays
        from .search import rollout_bench

        setup, seats = self.kernel_setup(config), lineup(config, POLICIES)
        args = (config.seed, 0, plays, setup, seats, np.zeros((0, len(self.deck(config))), np.int16),
                *no_standings(config.players), np.zeros((0, EV_COLS), np.int32), np.zeros(0, np.int64))
        return steps_per_second(lambda: simulate_plays(*args)[2].sum(),
                                lambda: rollout_bench(config.seed, 0, plays, setup, seats))

    def simulate(self, config: RunConfig, start: int, stop: int, events: bool) -> dict[str, pa.Table]:
        deck = self.deck(config)
        (out, ev, sd), deals = self._run_kernel(config, start, stop, events)
        result = {
            "games": tables.games_table(self.rules_version, start, out, deck),
            "seats": tables.seats_table(self.rules_version, start, out, config.policies),
        }
        if events:
            result["events"] = tables.events_table(self.rules_version, start, out, ev, deck)
            result["deals"] = tables.deals_table(self.rules_version, start, deals, stack_sizes(len(deck)), deck)
        if sd is not None:
            result["standings"] = tables.standings_table(self.rules_version, start, out, sd)
        return result

    def describe_play(self, config: RunConfig, play: int) -> str:
        from .replay import describe

        return describe(config, play, self.simulate(config, play, play + 1, events=True))


GAME = Mauerbruch()
