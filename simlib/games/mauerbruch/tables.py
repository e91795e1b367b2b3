"""Mauerbruch's lake tables: schemas (the documented contract) and kernel arrays → Arrow."""

import numpy as np
import pyarrow as pa

from ...core.lake import described
from .constants import (
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
    PAIR_KINDS,
    PHASES,
)

_TEXT = pa.dictionary(pa.int16(), pa.string())
_KEYS = [
    described("rules_version", pa.int16(), "Mauerbruch rules version the row was simulated with."),
    described("play_index", pa.int64(), "Index of the play in its run, from 0."),
]

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

SCHEMAS = {"games": GAMES, "seats": SEATS, "events": EVENTS, "deals": DEALS}


def _text(codes: np.ndarray, names) -> pa.DictionaryArray:
    codes = np.asarray(codes, np.int16)
    mask = codes < 0
    return pa.DictionaryArray.from_arrays(pa.array(codes, mask=mask if mask.any() else None), pa.array(names))


def _const(value, n, type_):
    return pa.array(np.full(n, value), type_)


def _nullable(values, type_):
    values = np.asarray(values)
    return pa.array(values, type_, mask=values < 0)


def games_table(rules_version, first_play, out, deck_name, deck_id) -> pa.Table:
    first, turns, takes, opening_pairs, end_reason, emptied, bonus_stack, bonus_cards, cards_left, piles = out[:10]
    n, players = piles.shape
    is_winner = piles == piles.max(axis=1, keepdims=True)
    seat_of = (np.arange(players)[None, :] - first.astype(np.int64)[:, None]) % players  # per table position
    winner_seats = np.sort(np.where(is_winner, seat_of, players), axis=1)
    counts = is_winner.sum(axis=1)
    flat = winner_seats[np.arange(players)[None, :] < counts[:, None]].astype(np.int8)
    offsets = np.concatenate([[0], np.cumsum(counts)]).astype(np.int32)
    cols = [
        _const(rules_version, n, pa.int16()), pa.array(np.arange(first_play, first_play + n, dtype=np.int64)),
        _const(players, n, pa.int8()), pa.array(first), pa.array(((-first.astype(np.int64)) % players).astype(np.int8)),
        pa.array(turns), pa.array(takes), pa.array(opening_pairs.astype(np.int16)), _text(end_reason, END_REASONS),
        pa.array(end_reason == 0), _nullable(emptied, pa.int8()), _nullable(bonus_stack, pa.int8()),
        pa.array(bonus_cards), pa.array(cards_left), _text(np.zeros(n), [deck_name]), _text(np.zeros(n), [deck_id]),
        pa.ListArray.from_arrays(pa.array(offsets), pa.array(flat)),
    ]
    return pa.Table.from_arrays(cols, schema=GAMES)


def seats_table(rules_version, first_play, out, policy_names, policy_specs) -> pa.Table:
    first, *_, bonus_stack, bonus_cards, _, piles, pairs, doubles, swaps, breakers = out
    n, players = piles.shape
    seat = np.tile(np.arange(players, dtype=np.int8), n)
    player = ((first.astype(np.int64)[:, None] + np.arange(players)) % players)  # per play and seat
    rows = np.arange(n)[:, None]

    def by_seat(per_player):
        return per_player[rows, player].ravel()

    cards = by_seat(piles)
    best = piles.max(axis=1)
    is_winner = cards == np.repeat(best, players)
    rank = 1 + (piles[rows, player][:, None, :] > piles[rows, player][:, :, None]).sum(axis=2).ravel()
    # The wall-breaker is the seat that took the last pair when the wall broke; he alone holds the bonus.
    bonus = np.zeros((n, players), np.int16)
    broke = bonus_stack >= 0
    bonus[np.nonzero(broke)[0], breakers[broke]] = bonus_cards[broke]
    name_codes = {name: i for i, name in enumerate(dict.fromkeys(policy_names))}
    spec_codes = {spec: i for i, spec in enumerate(dict.fromkeys(policy_specs))}
    per_player_name = np.array([name_codes[p] for p in policy_names], np.int16)
    per_player_spec = np.array([spec_codes[p] for p in policy_specs], np.int16)
    flat_player = player.ravel()
    cols = [
        _const(rules_version, n * players, pa.int16()),
        pa.array(np.repeat(np.arange(first_play, first_play + n, dtype=np.int64), players)),
        pa.array(seat), pa.array(flat_player.astype(np.int8)),
        _text(per_player_name[flat_player], list(name_codes)), _text(per_player_spec[flat_player], list(spec_codes)),
        pa.array(cards), pa.array(cards), pa.array(rank.astype(np.int8)), pa.array(is_winner),
        pa.array(flat_player == 0), pa.array(by_seat(pairs)), pa.array(by_seat(doubles)), pa.array(by_seat(swaps)),
        pa.array(by_seat(bonus)),
    ]
    return pa.Table.from_arrays(cols, schema=SEATS)


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


def events_table(rules_version, ev: np.ndarray, first: np.ndarray, first_play: int, players: int, deck) -> pa.Table:
    e = ev.shape[0]
    play_first = first.astype(np.int64)[ev[:, EV_PLAY] - first_play]
    seat = ((ev[:, EV_SEAT] - play_first) % players).astype(np.int8)
    labels = card_labels(deck)
    ids = deck.ids
    swap = ev[:, EV_SWAP_CARD]
    cols = [
        _const(rules_version, e, pa.int16()), pa.array(ev[:, EV_PLAY].astype(np.int64)),
        pa.array(ev[:, EV_TAKE].astype(np.int32)), _text(ev[:, EV_PHASE], PHASES),
        pa.array(ev[:, EV_TURN].astype(np.int32)), pa.array(seat),
        pa.array(ids[ev[:, EV_CARD_A]]), _text(ev[:, EV_CARD_A], labels), pa.array(ev[:, EV_STACK_A].astype(np.int8)),
        pa.array(ids[ev[:, EV_CARD_B]]), _text(ev[:, EV_CARD_B], labels), pa.array(ev[:, EV_STACK_B].astype(np.int8)),
        _text(ev[:, EV_KIND], PAIR_KINDS), pa.array(ev[:, EV_BAN2] == 1), pa.array(ev[:, EV_BAN5] == 1),
        pa.array(np.where(swap >= 0, ids[np.maximum(swap, 0)], 0).astype(np.int32), mask=swap < 0),
        _nullable(ev[:, EV_SWAP_STACK].astype(np.int8), pa.int8()),
    ]
    return pa.Table.from_arrays(cols, schema=EVENTS)


def deals_table(rules_version, first_play, deals: np.ndarray, sizes: np.ndarray, deck) -> pa.Table:
    n, n_cards = deals.shape
    ids = deck.ids[deals].ravel().astype(np.int32)
    inner = pa.ListArray.from_arrays(pa.array(np.concatenate([[0], np.cumsum(np.tile(sizes, n))]).astype(np.int32)),
                                     pa.array(ids))
    outer = pa.ListArray.from_arrays(pa.array(np.arange(0, 7 * n + 1, 7, dtype=np.int32)), inner)
    cols = [_const(rules_version, n, pa.int16()), pa.array(np.arange(first_play, first_play + n, dtype=np.int64)),
            outer]
    return pa.Table.from_arrays(cols, schema=DEALS)
