"""The batch kernel: whole games of Die Mauerspechte, one play after another, each composed of the blocks of
play.py (Berlin's board, the wall, a new game, the opening and the turns) and the engine's final rows, with the
scenario's beside them (berlin_rows). Line-ups with a search seat run search.simulate_search_games, a kernel of
its own over the same blocks, so that scripted runs never compile the search.
"""

from typing import NamedTuple

import numpy as np

from ...core.blocks import block
from ...core.feel import keep_standing
from ...core.rng import play_key
from ..catan.scoring import final_rows, new_outputs
from ..catan.setup import new_game, start_play
from ..catan.state import EventLog, new_scratch, new_state, new_tally
from .constants import HOTEL_COLUMNS, MAUERSPECHT, MAX_CHIPS, MAX_PIECES, N_FAMILIES, N_HOTELS, RAVER
from .play import place_opening_berlin, play_on
from .setup import deal_berlin
from .state import Play, engine, new_wall, play_board, reset_wall, side_board
from .wall import berlin_points, lay_walls


class BerlinOutputs(NamedTuple):
    """The scenario's arrays beside the engine's (scoring.CatanOutputs)."""

    points: np.ndarray        # [plays, seats] the scenario's points (the engine's plus walls, chips, cards)
    wall_pieces: np.ndarray   # [plays, seats]
    chips: np.ndarray         # [plays, seats] victory-point chips
    cards: np.ndarray         # [plays, seats, 2] holds Bester Mauerspecht, Bester Raver
    wall_opened: np.ndarray   # [plays] turn of the first lower piece, -1 never
    tiergarten: np.ndarray    # [plays] chips left waiting at the end
    hotels: np.ndarray        # [plays, 6, HOTEL_COLUMNS]
    pieces: np.ndarray        # [plays, 12, 5] section, level, buyer, turn, cards (n_pieces rows used)
    n_pieces: np.ndarray      # [plays]
    parades: np.ndarray       # [plays, MAX_CHIPS, 5] turn, winner, price, bidders, missing (n_parades used)
    n_parades: np.ndarray     # [plays]


class MauerspechteOutputs(NamedTuple):
    base: tuple               # scoring.CatanOutputs
    berlin: BerlinOutputs

    @property
    def n_events(self):
        return self.base.n_events

    @property
    def turns(self):
        return self.base.turns


@block()
def new_berlin_outputs(n_plays, P):
    i16 = np.int16
    return BerlinOutputs(
        points=np.zeros((n_plays, P), np.int8), wall_pieces=np.zeros((n_plays, P), np.int8),
        chips=np.zeros((n_plays, P), np.int8), cards=np.zeros((n_plays, P, 2), np.bool_),
        wall_opened=np.zeros(n_plays, np.int32), tiergarten=np.zeros(n_plays, np.int8),
        hotels=np.zeros((n_plays, N_HOTELS, len(HOTEL_COLUMNS)), np.int32),
        pieces=np.zeros((n_plays, MAX_PIECES, 5), np.int32), n_pieces=np.zeros(n_plays, i16),
        parades=np.zeros((n_plays, MAX_CHIPS, 5), np.int32), n_parades=np.zeros(n_plays, i16))


@block()
def new_play(setup, lg, n_players):
    """A play's arrays for one kernel call (its own board: the wall changes the board's flags), logging to lg."""
    bd = play_board(setup.bd, setup.ba)
    ba = setup.ba
    return Play(new_state(bd, setup.rules, n_players), new_tally(n_players), setup.rules, bd,
                side_board(bd, ba.west_land), side_board(bd, ba.east_land), ba, setup.br, new_wall(n_players),
                new_scratch(bd, n_players, N_FAMILIES), lg)


@block()
def start_berlin(pl, key):
    """A play begins: its key, Berlin's board, the wall laid, a new game (the opening is play's)."""
    start_play(pl.st, pl.tally, key)
    reset_wall(pl.wl, pl.br.vp_chips)
    deal_berlin(pl.st, pl.bd, pl.ba, pl.br, pl.scratch, pl.lg)
    lay_walls(pl.bd, pl.ba, pl.wl)
    new_game(pl.st, pl.rules)


@block()
def simulate_games(seed, first_play, n_plays, max_turns, seats, setup, sd, sd_start, ev, ev_start):
    """Plays first_play .. first_play+n_plays-1 of Berlin (setup: the engine's board arrays and Rules, the
    scenario's arrays and BerlinRules; seats: catan's state.Seats). Returns (CatanOutputs, BerlinOutputs); events
    as in the engine's kernel, and how each play felt (CatanOutputs.feel) from the standing its log keeps; with
    sd_start, each play's standing from row sd_start[i] of sd.

    Positional parameters: a compiled entry point's, called by core/tables.record_kernel as every kernel is (the
    game's arguments, then the standing and event buffers)."""
    n_players = seats.codes.shape[0]
    out = new_outputs(n_plays, n_players)
    bo = new_berlin_outputs(n_plays, n_players)
    lg = EventLog(rows=ev, pos=np.zeros(1, np.int64), standing=np.zeros((max_turns, n_players)))
    pl = new_play(setup, lg, n_players)
    for i in range(n_plays):
        first = ev_start[i] if ev.shape[0] > 0 else 0
        pl.lg.pos[0] = first
        start_berlin(pl, play_key(seed, first_play + i))
        place_opening_berlin(pl, seats)
        turn, winner = play_on(pl, seats, 0, max_turns)
        final_rows(out, i, engine(pl, pl.bd), turn, winner, pl.lg.pos[0] - first)
        berlin_rows(bo, i, pl.st, pl.wl, pl.br)
        keep_standing(sd, sd_start, i, pl.lg.standing, turn)
    return out, bo


@block()
def berlin_rows(bo, i, st, wl, br):
    for q in range(st.hands.shape[0]):
        bo.points[i, q] = berlin_points(st, wl, br, q)
        bo.wall_pieces[i, q] = wl.pieces[q]
        bo.chips[i, q] = wl.chips[q]
        bo.cards[i, q, 0] = wl.holder[MAUERSPECHT] == q
        bo.cards[i, q, 1] = wl.holder[RAVER] == q
    bo.wall_opened[i] = wl.opened_turn[0]
    bo.tiergarten[i] = wl.tiergarten[0]
    for h in range(N_HOTELS):
        row = (wl.hotel_owner[h], wl.hotel_chip[h], wl.hotel_old[h], wl.hotel_turn[h], wl.hotel_paid[h],
               wl.hotel_yield[h], wl.hotel_payback[h], wl.hotel_rolls[h], wl.hotel_robbed[h], wl.hotel_short[h],
               wl.field_got[h, 0], wl.field_got[h, 1], wl.field_old[h, 0], wl.field_old[h, 1])
        for c in range(len(row)):
            bo.hotels[i, h, c] = row[c]
    bo.n_pieces[i] = wl.n_pieces[0]
    bo.pieces[i, :, :] = wl.piece_row
    bo.n_parades[i] = wl.n_parades[0]
    bo.parades[i, :, :] = wl.parade_row
