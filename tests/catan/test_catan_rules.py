"""Catan rules (issue 5, in progress): each rule as a small board situation on the standard board.

Situations are drawn by hex (q, r) and corner/side numbers: corner i lies between the sides facing
directions i and i+1 (E, NE, NW, W, SW, SE); routes are listed as (hex, side) pairs.
"""

from __future__ import annotations

import numpy as np
import pytest

from simlib.games.catan.board import FIELDS, FOREST, MOUNTAINS, SEA, load_board
from simlib.games.catan.rules import (
    CITY,
    ROAD,
    SETTLEMENT,
    SHIP,
    can_settle,
    discard_count,
    largest_army_holder,
    longest_route,
    longest_route_holder,
    produce,
    route_ok,
)
from simlib.games.catan.state import board_arrays

from support.catan_state import catan_state

BOARD = load_board("standard")
BD = board_arrays(BOARD)  # the board as the rules read it
HEX = {tuple(c): h for h, c in enumerate(BOARD.hex_coords)}


def node(q, r, corner):
    return BOARD.hex_nodes[HEX[(q, r)], corner]


def edge(q, r, side):
    return BOARD.hex_edges[HEX[(q, r)], side]


class Situation:
    def __init__(self):
        self.node_owner = np.full(len(BOARD.node_hexes), -1, np.int64)
        self.node_level = np.zeros(len(BOARD.node_hexes), np.int64)
        self.edge_owner = np.full(len(BOARD.edge_nodes), -1, np.int64)
        self.edge_kind = np.zeros(len(BOARD.edge_nodes), np.int64)

    def build(self, player, n, level=SETTLEMENT):
        self.node_owner[n] = player
        self.node_level[n] = level
        return self

    def route(self, player, edges, kind=ROAD):
        for e in edges:
            self.edge_owner[e] = player
            self.edge_kind[e] = kind
        return self

    def longest(self, player):
        return longest_route(player, self.edge_owner, self.edge_kind, self.node_owner, BOARD.node_edges,
                             BOARD.edge_nodes)

    def may_place(self, player, e, kind):
        return route_ok(e, player, kind, catan_state(BD, edge_owner=self.edge_owner, edge_kind=self.edge_kind,
                                                     node_owner=self.node_owner), BD)

    def can_settle(self, player, n, setup=False):
        return can_settle(n, player, setup, BOARD.node_land, self.node_owner, BOARD.node_nodes, BOARD.node_edges,
                          self.edge_owner)


def ring(q, r):
    """The six sides of a hex, in order: a closed loop."""
    return [edge(q, r, i) for i in range(6)]


def chain(start_node, length, s):
    """A simple path of `length` free land edges from a node, never turning back (greedy walk)."""
    path, here, seen = [], start_node, {start_node}
    while len(path) < length:
        for k in range(3):
            e, nxt = BOARD.node_edges[here, k], BOARD.node_nodes[here, k]
            if e >= 0 and BOARD.edge_land[e] and nxt not in seen and s.edge_owner[e] < 0 and e not in path:
                path.append(e)
                seen.add(nxt)
                here = nxt
                break
        else:
            raise AssertionError("no way on")
    return path, here


# Longest road
def test_a_straight_road_counts_every_segment():
    s = Situation()
    path, _ = chain(node(0, 0, 0), 5, s)
    s.route(0, path)
    assert s.longest(0) == 5


def test_a_branching_road_counts_its_longest_trail():
    s = Situation()
    start = node(0, 0, 0)
    path, _ = chain(start, 4, s)
    s.route(0, path)
    spur = [e for e in BOARD.node_edges[start] if e >= 0 and e not in path][0]
    s.route(0, [spur])
    assert s.longest(0) == 5  # the spur extends the trail through its start


def test_a_road_loop_around_a_hex_counts_six():
    s = Situation().route(0, ring(0, 0))
    assert s.longest(0) == 6


def test_an_opponents_settlement_cuts_the_road():
    s = Situation()
    path, _ = chain(node(0, 0, 0), 6, s)
    s.route(0, path)
    middle = np.intersect1d(BOARD.edge_nodes[path[2]], BOARD.edge_nodes[path[3]])[0]
    assert s.longest(0) == 6
    s.build(1, middle)
    assert s.longest(0) == 3  # 3 + 3, no longer joined


def test_the_players_own_settlement_does_not_cut():
    s = Situation()
    path, _ = chain(node(0, 0, 0), 6, s)
    s.route(0, path)
    middle = np.intersect1d(BOARD.edge_nodes[path[2]], BOARD.edge_nodes[path[3]])[0]
    s.build(0, middle)
    assert s.longest(0) == 6


def test_roads_and_ships_join_only_at_a_settlement():
    # From the corner between the land hex (2,-2) and the sea: roads inland, ships out at sea.
    h = HEX[(2, -2)]
    sea_sides = [i for i in range(6) if BOARD.edge_hexes[BOARD.hex_edges[h, i]].min() < 0
                 or SEA in BOARD.hex_terrain[BOARD.edge_hexes[BOARD.hex_edges[h, i]]]]
    assert sea_sides, "a coastal hex"
    e_ship = BOARD.hex_edges[h, sea_sides[0]]
    junction = BOARD.edge_nodes[e_ship][0]
    roads = [e for e in BOARD.node_edges[junction] if e >= 0 and e != e_ship and BOARD.edge_land[e]]
    s = Situation()
    s.route(0, [e_ship], SHIP)
    s.route(0, roads[:1], ROAD)
    assert s.longest(0) == 1  # road and ship meet at an empty node: two routes of 1
    s.build(0, junction)
    assert s.longest(0) == 2  # through the player's settlement they form one trade route


def corner(third):
    """A land corner on the coast where two coast paths (land on one side, sea on the other) meet a
    third path: out to sea (third = "sea") or inland (third = "land"). Returns the corner, the third
    path and the two coast paths."""
    want = (False, True) if third == "sea" else (True, False)
    for n in range(len(BOARD.node_hexes)):
        paths = {e: (bool(BOARD.edge_land[e]), bool(BOARD.edge_sea[e])) for e in BOARD.node_edges[n] if e >= 0}
        if BOARD.node_land[n] and sorted(paths.values()) == sorted([want, (True, True), (True, True)]):
            other = next(e for e, k in paths.items() if k == want)
            return (n, other, *[e for e, k in paths.items() if k == (True, True)])
    raise AssertionError("no such corner")


def test_ships_sail_on_sea_paths_and_roads_run_on_land():
    n, out_to_sea, coast, _ = corner("sea")
    s = Situation().build(0, n)
    assert s.may_place(0, out_to_sea, SHIP) and not s.may_place(0, out_to_sea, ROAD)
    assert s.may_place(0, coast, ROAD) and s.may_place(0, coast, SHIP)  # a coast path borders both
    assert not s.may_place(1, out_to_sea, SHIP)  # nothing of player 1's there
    n, inland, _, _ = corner("land")
    s = Situation().build(0, n)
    assert s.may_place(0, inland, ROAD) and not s.may_place(0, inland, SHIP)


def test_at_an_empty_corner_a_ship_continues_only_a_ship_and_a_road_only_a_road():
    n, inland, coast_a, coast_b = corner("land")
    s = Situation().route(0, [inland], ROAD)  # player 0's road ends at the empty corner n
    assert s.may_place(0, coast_a, ROAD) and not s.may_place(0, coast_a, SHIP)
    s = Situation().route(0, [coast_a], SHIP)  # a ship of his ends there instead
    assert s.may_place(0, coast_b, SHIP) and not s.may_place(0, coast_b, ROAD)
    assert not s.may_place(0, inland, ROAD)
    s.build(0, n)  # his settlement on the corner joins both
    assert s.may_place(0, coast_b, ROAD) and s.may_place(0, inland, ROAD)


def test_an_opponents_settlement_blocks_building_on_through_it():
    n, inland, coast_a, _ = corner("land")
    s = Situation().route(0, [inland], ROAD).build(1, n)
    assert not s.may_place(0, coast_a, ROAD)
    assert not s.may_place(0, inland, ROAD)  # occupied


@pytest.mark.parametrize("cards, discarded", [(0, 0), (7, 0), (8, 4), (9, 4), (10, 5), (15, 7)])
def test_on_a_seven_more_than_seven_cards_discard_half_rounded_down(cards, discarded):
    assert discard_count(cards) == discarded


@pytest.mark.parametrize("routes, holder, after, why", [
    ([5, 0, 0, 0], -1, 0, "five is enough"),
    ([4, 0, 0, 0], -1, -1, "four is not"),
    ([6, 6, 0, 0], 0, 0, "the holder keeps the card on a tie"),
    ([6, 6, 0, 0], 1, 1, "whoever holds it"),
    ([6, 7, 0, 0], 0, 1, "a longer route takes it"),
    ([4, 6, 0, 0], 0, 1, "the holder's route cut: the longest takes it"),
    ([4, 6, 6, 0], 0, -1, "cut, and a tie for the longest without the holder: set aside"),
    ([4, 3, 0, 0], 0, -1, "cut below five, nobody has five: set aside"),
    ([5, 5, 5, 0], 2, 2, "a three-way tie with the holder: he keeps it"),
])
def test_the_longest_route_card(routes, holder, after, why):
    assert longest_route_holder(np.array(routes, np.int64), holder) == after, why


@pytest.mark.parametrize("knights, player, holder, after", [
    ([2, 0, 0], 0, -1, -1),  # three knights are needed
    ([3, 0, 0], 0, -1, 0),
    ([3, 3, 0], 1, 0, 0),    # equalling the holder is not enough
    ([3, 4, 0], 1, 0, 1),    # more than the holder takes it
])
def test_the_largest_army_card(knights, player, holder, after):
    assert largest_army_holder(np.array(knights, np.int64), player, holder) == after


def test_a_settlement_on_a_harbour_improves_the_trade_rates():
    from simlib.games.catan.rules import settle as _settle

    generic = next(n for n in range(len(BOARD.node_hexes)) if BOARD.node_harbour_rate[n] == 3)
    special = next(n for n in range(len(BOARD.node_hexes)) if BOARD.node_harbour_rate[n] == 2)
    s = Situation()
    left = np.full((2, 4), 5, np.int64)
    rate = np.full((2, 5), 4, np.int64)
    args = (s.node_owner, s.node_level, left, rate, BOARD.node_harbour_rate.astype(np.int64),
            BOARD.node_harbour_resource.astype(np.int64))
    _settle(0, generic, *args)
    assert rate[0].tolist() == [3] * 5 and rate[1].tolist() == [4] * 5
    _settle(1, special, *args)
    expected = [4] * 5
    expected[BOARD.node_harbour_resource[special]] = 2
    assert rate[1].tolist() == expected


def test_ties_and_other_players_are_kept_apart():
    s = Situation()
    path, _ = chain(node(0, 0, 0), 5, s)
    s.route(1, path)
    assert s.longest(0) == 0 and s.longest(1) == 5


# Distance rule and placement
def plain_longest_route(player, s):
    """Every trail from every node, recursively: slow and obviously right."""
    mine = [e for e in range(len(s.edge_owner)) if s.edge_owner[e] == player]

    def longest_from(n, arrived_kind, used):
        if arrived_kind and s.node_owner[n] >= 0 and s.node_owner[n] != player:
            return 0  # an opponent's building ends the trail
        best = 0
        for e in mine:
            if e in used or n not in BOARD.edge_nodes[e]:
                continue
            if arrived_kind and s.edge_kind[e] != arrived_kind and s.node_owner[n] != player:
                continue  # a road and a ship join only at the player's own building
            a, b = BOARD.edge_nodes[e]
            best = max(best, 1 + longest_from(b if a == n else a, s.edge_kind[e], used | {e}))
        return best

    return max([longest_from(n, 0, frozenset()) for e in mine for n in BOARD.edge_nodes[e]], default=0)


def random_networks(seed, count):
    """Four players grow roads and ships at random from scattered buildings, with more buildings dropped in."""
    rng = np.random.default_rng(seed)
    for _ in range(count):
        s = Situation()
        for p in range(4):
            s.build(p, rng.integers(len(BOARD.node_hexes)))
        for step in range(int(rng.integers(8, 72))):
            p = step % 4
            touching = [e for e in range(len(BOARD.edge_nodes)) if s.edge_owner[e] < 0 and any(
                s.node_owner[n] == p or any(f >= 0 and s.edge_owner[f] == p for f in BOARD.node_edges[n])
                for n in BOARD.edge_nodes[e])]
            if touching:
                e = touching[rng.integers(len(touching))]
                ship = BOARD.edge_sea[e] and (not BOARD.edge_land[e] or rng.random() < 0.4)
                s.route(p, [e], SHIP if ship else ROAD)
            if rng.random() < 0.1:
                s.build(int(rng.integers(4)), rng.choice(np.nonzero(s.node_owner < 0)[0]))
        yield s


def closes_a_loop(player, s):
    nodes = {n for e in range(len(s.edge_owner)) if s.edge_owner[e] == player for n in BOARD.edge_nodes[e]}
    pieces = int((s.edge_owner == player).sum())
    parent = {n: n for n in nodes}

    def root(n):
        while parent[n] != n:
            n = parent[n]
        return n

    for e in np.nonzero(s.edge_owner == player)[0]:
        a, b = (root(n) for n in BOARD.edge_nodes[e])
        parent[a] = b
    return pieces > len(nodes) - len({root(n) for n in nodes})


def test_the_route_search_agrees_with_a_plain_search_on_random_networks():
    kinds = set()
    for s in random_networks(seed=3, count=40):
        for p in range(4):
            assert s.longest(p) == plain_longest_route(p, s)
            kinds.add(closes_a_loop(p, s))
    assert kinds == {True, False}  # both searches (trees, and networks with a loop) were checked


def test_distance_rule():
    s = Situation().build(0, node(0, 0, 0))
    neighbour = BOARD.node_nodes[node(0, 0, 0), 0]
    assert not s.can_settle(1, neighbour, setup=True)
    assert not s.can_settle(1, node(0, 0, 0), setup=True)
    two_away = node(0, 0, 3)
    assert s.can_settle(1, two_away, setup=True)


def test_after_setup_a_settlement_needs_an_own_route():
    s = Situation()
    n = node(0, 0, 3)
    assert s.can_settle(0, n, setup=True) and not s.can_settle(0, n)
    s.route(0, [BOARD.node_edges[n, 0]])
    assert s.can_settle(0, n) and not s.can_settle(1, n)


def test_no_settlement_at_sea():
    sea_only = [n for n in range(len(BOARD.node_land)) if not BOARD.node_land[n]]
    assert sea_only and not Situation().can_settle(0, sea_only[0], setup=True)


# Production and the bank-shortage rule
def producing_board(terrain, token):
    terrains = BOARD.hex_terrain.copy()
    tokens = np.zeros(len(terrains), np.int64)
    terrains[terrains >= 0] = np.where(terrains[terrains >= 0] == SEA, SEA, FOREST)
    centre = HEX[(0, 0)]
    terrains[centre] = terrain
    tokens[centre] = token
    return terrains.astype(np.int64), tokens, centre


def roll(s, number, terrains, tokens, bank, robber=-1, players=3):
    hands = np.zeros((players, 5), np.int64)
    received = np.zeros((players, 2, 5), np.int64)
    st = catan_state(BD, players, robber=np.array([robber], np.int64), hex_terrain=terrains, hex_token=tokens,
                     node_owner=s.node_owner, node_level=s.node_level, bank=bank, hands=hands)
    produce(number, st, BD, received)
    assert (received.sum(axis=1) == hands).all()  # what each building kind got adds up to the hand
    return hands


def test_settlements_get_one_and_cities_two():
    terrains, tokens, centre = producing_board(MOUNTAINS, 8)
    s = Situation().build(0, node(0, 0, 0)).build(1, node(0, 0, 3), CITY)
    bank = np.full(5, 19, np.int64)
    hands = roll(s, 8, terrains, tokens, bank)
    assert hands[0, MOUNTAINS] == 1 and hands[1, MOUNTAINS] == 2 and bank[MOUNTAINS] == 16
    assert roll(s, 6, terrains, tokens, bank).sum() == 0


def test_the_robber_blocks_production():
    terrains, tokens, centre = producing_board(FIELDS, 5)
    s = Situation().build(0, node(0, 0, 0))
    assert roll(s, 5, terrains, tokens, np.full(5, 19, np.int64), robber=centre).sum() == 0


def test_shortage_with_several_entitled_players_pays_nobody():
    terrains, tokens, _ = producing_board(MOUNTAINS, 8)
    s = Situation().build(0, node(0, 0, 0), CITY).build(1, node(0, 0, 3), CITY)
    bank = np.zeros(5, np.int64)
    bank[MOUNTAINS] = 3
    hands = roll(s, 8, terrains, tokens, bank)
    assert hands.sum() == 0 and bank[MOUNTAINS] == 3


def test_shortage_with_one_entitled_player_pays_what_is_left():
    terrains, tokens, _ = producing_board(MOUNTAINS, 8)
    s = Situation().build(0, node(0, 0, 0), CITY).build(0, node(0, 0, 3), CITY)
    bank = np.zeros(5, np.int64)
    bank[MOUNTAINS] = 3
    hands = roll(s, 8, terrains, tokens, bank)
    assert hands[0, MOUNTAINS] == 3 and bank[MOUNTAINS] == 0


@pytest.mark.parametrize("level", [SETTLEMENT, CITY])
def test_a_node_on_three_producing_hexes_collects_from_each(level):
    terrains = np.where(BOARD.hex_terrain == SEA, SEA, FOREST).astype(np.int64)
    tokens = np.zeros(len(terrains), np.int64)
    n = node(0, 0, 0)
    for h in BOARD.node_hexes[n]:
        tokens[h] = 9
    s = Situation().build(2, n, level)
    hands = roll(s, 9, terrains, tokens, np.full(5, 19, np.int64))
    assert hands[2, FOREST] == 3 * level


def movable_ships(s, player, turn, edge_turn):
    """The kernel's list of the player's ships that may move this turn."""
    from simlib.games.catan.rules import movable_ships as _movable_ships

    n_edges = len(BOARD.edge_nodes)
    legal = np.zeros((4, 2, n_edges), np.bool_)
    for e in range(n_edges):
        legal[player, SHIP - 1, e] = s.may_place(player, e, SHIP)
    moved, counts = np.zeros(n_edges, np.int64), np.zeros(n_edges, np.int64)
    st = catan_state(BD, edge_owner=s.edge_owner, edge_kind=s.edge_kind, edge_turn=edge_turn,
                     node_owner=s.node_owner, legal_edge=legal, n_legal_edge=legal.sum(axis=2).astype(np.int64))
    n = _movable_ships(player, turn, st, BD, moved, counts)
    return set(moved[:n].tolist())


def test_only_the_ship_at_the_open_end_of_a_route_may_move_and_not_one_built_this_turn():
    n, out_to_sea, _, _ = corner("sea")
    far = next(m for m in BOARD.edge_nodes[out_to_sea] if m != n)
    further = next(e for e in BOARD.node_edges[far] if e >= 0 and e != out_to_sea and BOARD.edge_sea[e])
    s = Situation().build(0, n).route(0, [out_to_sea], SHIP)
    built = np.full(len(BOARD.edge_nodes), -1, np.int64)
    assert movable_ships(s, 0, turn=5, edge_turn=built) == {out_to_sea}  # its far end is open
    s.route(0, [further], SHIP)
    assert movable_ships(s, 0, turn=5, edge_turn=built) == {further}  # the first is now held at both ends
    built[further] = 5
    assert movable_ships(s, 0, turn=5, edge_turn=built) == set()  # built this turn: it stays
    assert movable_ships(s, 0, turn=6, edge_turn=built) == {further}  # next turn it may move


def test_a_road_at_a_ships_far_end_does_not_close_the_route():
    """Roads and ships join only at one's own building: a ship ending at a free corner where only one's road
    goes on is the last ship of an open route and may move; one's ship going on there closes that end.

        settlement A ~~ship~~ corner n (free) --road-- inland
    """
    n, inland, coast, other_coast = corner("land")
    a = next(m for m in BOARD.edge_nodes[coast] if m != n)
    s = Situation().build(0, a).route(0, [coast], SHIP).route(0, [inland], ROAD)
    built = np.full(len(BOARD.edge_nodes), -1, np.int64)
    assert movable_ships(s, 0, turn=5, edge_turn=built) == {coast}
    s.route(0, [other_coast], SHIP)
    assert movable_ships(s, 0, turn=5, edge_turn=built) == {other_coast}  # the ship at n now holds the first
