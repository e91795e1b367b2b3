"""Blocks: points, the longest-route card after a route changed, and a finished play's output rows."""

from typing import NamedTuple

import numba as nb
import numpy as np

from ...core.blocks import block
from .constants import (
    CARD_POINTS,
    CITIES,
    DICE_OUTCOMES,
    LONGEST_ROUTE_MIN,
    N_RES,
    N_SUMS,
    ROADS,
    SETTLEMENTS,
    SHIPS,
    TURN_LIMIT,
    VICTORY_POINT,
    WON,
)
from .rules import longest_route_holder, longest_route_in


@nb.njit(cache=True, inline="always")
def points(st, p):
    """Victory points: a point per settlement, two per city, victory-point cards, and the longest-route and
    largest-army cards."""
    return st.building_points[p] + st.dev_hand[p, VICTORY_POINT] \
        + CARD_POINTS * (int(st.longest_holder[0] == p) + int(st.army_holder[0] == p))


@nb.njit(cache=True, _nrt=False, inline="always")
def update_routes(st, rules, bd, scratch, p, settled):
    """After p's route changed: his longest route, and on a new settlement (node `settled`, else -1) that
    of every player with a piece there (it may cut theirs), are out of date; so is the list of ships he
    may move; then who holds the card.

    A route is searched for only when the card could depend on it: a player's route is at most his
    pieces on the board, so one whose pieces are fewer than the larger of LONGEST_ROUTE_MIN and the
    longest route known exactly can neither take the card nor tie for it, and his route stays out of
    date until it could (the search is most of the kernel's time otherwise)."""
    st.n_movable[0] = -1
    P = st.hands.shape[0]
    for q in range(P):
        affected = q == p
        if settled >= 0:
            for x in range(3):
                f = bd.node_edges[settled, x]
                affected = affected or (f >= 0 and st.edge_owner[f] == q)
        st.route_stale[q] = st.route_stale[q] or affected
    while True:
        need = LONGEST_ROUTE_MIN
        for q in range(P):
            if not st.route_stale[q]:
                need = max(need, st.routes[q])
        search = -1
        for q in range(P):
            pieces = rules.piece_limits[ROADS] - st.left[q, ROADS] + rules.piece_limits[SHIPS] - st.left[q, SHIPS]
            if search < 0 and st.route_stale[q] and pieces >= need:
                search = q
        if search < 0:
            break
        st.routes[search] = longest_route_in(search, st.edge_owner, st.edge_kind, st.node_owner, bd.node_edges,
                                             bd.edge_nodes, scratch.route_work)
        st.route_stale[search] = False
    for q in range(P):
        scratch.known_routes[q] = 0 if st.route_stale[q] else st.routes[q]
    st.longest_holder[0] = longest_route_holder(scratch.known_routes, st.longest_holder[0])


class CatanOutputs(NamedTuple):
    """simulate_games' arrays by name."""

    turns: np.ndarray          # [plays] turns played
    end_reason: np.ndarray     # [plays] WON or TURN_LIMIT
    winner: np.ndarray         # [plays] the winning seat (-1 on the turn limit)
    points: np.ndarray         # [plays, seats] victory points
    pieces: np.ndarray         # [plays, seats, 4] settlements, cities, roads, ships on the board
    dev_cards: np.ndarray      # [plays, seats, 2] development cards bought, played
    knights: np.ndarray        # [plays, seats] knights played
    longest_route: np.ndarray  # [plays, seats] length of the longest trade route
    holders: np.ndarray        # [plays, seats, 2] holds the longest-route card, the largest-army card
    received: np.ndarray       # [plays, seats, resources] received (set-up and production)
    lost: np.ndarray           # [plays, seats, 2, resources] lost to the robber, to discards
    production: np.ndarray     # [plays, seats, 2, resources] received from rolls by settlements, by cities
    hands: np.ndarray          # [plays, seats, resources] the final hand
    bank: np.ndarray           # [plays, resources] the final bank
    vp_cards: np.ndarray       # [plays, seats] victory-point cards held
    actions: np.ndarray        # [plays] actions taken
    rolls: np.ndarray          # [plays, 13] how often each dice sum was rolled
    n_events: np.ndarray       # [plays] event rows (the count-then-fill pass's counts)
    expected: np.ndarray       # [plays, seats, 2, resources] cards the dice promised settlements, cities


@block()
def new_outputs(n_plays, P):
    shape, resources, kinds = (n_plays, P), (n_plays, P, N_RES), (n_plays, P, 2, N_RES)
    return CatanOutputs(
        turns=np.zeros(n_plays, np.int32), end_reason=np.zeros(n_plays, np.int8), winner=np.full(n_plays, -1, np.int8),
        points=np.zeros(shape, np.int8), pieces=np.zeros((n_plays, P, 4), np.int8),
        dev_cards=np.zeros((n_plays, P, 2), np.int8), knights=np.zeros(shape, np.int8),
        longest_route=np.zeros(shape, np.int8), holders=np.zeros((n_plays, P, 2), np.bool_),
        received=np.zeros(resources, np.int16), lost=np.zeros(kinds, np.int16), production=np.zeros(kinds, np.int16),
        hands=np.zeros(resources, np.int16), bank=np.zeros((n_plays, N_RES), np.int16),
        vp_cards=np.zeros(shape, np.int8), actions=np.zeros(n_plays, np.int32),
        rolls=np.zeros((n_plays, N_SUMS), np.int32),
        n_events=np.zeros(n_plays, np.int64), expected=np.zeros(kinds, np.float64))


@block()
def final_rows(out, i, st, tally, rules, bd, scratch, turns, winner, n_events):
    """Row i of the outputs from a finished play."""
    out.turns[i] = turns
    out.n_events[i] = n_events
    out.actions[i] = tally.actions[0]
    out.end_reason[i] = WON if winner >= 0 else TURN_LIMIT
    out.winner[i] = winner
    out.rolls[i, :] = tally.rolls
    for q in range(st.hands.shape[0]):
        out.points[i, q] = points(st, q)
        for k in (SETTLEMENTS, CITIES, ROADS, SHIPS):
            out.pieces[i, q, k] = rules.piece_limits[k] - st.left[q, k]
        out.dev_cards[i, q, 0] = tally.bought[q]
        out.dev_cards[i, q, 1] = tally.played[q]
        out.knights[i, q] = st.knights[q]
        out.longest_route[i, q] = longest_route_in(q, st.edge_owner, st.edge_kind, st.node_owner, bd.node_edges,
                                                   bd.edge_nodes, scratch.route_work)
        out.holders[i, q, 0] = st.longest_holder[0] == q
        out.holders[i, q, 1] = st.army_holder[0] == q
        out.vp_cards[i, q] = st.dev_hand[q, VICTORY_POINT]
        for r in range(N_RES):
            out.received[i, q, r] = tally.received[q, r]
            out.hands[i, q, r] = st.hands[q, r]
            for k in range(2):
                out.lost[i, q, k, r] = tally.lost[q, k, r]
                out.production[i, q, k, r] = tally.by_kind[q, k, r]
                out.expected[i, q, k, r] = tally.promised[q, k, r] / DICE_OUTCOMES
    for r in range(N_RES):
        out.bank[i, r] = st.bank[r]

