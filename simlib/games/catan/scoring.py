"""Blocks: points, the standing after a turn, the longest-route card after a route changed, and a finished play's
output rows."""

from typing import NamedTuple

import numba as nb
import numpy as np

from ...core.blocks import block
from ...core.feel import Feel, new_feel, record_feel
from .constants import (
    CARD_POINTS,
    CITIES,
    DICE_OUTCOMES,
    LONGEST_ROUTE_MIN,
    N_RES,
    N_SUMS,
    NO_ROUTE_BOUND,
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


@nb.njit(cache=True, inline="always")
def standing_after(st, lg, turn, over):
    """Row `turn` of the play's standing (lg.standing; none kept where it has no rows, as in a search's rollouts):
    every seat's victory points as the table sees them after the turn. Victory-point cards are kept hidden in the
    hand until the play is `over` (its last turn): that row is the final points."""
    standing = lg.standing
    if standing.shape[0] > 0:
        for q in range(standing.shape[1]):
            standing[turn, q] = points(st, q) - (0 if over else st.dev_hand[q, VICTORY_POINT])


@nb.njit(cache=True, inline="always")
def _joined_ends(st, bd, p, e):
    """At how many of its two ends player p's piece on edge e joins another of his pieces (as longest_route_in
    joins them)."""
    joined = 0
    for side in range(2):
        n = bd.edge_nodes[e, side]
        if st.node_owner[n] < 0 or st.node_owner[n] == p:
            for k in range(3):
                f = bd.node_edges[n, k]
                if f >= 0 and f != e and st.edge_owner[f] == p and (st.edge_kind[f] == st.edge_kind[e]
                                                                     or st.node_owner[n] == p):
                    joined += 1
                    break
    return joined


@nb.njit(cache=True, inline="always")
def route_piece_added(st, bd, p, e):
    """Player p's piece on edge e has just come onto the board (built, or a ship moved there). A trail without
    it is still one, so his route_low holds; his route_high grows by one where e joins his other pieces at one
    end at most (a trail holding e has it at an end, and is a trail without it and one piece more); joining at
    both ends it may link two trails into one, and only his pieces bound his route then."""
    st.route_high[p] = st.route_high[p] + 1 if _joined_ends(st, bd, p, e) < 2 else NO_ROUTE_BOUND


@nb.njit(cache=True, inline="always")
def route_piece_lifted(st, bd, p, e):
    """Player p's piece on edge e is about to leave the board (a ship moved). No trail grows, so his route_high
    holds; his route_low falls by one where e joins his other pieces at one end at most (a trail holding e then
    has it at an end), else to 0."""
    st.route_low[p] = max(st.route_low[p] - 1, 0) if _joined_ends(st, bd, p, e) < 2 else 0


@nb.njit(cache=True, inline="always")
def _route_range(st, rules, q):
    """What is known of q's longest route: (at least, at most); both his route where it is not out of date."""
    if not st.route_stale[q]:
        return st.routes[q], st.routes[q]
    pieces = rules.piece_limits[ROADS] - st.left[q, ROADS] + rules.piece_limits[SHIPS] - st.left[q, SHIPS]
    return st.route_low[q], min(st.route_high[q], pieces)


@nb.njit(cache=True, inline="always")
def _holder_if_known(st, rules):
    """(True, who holds the longest-route card) where what is known of the routes (_route_range) decides it as
    rules.longest_route_holder would over the routes themselves, else (False, -1): nobody's route may reach
    LONGEST_ROUTE_MIN (nobody), or one player's is at least that and longer than any other's may be (he), or
    the holder's is at least that and as long as any other's may be (he keeps it); else every route must be
    known exactly."""
    P = st.hands.shape[0]
    holder = st.longest_holder[0]
    top = 0
    for q in range(P):
        top = max(top, _route_range(st, rules, q)[1])
    if top < LONGEST_ROUTE_MIN:
        return True, -1
    stale = False
    for q in range(P):
        stale = stale or st.route_stale[q]
        low = _route_range(st, rules, q)[0]
        if low < LONGEST_ROUTE_MIN:
            continue
        others = 0
        for x in range(P):
            if x != q:
                others = max(others, _route_range(st, rules, x)[1])
        if low > others or (q == holder and low >= others):
            return True, q
    if stale:
        return False, -1
    return True, longest_route_holder(st.routes, holder)


@block(_nrt=False)
def update_routes(st, rules, bd, scratch, p, settled):
    """After p's route changed: his longest route, and on a new settlement (node `settled`, else -1) that
    of every player with a piece there (it may cut theirs), are out of date; so is the list of ships he
    may move; then who holds the card.

    A route is searched for only while the card depends on it (the search is most of the kernel's time
    otherwise): what is known of each route out of date, at least route_low and at most route_high and his
    pieces on the board, often decides who holds it (_holder_if_known); else the route out of date that may
    be the longest is searched, and again. Random players move a ship in almost every turn, mostly from and
    to an open end: the mover's route changes by one at most. His own settlement may join his road and ship
    there into one trail: only his pieces bound his route then; another's settlement may cut routes there:
    theirs are at least 0."""
    st.n_movable[0] = -1
    if settled >= 0:
        st.route_high[p] = NO_ROUTE_BOUND
    P = st.hands.shape[0]
    for q in range(P):
        cut = False
        if settled >= 0 and q != p:
            for x in range(3):
                f = bd.node_edges[settled, x]
                cut = cut or (f >= 0 and st.edge_owner[f] == q)
        if cut:
            st.route_low[q] = 0
        st.route_stale[q] = st.route_stale[q] or cut or q == p
    while True:
        known, holder = _holder_if_known(st, rules)
        if known:
            break
        search, most = -1, -1
        for q in range(P):
            if st.route_stale[q] and _route_range(st, rules, q)[1] > most:
                search, most = q, _route_range(st, rules, q)[1]
        route = longest_route_in(search, st.edge_owner, st.edge_kind, st.node_owner, bd.node_edges, bd.edge_nodes,
                                 scratch.route_work)
        st.routes[search] = route
        st.route_low[search] = route
        st.route_high[search] = route
        st.route_stale[search] = False
    st.longest_holder[0] = holder


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
    feel: Feel                 # how the play felt, from its standing after each turn (core/feel.py)


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
        n_events=np.zeros(n_plays, np.int64), expected=np.zeros(kinds, np.float64), feel=new_feel(n_plays))


@block()
def final_rows(out, i, pl, turns, winner, n_events):
    """Row i of the outputs from a finished play pl (state.Play); how it felt from the standing its turns kept in
    pl.lg (the game's own: a scenario counts its own points)."""
    st, tally, rules, bd, scratch = pl.st, pl.tally, pl.rules, pl.bd, pl.scratch
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
        out.longest_route[i, q] = st.routes[q] if not st.route_stale[q] else longest_route_in(
            q, st.edge_owner, st.edge_kind, st.node_owner, bd.node_edges, bd.edge_nodes, scratch.route_work)
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
    if pl.lg.standing.shape[0] >= turns:
        record_feel(out.feel, i, pl.lg.standing, turns, winner)

