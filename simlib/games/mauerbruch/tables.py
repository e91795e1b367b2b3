"""Mauerbruch's lake tables: schemas (the documented contract) and kernel arrays → Arrow
(the columns every game shares come from simlib/core/tables.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import pyarrow as pa

from ...core import tables as shared
from ...core.feel import Feel, Standing, feel_columns, feel_fields, standings_columns, standings_fields
from ...core.lake import described
from .constants import (
    BROKEN,
    END_REASONS,
    EV_BAN2,
    EV_BAN5,
    EV_CARD_A,
    EV_CARD_B,
    EV_KIND,
    EV_PHASE,
    EV_PLAY,
    EV_SEAT,
    EV_STACK_A,
    EV_STACK_B,
    EV_SWAP_CARD,
    EV_SWAP_STACK,
    EV_TAKE,
    EV_TURN,
    N_STACKS,
    PAIR_KINDS,
    PHASES,
)

if TYPE_CHECKING:
    from .deck import Deck
    from .kernel import MauerbruchOutputs

_TEXT = pa.dictionary(pa.int16(), pa.string())
_KEYS = [
    described("rules_version", pa.int16(), "Mauerbruch rules version the row was simulated with."),
    described("play_index", pa.int64(), "Index of the play in its run, from 0."),
]

STANDING = Standing("cards won", "take")  # the cards each seat has won, after each take (the bonus in the last)

GAMES = pa.schema(_KEYS + [
    described("players", pa.int8(), "Number of players."),
    described("first_player", pa.int8(), "Table position of seat 0, the player who begins after the opening."),
    described("opener_seat", pa.int8(), "Seat of the player who opened (removed the first double pair)."),
    described("turns", pa.int32(), "Turns played after the opening."),
    described("takes", pa.int32(), "Pairs taken, the opening's included."),
    described("opening_pairs", pa.int16(), "Double pairs removed in the opening."),
    described("end_reason", _TEXT, "broken (a stack was emptied) or blocked (the player to move had no pair)."),
    described("completed", pa.bool_(), "The wall was broken (the rules' own end), not blocked."),
    described("stack_emptied", pa.int8(), "The stack (0-6, left to right) whose emptying broke the wall.",
              nullable=True),
    described("bonus_stack", pa.int8(), "The neighbouring stack the breaker added to his pile.", nullable=True),
    described("bonus_cards", pa.int16(), "Cards in that neighbouring stack (the value of breaking the wall)."),
    described("cards_left", pa.int16(), "Cards left in the wall at the end (after the bonus)."),
    described("deck_name", _TEXT, "The deck's name."),
    described("deck_id", _TEXT, "The deck's content hash (equal ids: equal cards)."),
    described("winners", pa.list_(pa.int8()), "Seats with the most cards (all of them on a tie)."),
    # How the play felt (docs/statistics.md), in the standing's words
    *feel_fields(STANDING),
])

SEATS = pa.schema(_KEYS + [
    described("seat", pa.int8(), "0 = the player who begins after the opening, counting in turn order."),
    described("player", pa.int8(), "Table position (0 = the first player at the table, who opens)."),
    described("policy", _TEXT, "Policy name of the seat."),
    described("policy_spec", _TEXT, "Policy with its parameters, `name:param=value`."),
    described("cards", pa.int16(), "Cards on the seat's pile at the end (the score)."),
    described("score", pa.int16(), "Higher is better: the cards won."),
    described("rank", pa.int8(), "1 + number of seats with more cards (ties share a rank)."),
    described("winner", pa.bool_(), "The seat has the most cards (shared wins count for each)."),
    described("opened", pa.bool_(), "The seat opened (removed the first double pair)."),
    described("pairs", pa.int16(), "Pairs the seat took in its turns (and the opening's single pair)."),
    described("doubles", pa.int16(), "Of those, double pairs."),
    described("swaps", pa.int16(), "Wunschkarte swaps the seat made."),
    described("bonus_cards", pa.int16(), "Cards the seat got for breaking the wall (0 unless it broke it)."),
])

EVENTS = pa.schema(_KEYS + [
    described("take", pa.int32(), "Pair taken within the play, from 0 (the opening's pairs first)."),
    described("phase", _TEXT, "opening_double (removed in the opening), opening_single or turn."),
    described("turn", pa.int32(), "Turn after the opening, from 0 (-1 in the opening)."),
    described("seat", pa.int8(), "Seat that took the pair."),
    described("card_a", pa.int32(), "Id (from the deck file) of the first card."),
    described("label_a", _TEXT, "The first card, readable: symbol:value, symbol:joker, ban2, ban5 or wish."),
    described("stack_a", pa.int8(), "Stack (0-6) it was taken from."),
    described("card_b", pa.int32(), "Id of the second card."),
    described("label_b", _TEXT, "The second card, readable."),
    described("stack_b", pa.int8(), "Stack it was taken from."),
    described("pair_kind", _TEXT, "double or single, as judged under the bans in force."),
    described("ban2", pa.bool_(), "A 2er-Verbot lay face up on top of the wall when the pair was taken."),
    described("ban5", pa.bool_(), "A 5er-Verbot lay face up on top of the wall."),
    described("swap_card", pa.int32(), "Before this take, the pile card swapped onto the wall for a Wunschkarte.",
              nullable=True),
    described("swap_stack", pa.int8(), "The stack whose top Wunschkarte was swapped.", nullable=True),
])

DEALS = pa.schema(_KEYS + [
    described("stacks", pa.list_(pa.list_(pa.int32())),
              "The dealt wall: per stack (0-6, left to right) the card ids from bottom to top."),
])

STANDINGS = pa.schema(_KEYS + standings_fields(STANDING))

SCHEMAS = {"games": GAMES, "seats": SEATS, "events": EVENTS, "deals": DEALS, "standings": STANDINGS}


def _by_seat(per_position: np.ndarray, first_player: np.ndarray) -> np.ndarray:
    """[plays, table positions] → [plays, seats] (seat 0 at the table position first_player)."""
    return np.take_along_axis(per_position, shared.table_positions(first_player, per_position.shape[1]), axis=1)


def games_table(rules_version, first_play, out: MauerbruchOutputs, deck: Deck) -> pa.Table:
    n, players = out.piles.shape
    return shared.table(GAMES, {
        **shared.keys(rules_version, shared.play_indices(first_play, n)), "players": shared.constant(players, n),
        "first_player": out.first_player, "opener_seat": (-out.first_player.astype(np.int64)) % players,
        "turns": out.turns, "takes": out.takes, "opening_pairs": out.opening_pairs,
        "end_reason": shared.Text(out.end_reason, END_REASONS), "completed": out.end_reason == BROKEN,
        "stack_emptied": np.ma.masked_less(out.emptied_stack, 0),
        "bonus_stack": np.ma.masked_less(out.bonus_stack, 0), "bonus_cards": out.bonus_cards,
        "cards_left": out.cards_left, "deck_name": shared.constant(deck.name, n),
        "deck_id": shared.constant(deck.id, n),
        "winners": shared.winners(shared.top_scorers(_by_seat(out.piles, out.first_player))),
        **feel_columns(Feel._make(out.feel), out.first_player, players),
    })


def seats_table(rules_version, first_play, out: MauerbruchOutputs, policies) -> pa.Table:
    n, players = out.piles.shape
    player = shared.table_positions(out.first_player, players).ravel()
    cards = _by_seat(out.piles, out.first_player)
    # The wall-breaker is the seat that took the last pair when the wall broke; he alone holds the bonus.
    bonus = np.zeros((n, players), np.int16)
    broke = out.bonus_stack >= 0
    bonus[np.nonzero(broke)[0], out.breaker[broke]] = out.bonus_cards[broke]
    return shared.table(SEATS, {
        **shared.keys(rules_version, shared.play_indices(first_play, n, players)),
        "seat": shared.seat_numbers(n, players), "player": player, **shared.policy_columns(policies, player),
        "cards": cards.ravel(), "score": cards.ravel(), **shared.rank_and_winner(cards), "opened": player == 0,
        **{name: _by_seat(getattr(out, name), out.first_player).ravel() for name in ("pairs", "doubles", "swaps")},
        "bonus_cards": _by_seat(bonus, out.first_player).ravel(),
    })


def card_labels(deck) -> list[str]:
    from .constants import JOKER, KINDS, NUMBER, SYMBOLS

    labels = []
    for k, s, v in zip(deck.kinds.tolist(), deck.symbols.tolist(), deck.values.tolist()):
        if k == NUMBER:
            labels.append(f"{SYMBOLS[s]}:{v}")
        elif k == JOKER:
            labels.append(f"{SYMBOLS[s]}:joker")
        else:
            labels.append(KINDS[k])
    return labels


def events_table(rules_version, first_play, out: MauerbruchOutputs, ev: np.ndarray, deck: Deck) -> pa.Table:
    play = ev[:, EV_PLAY]
    seat = (ev[:, EV_SEAT] - out.first_player.astype(np.int64)[play - first_play]) % out.piles.shape[1]
    labels = card_labels(deck)
    ids = deck.ids
    swap = ev[:, EV_SWAP_CARD]
    return shared.table(EVENTS, {
        **shared.keys(rules_version, play.astype(np.int64)), "take": ev[:, EV_TAKE],
        "phase": shared.Text(ev[:, EV_PHASE], PHASES), "turn": ev[:, EV_TURN], "seat": seat,
        "card_a": ids[ev[:, EV_CARD_A]], "label_a": shared.Text(ev[:, EV_CARD_A], labels), "stack_a": ev[:, EV_STACK_A],
        "card_b": ids[ev[:, EV_CARD_B]], "label_b": shared.Text(ev[:, EV_CARD_B], labels), "stack_b": ev[:, EV_STACK_B],
        "pair_kind": shared.Text(ev[:, EV_KIND], PAIR_KINDS), "ban2": ev[:, EV_BAN2] == 1, "ban5": ev[:, EV_BAN5] == 1,
        "swap_card": np.ma.masked_array(ids[np.maximum(swap, 0)], swap < 0),
        "swap_stack": np.ma.masked_less(ev[:, EV_SWAP_STACK], 0),
    })


def deals_table(rules_version, first_play, deals: np.ndarray, sizes: np.ndarray, deck: Deck) -> pa.Table:
    n = deals.shape[0]
    walls = shared.Lists(shared.Lists(deck.ids[deals].ravel(), np.tile(sizes, n)), np.full(n, N_STACKS))
    return shared.table(DEALS, {**shared.keys(rules_version, shared.play_indices(first_play, n)), "stacks": walls})


def standings_table(rules_version, first_play, out: MauerbruchOutputs, rows: np.ndarray) -> pa.Table:
    """The standings table (a run with --standings): each seat's cards won after each take, from the kernel's kept
    rows (core/tables.Recorded), which count in table positions."""
    columns = standings_columns(STANDING, first_play, out.takes, rows, out.first_player)
    return shared.table(STANDINGS, {**columns, **shared.keys(rules_version, columns["play_index"])})
