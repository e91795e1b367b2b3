"""Die Mauerspechte's lake tables: schemas (the documented contract) and kernel arrays → Arrow. The production
and events tables follow the Catan engine's (catan/tables.py), the events with the scenario's columns added."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import pyarrow as pa

from ...core import tables as shared
from ...core.feel import Feel, Standing, feel_columns, feel_fields, standings_columns, standings_fields
from ...core.lake import described
from ..catan import tables as base
from . import constants as C
from .constants import HOTEL_COLUMNS

if TYPE_CHECKING:
    from .berlin import Berlin
    from .kernel import MauerspechteOutputs

_TEXT = pa.dictionary(pa.int8(), pa.string())
_KEYS = [
    described("rules_version", pa.int16(), "Die Mauerspechte rules version the row was simulated with."),
    described("play_index", pa.int64(), "Index of the play (one game) in its run, from 0."),
]
_SEAT = described("seat", pa.int8(), "0 = the first player of the set-up and of the first turn.")

# Each seat's points after each turn, every source: all are in view (victory-point cards are shown at once).
STANDING = Standing("victory points")

GAMES = pa.schema(_KEYS + [
    described("players", pa.int8(), "Number of players."),
    described("turns", pa.int32(), "Turns played (one player's roll and actions is a turn)."),
    described("rounds", pa.int32(), "Rounds begun (turns / players, rounded up)."),
    described("end_reason", _TEXT, "won (a player had the win threshold on his turn: 15 at four, 17 at three "
              "players) or turn_limit."),
    described("completed", pa.bool_(), "The game was won, not stopped by the turn limit."),
    described("winners", pa.list_(pa.int8()), "The winning seat (empty on the turn limit)."),
    described("final_points", pa.list_(pa.int8()), "Every seat's points at the end, by seat."),
    described("winner_points", pa.int8(), "The winner's points (null on the turn limit).", nullable=True),
    described("wall_opened_turn", pa.int32(), "Turn the first lower wall piece was bought, opening the wall "
              "(null: it stayed closed).", nullable=True),
    described("wall_pieces", pa.int8(), "Wall pieces bought in the game (of 12)."),
    described("hotels", pa.int8(), "Hotels bought (of 6)."),
    described("love_parades", pa.int8(), "Love Parades that sold a chip (with love_parade_min_bid above 0 one "
              "may end with no bid and sell none)."),
    described("tiergarten_left", pa.int8(), "Chips still waiting in the Tiergarten at the end."),
    # How the play felt (docs/statistics.md), in the standing's words
    *feel_fields(STANDING),
])

SEATS = pa.schema(_KEYS + [
    _SEAT,
    described("policy", _TEXT, "Policy name of the seat."),
    described("policy_spec", _TEXT, "Policy with its parameters, `name:param=value`."),
    described("points", pa.int8(), "Victory points at the end, every source (the points_* columns add up to it)."),
    described("score", pa.int8(), "Higher is better: the points."),
    described("rank", pa.int8(), "1 + number of seats with more points (ties share a rank)."),
    described("winner", pa.bool_(), "The seat won the game."),
    described("points_settlements", pa.int8(), "Points from settlements (1 each)."),
    described("points_cities", pa.int8(), "Points from cities (2 each)."),
    described("points_longest_route", pa.int8(), "2 if the seat holds the longest-route card."),
    described("points_army", pa.int8(), "2 if the seat holds the largest-army card (here: the police)."),
    described("points_dev_cards", pa.int8(), "Victory-point development cards (shown at once)."),
    described("points_wall", pa.int8(), "Wall pieces bought (1 each)."),
    described("points_chips", pa.int8(), "Victory-point chips won at Love Parades (1 each)."),
    described("points_mauerspecht", pa.int8(), "1 if the seat holds Bester Mauerspecht (most wall pieces, alone)."),
    described("points_raver", pa.int8(), "1 if the seat holds Bester Raver (most chips, alone)."),
    described("points_hotels", pa.int8(), "hotel_points per hotel owned (0 by default)."),
    described("hotels", pa.int8(), "Hotels owned."),
    described("settlements", pa.int8(), "Settlements on the board at the end."),
    described("cities", pa.int8(), "Cities on the board at the end."),
    described("roads", pa.int8(), "Roads on the board at the end."),
    described("ships", pa.int8(), "Ships on the board at the end."),
    described("dev_bought", pa.int8(), "Development cards bought."),
    described("knights", pa.int8(), "Knights played."),
    described("longest_route", pa.int8(), "Length of the seat's longest trade route at the end."),
] + [described(f"received_{r}", pa.int16(), f"{r.capitalize()} received (set-up and production, hotels included).")
     for r in C.base.RESOURCES])

HOTELS = pa.schema(_KEYS + [
    described("hotel", _TEXT, "The hotel card (components file)."),
    described("field", pa.int16(), "Its field (board hex index)."),
    described("resource", _TEXT, "The field's resource."),
    described("chip", pa.int8(), "The chip bought with it, now the field's token (4, 5, 6, 8, 9, 10)."),
    described("old_token", pa.int8(), "The token it replaced (2, 3, 11, 12), out of the game."),
    described("seat", pa.int8(), "The buyer, the hotel's owner."),
    described("turn", pa.int32(), "Turn it was bought."),
    described("game_turns", pa.int32(), "Turns the game lasted (turn + 1 .. game_turns is the hotel's life)."),
    described("cost", pa.int8(), "Cards paid (3 for a 4/10, 4 for a 5/9, 5 for a 6/8)."),
    described("rolls", pa.int32(), "Dice rolls after it was bought (7s included), to the game's end."),
    described("yield", pa.int32(), "Cards the hotel gave its owner."),
    described("expected_yield", pa.float64(), "What the dice promised it: 2 x pips(chip)/36 per roll after it "
              "was bought; yield - expected_yield is the robber's and the bank's toll and luck."),
    described("robbed", pa.int32(), "Rolls of its chip with the robber on its field (it produced nothing)."),
    described("short", pa.int32(), "Cards the bank could not pay it."),
    described("payback_turn", pa.int32(), "Turn its yield reached its cost (null: it never paid back).",
              nullable=True),
    described("field_owner", pa.int32(), "Cards the owner's settlements and cities on the field got after "
              "the swap."),
    described("field_others", pa.int32(), "Cards the opponents' settlements and cities on the field got after the "
              "swap."),
    described("old_owner", pa.int32(), "What the owner's buildings there would have got on the same rolls under "
              "the old token (the robber counted, the bank not)."),
    described("old_others", pa.int32(), "The same for the opponents' buildings."),
    described("won", pa.bool_(), "The buyer won the game."),
])

WALL_PIECES = pa.schema(_KEYS + [
    described("section", _TEXT, "The wall section (map file)."),
    described("piece", _TEXT, "upper (2 resources) or lower (3 resources; opens the section)."),
    described("seat", pa.int8(), "The buyer."),
    described("turn", pa.int32(), "Turn it was bought."),
    described("cost", pa.int8(), "Cards paid."),
])

LOVE_PARADES = pa.schema(_KEYS + [
    described("turn", pa.int32(), "Turn of the Love Parade (a roll of doubles)."),
    described("seat", pa.int8(), "Who won the chip."),
    described("price", pa.int8(), "Cards he paid."),
    described("bidders", pa.int8(), "Players who bid at least once."),
    described("missing_number", pa.bool_(), "The roll was a 2 or 12 no longer on the board (its chip went to the "
              "Tiergarten and was auctioned at once)."),
    described("seat_on_turn", pa.int8(), "The player on turn, who opened the bidding."),
])

EVENT_ACTIONS_DOC = (
    "Catan's actions (see the catan events table) and the scenario's: wall_chip (a threshold chip put under a "
    "section), wall_piece, wall_open (a section gone), hotel_release, hotel (bought), hotel_produce, tiergarten "
    "(a chip placed there), bid, pass, pay (one card paid for a Love Parade chip, in resource), parade (the chip "
    "sold, after its pay rows), card (Bester Mauerspecht or Raver changed hands), harbour (the kind at each harbour "
    "place, at set-up).")
_EVENT_DOCS = {
    "action": EVENT_ACTIONS_DOC,
    "seat": "Seat that acted; for discard, produce and hotel_produce the seat discarding or receiving; card: the "
            "new holder (null: the card is neutralised); null for hex and harbour.",
    "resource": "discard, steal, produce, hotel_produce, pay: the card; year_of_plenty: the first card; monopoly: "
                "the resource named; trade: the resource given; harbour: a 2:1 harbour's resource (null: 3:1).",
    "amount": "monopoly: cards taken; trade: cards given for one (4, 3 or 2); produce, hotel_produce: cards "
              "received (hotel_produce: 0 when the bank had none left).",
}
EVENTS = pa.schema(
    _KEYS + [described(f.name, f.type, _EVENT_DOCS[f.name], nullable=f.nullable) if f.name in _EVENT_DOCS else f
             for f in base.EVENTS][2:]
    + [
        described("section", _TEXT, "wall_chip, wall_piece, wall_open: the section.", nullable=True),
        described("chip", pa.int8(), "wall_chip: the threshold; hotel_release: the chip now on offer; hotel: the chip "
                  "bought.", nullable=True),
        described("piece", _TEXT, "wall_piece: upper or lower.", nullable=True),
        described("hotel", _TEXT, "hotel_release, hotel, hotel_produce: the hotel card.", nullable=True),
        described("old_token", pa.int8(), "hotel: the token the chip replaced.", nullable=True),
        described("waiting", pa.int8(), "tiergarten: chips now waiting there.", nullable=True),
        described("reason", _TEXT, "tiergarten: lower_piece or missing_number.", nullable=True),
        described("bid", pa.int8(), "bid: the cards bid; parade: the price paid.", nullable=True),
        described("bidders", pa.int8(), "parade: players who bid.", nullable=True),
        described("harbour", pa.int8(), "harbour: the harbour's place (its entry in the map file, from 0); the "
                  "board's set-up, before the settlements.", nullable=True),
        described("rate", pa.int8(), "harbour: 3 (any resource, resource null) or 2 (resource) for one card.",
                  nullable=True),
        described("special_card", _TEXT, "card: bester_mauerspecht or bester_raver (its new holder is the seat; null "
                  "seat: neutralised).", nullable=True),
    ])

STANDINGS = pa.schema(_KEYS + standings_fields(STANDING))

SCHEMAS = {"games": GAMES, "seats": SEATS, "production": base.PRODUCTION, "hotels": HOTELS,
           "wall_pieces": WALL_PIECES, "love_parades": LOVE_PARADES, "events": EVENTS, "standings": STANDINGS}


def _winners(out) -> np.ndarray:
    return out.base.winner[:, None] == np.arange(out.base.points.shape[1])


def games_table(version, first_play, out: MauerspechteOutputs) -> pa.Table:
    b, w = out.base, out.berlin
    n, players = w.points.shape
    won = b.winner >= 0
    hotels = (w.hotels[:, :, HOTEL_COLUMNS.index("owner")] >= 0).sum(axis=1)
    return shared.table(GAMES, {
        **shared.keys(version, shared.play_indices(first_play, n)), "players": shared.constant(players, n),
        "turns": b.turns, "rounds": (b.turns + players - 1) // players,
        "end_reason": shared.Text(b.end_reason, C.END_REASONS), "completed": won,
        "winners": shared.winners(_winners(out)), "final_points": shared.Lists(w.points.ravel(), np.full(n, players)),
        "winner_points": np.ma.masked_array(w.points[np.arange(n), np.maximum(b.winner, 0)], ~won),
        "wall_opened_turn": np.ma.masked_less(w.wall_opened, 0), "wall_pieces": w.n_pieces, "hotels": hotels,
        "love_parades": w.n_parades, "tiergarten_left": w.tiergarten, **feel_columns(Feel._make(b.feel)),
    })


def seats_table(version, first_play, out: MauerspechteOutputs, policies, hotel_points: int) -> pa.Table:
    b, w = out.base, out.berlin
    n, players = w.points.shape
    seat = shared.seat_numbers(n, players)
    owners = w.hotels[:, :, HOTEL_COLUMNS.index("owner")]
    hotels = (owners[:, :, None] == np.arange(players)).sum(axis=1)
    settlements, cities = b.pieces[:, :, 0], b.pieces[:, :, 1]
    return shared.table(SEATS, {
        **shared.keys(version, shared.play_indices(first_play, n, players)), "seat": seat,
        **shared.policy_columns(policies, seat), "points": w.points.ravel(), "score": w.points.ravel(),
        **shared.rank_and_winner(w.points, _winners(out)),
        "points_settlements": settlements.ravel(), "points_cities": 2 * cities.ravel(),
        "points_longest_route": 2 * b.holders[:, :, 0].ravel(), "points_army": 2 * b.holders[:, :, 1].ravel(),
        "points_dev_cards": b.vp_cards.ravel(), "points_wall": w.wall_pieces.ravel(), "points_chips": w.chips.ravel(),
        "points_mauerspecht": w.cards[:, :, 0].ravel(), "points_raver": w.cards[:, :, 1].ravel(),
        "points_hotels": hotel_points * hotels.ravel(), "hotels": hotels.ravel(),
        "settlements": settlements.ravel(), "cities": cities.ravel(), "roads": b.pieces[:, :, 2].ravel(),
        "ships": b.pieces[:, :, 3].ravel(), "dev_bought": b.dev_cards[:, :, 0].ravel(),
        "knights": b.knights.ravel(), "longest_route": b.longest_route.ravel(),
        **{f"received_{r}": b.received[:, :, k].ravel() for k, r in enumerate(C.base.RESOURCES)},
    })


def hotels_table(version, first_play, out: MauerspechteOutputs, berlin: Berlin) -> pa.Table:
    """One row per hotel bought (a hotel field's terrain is the map's: the shuffled layout keeps it)."""
    w = out.berlin
    col = {name: w.hotels[:, :, k] for k, name in enumerate(HOTEL_COLUMNS)}
    play, hotel = np.nonzero(col["owner"] >= 0)
    pick = {name: values[play, hotel] for name, values in col.items()}
    field = berlin.hotel_hexes[hotel]
    pips = 6 - np.abs(7 - pick["chip"])
    won = out.base.winner[play] == pick["owner"]
    return shared.table(HOTELS, {
        **shared.keys(version, (play + first_play).astype(np.int64)),
        "hotel": shared.Text(hotel, berlin.hotel_names), "field": field,
        "resource": shared.Text(berlin.board.hex_terrain[field], C.base.RESOURCES), "chip": pick["chip"],
        "old_token": pick["old_token"], "seat": pick["owner"], "turn": pick["turn"],
        "game_turns": out.base.turns[play], "cost": pick["paid"], "rolls": pick["rolls"], "yield": pick["yield"],
        "expected_yield": 2 * pips * pick["rolls"] / 36.0, "robbed": pick["robbed"], "short": pick["short"],
        "payback_turn": np.ma.masked_less(pick["payback_turn"], 0), "field_owner": pick["field_owner"],
        "field_others": pick["field_others"], "old_owner": pick["old_owner"], "old_others": pick["old_others"],
        "won": won,
    })


def wall_pieces_table(version, first_play, out: MauerspechteOutputs, berlin: Berlin) -> pa.Table:
    w = out.berlin
    play, k = np.nonzero(np.arange(w.pieces.shape[1]) < w.n_pieces[:, None])
    rows = w.pieces[play, k]
    return shared.table(WALL_PIECES, {
        **shared.keys(version, (play + first_play).astype(np.int64)),
        "section": shared.Text(rows[:, 0], berlin.section_names),
        "piece": shared.Text(rows[:, 1] - 1, ["lower", "upper"]),
        "seat": rows[:, 2], "turn": rows[:, 3], "cost": rows[:, 4],
    })


def love_parades_table(version, first_play, out: MauerspechteOutputs) -> pa.Table:
    w = out.berlin
    players = w.points.shape[1]
    play, k = np.nonzero(np.arange(w.parades.shape[1]) < w.n_parades[:, None])
    rows = w.parades[play, k]
    return shared.table(LOVE_PARADES, {
        **shared.keys(version, (play + first_play).astype(np.int64)),
        "turn": rows[:, 0], "seat": rows[:, 1], "price": rows[:, 2], "bidders": rows[:, 3],
        "missing_number": rows[:, 4].astype(bool), "seat_on_turn": rows[:, 0] % players,
    })


def events_table(version, first_play, counts, ev, berlin: Berlin) -> pa.Table:
    """The engine's event columns (its own actions as catan/tables.py writes them; a hotel's production as a
    `produce` row's resource and amount), then the scenario's action names and columns."""
    action, a, b, c = ev[:, 2], ev[:, 3], ev[:, 4], ev[:, 5]
    as_base = ev.copy()
    own = action >= len(C.base.EVENT_ACTIONS)
    as_base[own, 2] = C.base.EV_END_TURN  # no argument columns
    as_base[action == C.EV_HOTEL_PRODUCE, 2] = C.base.EV_PRODUCE
    as_base[action == C.EV_PAY, 2] = C.base.EV_DISCARD  # one card, in the resource column
    harbour = action == C.EV_HARBOUR
    as_base[harbour, 2] = C.base.EV_DISCARD  # a 2:1 harbour's resource in the resource column
    as_base[harbour, 3] = c[harbour]
    table = base.events_table(version, first_play, counts, as_base)

    def used(values, *actions):
        return np.ma.masked_array(values, ~np.isin(action, actions))

    def text(values, names, *actions):
        return shared.Text(np.where(np.isin(action, actions), values, -1), names)

    columns = {name: table.column(name).combine_chunks() for name in table.column_names}
    columns["action"] = shared.Text(action, C.EVENT_ACTIONS)
    with_section = (C.EV_WALL_CHIP, C.EV_WALL_PIECE, C.EV_WALL_OPEN)
    columns.update({
        "section": text(a, berlin.section_names, *with_section),
        "chip": used(b, C.EV_WALL_CHIP, C.EV_HOTEL_RELEASE, C.EV_HOTEL),
        "piece": text(b - 1, ["lower", "upper"], C.EV_WALL_PIECE),
        "hotel": text(np.where(action == C.EV_HOTEL_PRODUCE, c, a), berlin.hotel_names, C.EV_HOTEL_RELEASE,
                      C.EV_HOTEL, C.EV_HOTEL_PRODUCE),
        "old_token": used(c, C.EV_HOTEL), "waiting": used(a, C.EV_TIERGARTEN),
        "reason": text(b, ["lower_piece", "missing_number"], C.EV_TIERGARTEN),
        "bid": used(a, C.EV_BID, C.EV_PARADE), "bidders": used(b, C.EV_PARADE),
        "special_card": text(a, C.CARDS, C.EV_CARD),
        "harbour": used(a, C.EV_HARBOUR), "rate": used(b, C.EV_HARBOUR),
    })
    return shared.table(EVENTS, columns)


def standings_table(version, first_play, turns: np.ndarray, rows: np.ndarray) -> pa.Table:
    """The standings table (a run with --standings): each seat's points after each turn, from the kernel's kept
    rows (core/tables.Recorded)."""
    columns = standings_columns(STANDING, first_play, turns, rows)
    return shared.table(STANDINGS, {**columns, **shared.keys(version, columns["play_index"])})
