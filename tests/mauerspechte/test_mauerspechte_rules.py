"""Die Mauerspechte's rules, each as a drawn situation on the Berlin board: the state set up as the rule text
(shared/seeds/002_cb65a1a498ca2c1d.txt) describes it, one block of the kernel run, the outcome the text gives.
Whole games are checked against the independent event replay (tests/mauerspechte/test_mauerspechte_reference.py)."""

from __future__ import annotations

import numpy as np
import pytest

from simlib.core.config import RunConfig
from simlib.games.catan.constants import BANK_PER_RESOURCE, GRAIN, KNIGHT, LUMBER, SHIP, SHIPS, WOOL
from simlib.games.catan.state import EventLog, board_arrays, new_scratch, new_state, new_tally, published_rules
from simlib.games.catan.state import Play as EnginePlay
from simlib.games.mauerspechte import GAME, _berlin
from simlib.games.mauerspechte import constants as C
from simlib.games.mauerspechte.policies import BUILDER, MAX_BID, MAX_PARAMS, RANDOM
from simlib.games.mauerspechte.state import (
    BerlinRules,
    Play,
    berlin_arrays,
    new_wall,
    play_board,
    reset_wall,
    side_board,
)

BERLIN = _berlin("berlin", "berlin")
HOTEL = {name: h for h, name in enumerate(BERLIN.hotel_names)}
SECTION = {name: s for s, name in enumerate(BERLIN.section_names)}


class Table:
    """One game of four on Berlin, after the board block and with the wall laid, nobody placed yet."""

    def __init__(self, players=4, key=7, br=None):
        from simlib.games.catan.setup import new_game, start_play
        from simlib.games.mauerspechte.setup import deal_berlin
        from simlib.games.mauerspechte.wall import lay_walls

        self.ba = berlin_arrays(BERLIN)
        self.bd = play_board(board_arrays(BERLIN.board), self.ba)
        self.rules = published_rules(15, BANK_PER_RESOURCE)
        self.br = br or BerlinRules(15 if players == 4 else 17, 8, 0, 0, False)  # a limited supply of 8 chips
        self.st = new_state(self.bd, self.rules, players)
        self.tally = new_tally(players)
        self.scratch = new_scratch(self.bd, players, C.N_FAMILIES)
        self.wl = new_wall(players)
        self.lg = EventLog(rows=np.zeros((400, 6), np.int32), pos=np.zeros(1, np.int64), standing=np.zeros((0, 0)))
        self.codes = np.full(players, BUILDER, np.int64)
        self.prm = np.zeros((players, MAX_PARAMS))
        start_play(self.st, self.tally, np.uint64(key))
        reset_wall(self.wl, self.br.vp_chips)
        deal_berlin(self.st, self.bd, self.ba, self.br, self.scratch, self.lg)
        lay_walls(self.bd, self.ba, self.wl)
        new_game(self.st, self.rules)

    def events(self, action):
        rows = self.lg.rows[:self.lg.pos[0]]
        return rows[rows[:, 2] == C.EVENT_ACTIONS.index(action)]

    def settle(self, p, n, level=1):
        from simlib.games.catan.setup import place_settlement

        place_settlement(self.st, self.tally, self.bd, p, n)
        self.st.node_level[n] = level

    def legal(self):
        from simlib.games.catan.legal import init_legal
        from simlib.games.mauerspechte.wall import route_flags

        init_legal(self.st, self.bd)
        route_flags(self.st, self.bd, self.ba)

    def release(self, s, chip):
        self.wl.chip[s] = chip

    def play(self):
        """The play as the blocks take it (state.Play)."""
        return Play(self.st, self.tally, self.rules, self.bd, side_board(self.bd, self.ba.west_land),
                    side_board(self.bd, self.ba.east_land), self.ba, self.br, self.wl, self.scratch, self.lg)


def _free_nodes_of(t, s):
    """The intersections under section s and under no other section."""
    others = {int(n) for x in range(len(t.ba.section_nodes)) if x != s for n in t.ba.section_nodes[x]}
    return [int(n) for n in t.ba.section_nodes[s] if n >= 0 and n not in others]


def test_no_settlement_on_a_wall_intersection_and_no_road_on_a_wall_edge_until_the_section_is_gone():
    from simlib.games.mauerspechte.wall import open_section

    t = Table()
    s = SECTION["Bernauer Straße"]
    wall_node = _free_nodes_of(t, s)[0]
    edge = next(int(e) for e in t.ba.section_edges[s] if e >= 0 and wall_node in t.bd.edge_nodes[e])
    # Player 0 has a road on a land edge ending at the wall intersection (not under the wall itself).
    road = next(int(e) for e in t.bd.node_edges[wall_node] if e >= 0 and e != edge and t.bd.edge_land[e])
    t.st.edge_owner[road], t.st.edge_kind[road] = 0, 1
    t.legal()
    assert not t.st.legal_node[0, wall_node]
    assert not t.st.legal_edge[0, 0, edge]
    open_section(t.st, t.bd, t.ba, t.wl, t.lg, 5, 0, s)
    assert t.st.legal_node[0, wall_node] and t.st.legal_edge[0, 0, edge]
    assert t.events("wall_open")[:, 3].tolist() == [s]


def test_a_road_does_not_go_round_the_walls_end_through_its_last_intersection():
    from simlib.games.mauerspechte.wall import open_section

    t = Table()
    s = SECTION["Rudow"]
    end = next(n for n in _free_nodes_of(t, s)
               if sum(e >= 0 and t.bd.edge_land[e] for e in t.bd.node_edges[n]) == 2)  # wall edge + two coast edges
    west, east = sorted((int(e) for e in t.bd.node_edges[end] if e >= 0 and t.bd.edge_land[e]),
                        key=lambda e: min(BERLIN.hex_side[h] for h in BERLIN.board.edge_hexes[e] if h >= 0
                                          and BERLIN.tile[h]))
    t.st.edge_owner[west], t.st.edge_kind[west] = 0, 1  # his road in West Berlin up to the wall's end
    t.legal()
    assert not t.st.legal_edge[0, 0, east]  # leads nowhere while Rudow stands
    open_section(t.st, t.bd, t.ba, t.wl, t.lg, 5, 0, s)
    assert t.st.legal_edge[0, 0, east]


def test_the_water_wall_goes_when_both_sections_beside_it_are_gone():
    from simlib.games.mauerspechte.wall import open_section

    t = Table()
    water = len(t.wl.level) - 1
    first, second = (int(s) for s in t.ba.water_neighbours)
    open_section(t.st, t.bd, t.ba, t.wl, t.lg, 5, 0, first)
    assert t.wl.level[water] == 1
    open_section(t.st, t.bd, t.ba, t.wl, t.lg, 6, 1, second)
    assert t.wl.level[water] == 0
    assert all(t.bd.node_land[n] == t.ba.node_land[n] for n in t.ba.section_nodes[water] if n >= 0)


def test_ships_need_no_connection_but_water_on_both_sides():
    t = Table()
    t.legal()
    ship_edges = np.nonzero(t.ba.ship_sea)[0]
    assert len(ship_edges) > 0
    assert all(t.st.legal_edge[q, 1, e] for q in range(4) for e in ship_edges if t.bd.edge_sea[e])
    assert not any(t.st.legal_edge[0, 1, e] for e in np.nonzero(~t.ba.ship_sea)[0])


def _robber_moves(opened, start_hex, tries=40):
    from simlib.games.catan.play import knight_step
    from simlib.games.mauerspechte.rules import robber_goes

    hexes = set()
    for key in range(tries):
        t = Table(key=key)
        t.st.robber[0] = start_hex
        t.wl.opened_turn[0] = 3 if opened else -1
        t.st.dev_hand[0, KNIGHT] = 1
        board = robber_goes(t.st, t.bd, side_board(t.bd, t.ba.west_land), side_board(t.bd, t.ba.east_land),
                            t.ba, t.wl)
        knight_step(EnginePlay(t.st, t.tally, t.rules, board, t.scratch, t.lg), 4, 0, RANDOM, False)
        hexes.add(int(t.st.robber[0]))
    return hexes


def test_while_the_wall_is_closed_the_robber_must_change_sides():
    west = int(BERLIN.board.named["Tiergarten"])
    moved = _robber_moves(False, west)
    assert moved and all(BERLIN.hex_side[h] == C.EAST for h in moved)
    east = int(BERLIN.hotel_hexes[HOTEL["Alexanderplatz"]])
    assert all(BERLIN.hex_side[h] == C.WEST for h in _robber_moves(False, east))
    # once a lower piece is bought, anywhere
    assert {BERLIN.hex_side[h] for h in _robber_moves(True, west)} == {C.WEST, C.EAST}


def test_the_leader_reaching_4_releases_a_section_and_a_jump_to_6_releases_5_and_6_too():
    from simlib.games.mauerspechte.play import release_thresholds

    t = Table()
    t.st.building_points[:] = [3, 4, 2, 2]
    release_thresholds(t.st, t.bd, t.ba, t.wl, t.br, t.lg, 10, 0, t.codes)
    chips = t.events("wall_chip")
    assert chips[:, 1].tolist() == [1] and chips[:, 4].tolist() == [4]  # seat 1 leads with 4
    t.st.building_points[:] = [3, 4, 6, 2]  # seat 2 jumps from 2 to 6 points
    release_thresholds(t.st, t.bd, t.ba, t.wl, t.br, t.lg, 11, 0, t.codes)
    chips = t.events("wall_chip")
    assert chips[:, 1].tolist() == [1, 2, 2] and chips[:, 4].tolist() == [4, 5, 6]
    assert sorted(t.wl.chip[t.wl.chip > 0].tolist()) == [4, 5, 6] and len(set(chips[:, 3])) == 3
    # reaching 4 again (someone else) releases nothing: "und dies nicht schon einmal vorher geschah"
    t.st.building_points[:] = [4, 4, 6, 2]
    release_thresholds(t.st, t.bd, t.ba, t.wl, t.br, t.lg, 12, 0, t.codes)
    assert len(t.events("wall_chip")) == 3


def test_upper_piece_before_lower_one_piece_a_turn_and_what_a_lower_piece_sets_off():
    from simlib.games.mauerspechte.play import buy_piece
    from simlib.games.mauerspechte.wall import count_pieces, nth_piece

    t = Table()
    s = SECTION["Brandenburger Tor"]
    t.release(s, 6)
    t.st.hands[0, :] = 5
    t.st.bank[:] -= 5
    assert count_pieces(t.st, t.ba, t.wl, 0) == 1 and nth_piece(t.st, t.ba, t.wl, 0, 0) == s
    buy_piece(t.st, t.bd, t.ba, t.wl, t.lg, 20, 0, s, BUILDER)
    assert t.wl.level[s] == 1 and t.wl.pieces[0] == 1
    assert (t.st.hands[0] == 5 - BERLIN.wall_costs[2 * s + 1]).all()  # the upper piece's two resources
    assert count_pieces(t.st, t.ba, t.wl, 0) == 0  # "pro Zug nur ein Mauerstück"
    t.wl.bought_piece[0] = 0  # his next turn
    assert t.wl.opened_turn[0] == -1 and t.wl.tiergarten[0] == 0
    buy_piece(t.st, t.bd, t.ba, t.wl, t.lg, 24, 0, s, BUILDER)
    assert t.wl.level[s] == 0 and t.wl.pieces[0] == 2
    assert t.wl.tiergarten[0] == 1 and t.wl.supply[0] == 7  # a chip on the Tiergarten
    assert t.wl.released.sum() == 1 and sorted(t.wl.offered[t.wl.offered > 0].tolist()) == [6]
    assert t.wl.opened_turn[0] == 24  # the wall is open for the robber
    assert t.wl.holder[C.MAUERSPECHT] == 0
    assert all(t.bd.node_land[n] for n in _free_nodes_of(t, s)) and _free_nodes_of(t, s)


def _hotel_table(chip, bank_r, owner=2, neighbour=1, level=1):
    """Alexanderplatz (fields 2) with a hotel of `owner` bought with `chip`, a settlement (or city) of
    `neighbour` at the field; the bank holds bank_r grain."""
    from simlib.games.mauerspechte.hotels import buy_hotel

    t = Table()
    h = HOTEL["Alexanderplatz"]
    field = int(BERLIN.hotel_hexes[h])
    assert t.st.hex_terrain[field] == GRAIN and t.st.hex_token[field] == 2
    node = next(int(n) for n in t.bd.hex_nodes[field] if t.bd.node_land[n])
    t.settle(neighbour, node, level)
    t.wl.released[h] = 1
    t.wl.offered[0] = chip
    t.st.hands[owner, :] = 5
    t.st.bank[:] -= 5
    buy_hotel(t.play(), 30, owner, h, 0)
    t.paid = np.full(5, 5) - t.st.hands[owner]
    t.st.bank[GRAIN] = bank_r
    t.st.hands[:, GRAIN] = 0
    return t, h, field


def test_a_hotel_swaps_the_fields_token_and_costs_by_its_chip():
    # Alexanderplatz with a 6 or 8: two grain, two lumber and one wool
    t, h, field = _hotel_table(6, 19)
    assert t.st.hex_token[field] == 6 and t.wl.hotel_old[h] == 2 and t.wl.hotel_paid[h] == 5
    paid = t.paid
    assert paid[GRAIN] == 2 and paid[LUMBER] == 2 and paid[WOOL] == 1 and paid.sum() == 5
    assert t.st.hex_pips[field] == 5
    assert t.events("hotel")[:, 3:].tolist() == [[h, 6, 2]]


@pytest.mark.parametrize("bank, owner_gets, settlement_gets", [(19, 2, 1), (3, 2, 1), (2, 2, 0), (1, 1, 0)])
def test_a_hotel_produces_like_a_city_and_its_owner_is_paid_first_on_a_shortage(bank, owner_gets, settlement_gets):
    from simlib.games.mauerspechte.hotels import produce_berlin

    t, h, field = _hotel_table(6, bank)
    t.st.robber[0] = int(BERLIN.board.named["Tiergarten"])
    produce_berlin(t.st, t.tally, t.bd, t.ba, t.wl, t.scratch, t.lg, 31, 6)
    assert t.st.hands[2, GRAIN] == owner_gets and t.st.hands[1, GRAIN] == settlement_gets
    assert t.st.bank[GRAIN] == bank - owner_gets - settlement_gets
    assert t.wl.hotel_yield[h] == owner_gets and t.wl.hotel_short[h] == 2 - owner_gets
    assert t.wl.field_got[h].tolist() == [0, settlement_gets]


def test_the_robber_on_a_hotel_field_stops_the_hotel_too():
    from simlib.games.mauerspechte.hotels import produce_berlin

    t, h, field = _hotel_table(6, 19)
    t.st.robber[0] = field
    produce_berlin(t.st, t.tally, t.bd, t.ba, t.wl, t.scratch, t.lg, 31, 6)
    assert t.st.hands[:, GRAIN].sum() == 0 and t.wl.hotel_robbed[h] == 1


def test_a_missing_2_produces_nothing_and_puts_a_chip_in_the_tiergarten():
    from simlib.games.mauerspechte.hotels import produce_berlin, token_on_board
    from simlib.games.mauerspechte.parade import missing_number

    t, h, field = _hotel_table(4, 19)
    assert not token_on_board(t.st, t.bd, 2) and token_on_board(t.st, t.bd, 12)
    before = t.st.hands.copy()
    produce_berlin(t.st, t.tally, t.bd, t.ba, t.wl, t.scratch, t.lg, 40, 2)
    missing_number(t.wl, t.lg, 40, 0)
    assert (t.st.hands == before).all()
    assert t.wl.tiergarten[0] == 1 and t.wl.supply[0] == 7
    # ... and the old token is what the field's buildings would have produced on: the 2
    assert t.wl.field_old[h].tolist() == [0, 1] and t.wl.field_got[h].tolist() == [0, 0]


def test_a_love_parade_with_passes_the_last_bidder_pays_and_takes_the_chip():
    from simlib.games.mauerspechte.play import love_parade

    t = Table()
    t.wl.tiergarten[0] = 1
    t.st.hands[:, :] = [[2, 2, 0, 0, 0], [2, 2, 1, 0, 0], [3, 0, 0, 0, 0], [2, 2, 0, 0, 0]]  # seat 0 could pay 4
    t.st.bank[:] = 95 // 5 - t.st.hands.sum(axis=0)
    t.prm[:, MAX_BID] = [2, 2, 0, 3]  # how far each bids
    love_parade(t.st, t.wl, t.br, t.lg, 50, 0, t.codes, t.prm, False)
    said = [(int(r[1]), C.EVENT_ACTIONS[r[2]], int(r[3])) for r in t.lg.rows[:t.lg.pos[0]]
            if C.EVENT_ACTIONS[r[2]] in ("bid", "pass")]
    # seat 0 opens at 0, 1 raises to 1, 2 passes, 3 raises to 2, 0 and 1 would not go to 3: seat 3 takes it for 2
    assert said == [(0, "bid", 0), (1, "bid", 1), (2, "pass", 0), (3, "bid", 2), (0, "pass", 0), (1, "pass", 0)]
    assert t.wl.chips.tolist() == [0, 0, 0, 1] and t.wl.tiergarten[0] == 0
    assert t.st.hands[3].sum() == 2 and len(t.events("pay")) == 2
    assert (t.st.hands.sum(axis=0) + t.st.bank == 19).all()
    assert t.wl.holder[C.RAVER] == 3
    (parade,) = t.events("parade")
    assert parade[1] == 3 and parade[3] == 2 and parade[4] == 3  # winner, price, bidders


@pytest.mark.parametrize("card", [C.MAUERSPECHT, C.RAVER])
def test_a_tie_for_the_most_neutralises_the_card_whoever_held_it(card):
    from simlib.games.mauerspechte.wall import decide_card

    t = Table()
    counts = np.array([2, 1, 0, 0])
    decide_card(t.wl, counts, card, t.lg, 1)
    assert t.wl.holder[card] == 0
    counts[1] = 2
    decide_card(t.wl, counts, card, t.lg, 2)
    assert t.wl.holder[card] == -1  # unlike the longest route: the holder does not keep it on a tie
    counts[1] = 3
    decide_card(t.wl, counts, card, t.lg, 3)
    assert t.wl.holder[card] == 1


@pytest.mark.parametrize("players, threshold", [(4, 15), (3, 17)])
def test_the_game_is_won_with_15_points_at_four_and_17_at_three_on_ones_own_turn(players, threshold):
    config = RunConfig.build(GAME, players=players, policies=["builder"], plays=60, seed=players)
    assert GAME.win_points(config) == threshold
    out = GAME.run_kernel(config, 0, 60)
    won = out.base.winner >= 0
    assert won.all()
    winner = out.base.winner
    assert (out.berlin.points[np.arange(60), winner] >= threshold).all()
    assert (winner == (out.base.turns - 1) % players).all()  # on his own turn


@pytest.fixture(scope="module")
def batch():
    config = RunConfig.build(GAME, players=4, policies=["random", "builder", "specht", "hotelier"], plays=300, seed=3)
    return GAME.run_kernel(config, 0, 300)


def test_cards_are_conserved_bank_and_hands_hold_95(batch):
    assert (batch.base.bank.sum(axis=1) + batch.base.hands.sum(axis=(1, 2)) == 95).all()


def test_chips_are_conserved_and_games_end_at_the_threshold(batch):
    w = batch.berlin
    lower = (w.pieces[:, :, 1] == 1).sum(axis=1)  # level 1: a lower piece (unused rows are 0)
    assert (w.chips.sum(axis=1) + w.tiergarten >= lower).all()  # the supply never runs out: a chip per lower piece
    assert (w.chips.sum(axis=1) == w.n_parades).all()
    limited = RunConfig.build(GAME, players=4, policies=["random", "builder", "specht", "hotelier"], plays=300, seed=3,
                              options={"vp_chip_supply": "limited"})
    chips = GAME.run_kernel(limited, 0, 300).berlin
    assert (chips.chips.sum(axis=1) + chips.tiergarten <= 8).all()  # a supply of 8: won and waiting never more
    assert (chips.chips.sum(axis=1) + chips.tiergarten == 8).any()  # and it runs out
    won = batch.base.winner >= 0
    assert won.mean() > 0.9
    assert (w.points[won, batch.base.winner[won]] >= 15).all()
    owners = w.hotels[:, :, 0]
    assert ((owners >= -1) & (owners < 4)).all() and (owners >= 0).any()


def test_a_limited_supply_of_chips_runs_out():
    config = RunConfig.build(GAME, players=4, policies=["random", "builder", "specht", "hotelier"], plays=100, seed=3,
                             options={"vp_chip_supply": "limited"})
    w = GAME.run_kernel(config, 0, 100).berlin
    assert (w.chips.sum(axis=1) + w.tiergarten <= 8).all() and (w.chips.sum(axis=1) + w.tiergarten == 8).any()


def test_a_play_gives_the_same_arrays_alone_and_in_a_batch():
    """Every output row depends on (seed, play, configuration) only: no row of a play is left over from the one
    before (the per-play tables' unused rows included)."""
    config = RunConfig.build(GAME, players=4, policies=["random", "hotelier", "specht", "weighted"], plays=8, seed=9)
    batch, alone = GAME.run_kernel(config, 0, 8), GAME.run_kernel(config, 7, 8)
    for part in ("base", "berlin"):
        for name, values in _named_arrays(getattr(batch, part)).items():
            assert np.array_equal(values[7:8], _named_arrays(getattr(alone, part))[name]), (part, name)


def _named_arrays(outputs) -> dict:
    """Every array of a kernel's outputs by name, those of the feel (a tuple of its own) as feel.<name>."""
    named = {}
    for name, values in outputs._asdict().items():
        named |= {f"{name}.{k}": v for k, v in values._asdict().items()} if isinstance(values, tuple) \
            else {name: values}
    return named


# --- the readings of the rule text (parameters.toml `reading`): each drawn as the text describes it, with both
# values of its option; the text's own reading is the default.
def rules_of(**options):
    """The scenario's BerlinRules of a four-player run with these options, as the options reach the kernel."""
    config = RunConfig.build(GAME, players=4, policies=["builder"], plays=1, seed=1, options=options)
    return GAME.setup(config).br


def _ship_line(t):
    """Two ship edges in a line on a lake, (near, a, middle, b, far): a from coastal intersection near to middle
    (water), b from middle to coastal intersection far, near and far not neighbours."""
    bd, ba = t.bd, t.ba
    ships = [int(e) for e in np.nonzero(ba.ship_sea)[0]]
    for a in ships:
        for side in range(2):
            near, middle = int(bd.edge_nodes[a, side]), int(bd.edge_nodes[a, 1 - side])
            for b in ships:
                if b != a and middle in bd.edge_nodes[b] and ba.node_land[near] and not ba.node_land[middle]:
                    far = int(bd.edge_nodes[b, 0] if bd.edge_nodes[b, 1] == middle else bd.edge_nodes[b, 1])
                    if ba.node_land[far] and far not in bd.node_nodes[near]:
                        return near, a, middle, b, far
    raise LookupError("no line of two ship edges between two coasts")


@pytest.mark.parametrize("reading, opened", [("connected", False), ("any", True)])
def test_a_ship_with_no_connection_opens_a_settlement_site_only_in_the_reading_any(reading, opened):
    """"Schiffe dürfen ausschließlich auf Kanten gebaut werden, die auf beiden Seiten Wasser haben. Ein Übergang,
    Siedlung oder Stadt, ist nicht notwendig." Seat 0's ship on a West Berlin lake, no building of his at either
    end: in the reading `connected` (the text frees where a ship is built) its coastal end is no settlement site,
    in `any` it is one. A line of his ships from his settlement opens its far end in both readings."""
    from simlib.games.mauerspechte.rules import count_berlin

    t = Table(br=rules_of(ship_sites=reading))
    near, a, middle, b, far = _ship_line(t)
    t.st.edge_owner[b], t.st.edge_kind[b] = 0, SHIP
    t.st.left[0, SHIPS] -= 1
    t.legal()
    count_berlin(t.st, t.rules, t.bd, t.ba, t.br, t.wl, t.scratch, 0, 5)
    assert t.st.legal_node[0, far] == opened
    assert t.st.n_legal_node[0] == t.st.legal_node[0].sum()
    t.settle(0, near)
    t.st.edge_owner[a], t.st.edge_kind[a] = 0, SHIP  # his settlement, then his ships from it out to `far`
    t.st.left[0, SHIPS] -= 1
    t.legal()
    count_berlin(t.st, t.rules, t.bd, t.ba, t.br, t.wl, t.scratch, 0, 5)
    assert t.st.legal_node[0, far]


@pytest.mark.parametrize("reading, at_once", [("at_once", True), ("own_turn", False)])
def test_who_releases_a_section_on_anothers_turn_buys_its_upper_piece_at_once_only_in_the_reading_at_once(
        reading, at_once):
    """"Ein Spieler, der einen Abschnitt der Mauer zum Spechten freigibt, darf direkt das oberste Mauerstück
    erwerben." Seat 1 reaches 4 points on seat 0's turn and puts the chip under a section: in the reading at_once
    he buys its upper piece at once, paying as usual; in own_turn he waits for his turn like anyone."""
    from simlib.games.mauerspechte.play import release_thresholds

    t = Table(br=rules_of(release_buy=reading))
    t.st.hands[1, :] = 3
    t.st.bank[:] -= 3
    t.st.building_points[:] = [2, 4, 2, 2]
    release_thresholds(t.st, t.bd, t.ba, t.wl, t.br, t.lg, 10, 0, t.codes)
    chips = t.events("wall_chip")
    s = chips[0, 3]
    assert t.wl.level[s] == (1 if at_once else 2) and t.wl.pieces.tolist() == [0, int(at_once), 0, 0]
    assert t.events("wall_piece")[:, 1].tolist() == ([1] if at_once else [])
    assert (t.st.hands[1] == 3 - at_once * BERLIN.wall_costs[2 * s + 1]).all()
    # the piece and Bester Mauerspecht bring him to 6: thresholds 5 and 6 are his too, at once, and no second
    # piece this turn ("pro Zug nur ein Mauerstück")
    assert chips[:, 1].tolist() == ([1, 1, 1] if at_once else [1]) and chips[:, 4].tolist()[:1] == [4]
    # having bought a piece this turn, a player who releases another section waits for his turn
    t.st.building_points[:] = [2, 4, 8, 2]
    t.wl.bought_piece[2] = 1
    t.st.hands[2, :] = 3
    t.st.bank[:] -= 3
    release_thresholds(t.st, t.bd, t.ba, t.wl, t.br, t.lg, 10, 0, t.codes)
    assert t.wl.pieces[2] == 0 and t.events("wall_chip")[-1, 1] == 2


def test_who_releases_a_section_on_his_own_turn_buys_as_one_of_his_actions_in_either_reading():
    from simlib.games.mauerspechte.play import release_thresholds
    from simlib.games.mauerspechte.wall import count_pieces

    for reading in ("at_once", "own_turn"):
        t = Table(br=rules_of(release_buy=reading))
        t.st.hands[1, :] = 3
        t.st.bank[:] -= 3
        t.st.building_points[:] = [2, 4, 2, 2]
        release_thresholds(t.st, t.bd, t.ba, t.wl, t.br, t.lg, 11, 1, t.codes)  # seat 1 on turn
        assert t.wl.pieces[1] == 0 and count_pieces(t.st, t.ba, t.wl, 1) == 1


@pytest.mark.parametrize("reading, ninth", [("unlimited", 1), ("limited", 0)])
def test_a_ninth_chip_goes_to_the_tiergarten_only_with_the_unlimited_supply(reading, ninth):
    """"Zusätzlich benötigen Sie noch 8 (oder mehr) Siegpunktchips": with an unlimited supply (as many as needed)
    a missing 2 or 12 rolled after eight chips still puts a chip in the Tiergarten; with a limited one (vp_chips,
    8) it gives nothing at all."""
    from simlib.games.mauerspechte.parade import missing_number

    t = Table(br=rules_of(vp_chip_supply=reading))
    for turn in range(8):
        missing_number(t.wl, t.lg, turn, 0)
    assert t.wl.tiergarten[0] == 8
    missing_number(t.wl, t.lg, 9, 0)
    assert t.wl.tiergarten[0] == 8 + ninth and len(t.events("tiergarten")) == 8 + ninth


def _knight_moves(reading, start_hex, tries=40):
    from simlib.games.catan.play import knight_step
    from simlib.games.mauerspechte.rules import knight_goes, robber_goes

    sides, seven_sides = set(), set()
    for key in range(tries):
        t = Table(key=key, br=rules_of(knight_robber=reading))
        t.st.robber[0] = start_hex
        t.st.dev_hand[0, KNIGHT] = 1
        west, east = side_board(t.bd, t.ba.west_land), side_board(t.bd, t.ba.east_land)
        seven_sides |= {int(BERLIN.hex_side[h]) for h in robber_goes(t.st, t.bd, west, east, t.ba, t.wl).land_hexes}
        board = knight_goes(t.st, t.bd, west, east, t.ba, t.br, t.wl)
        knight_step(EnginePlay(t.st, t.tally, t.rules, board, t.scratch, t.lg), 4, 0, RANDOM, False)
        sides.add(int(BERLIN.hex_side[t.st.robber[0]]))
    return sides, seven_sides


@pytest.mark.parametrize("reading, sides", [("free", {C.WEST, C.EAST}), ("across", {C.EAST})])
def test_a_knight_sends_the_robber_across_the_closed_wall_only_in_the_reading_across(reading, sides):
    """"Wird eine '7' gewürfelt, so ist der Räuber zu versetzen. Solange die Mauer noch geschlossen ist ..., muss
    der Räuber von West nach Ost bzw. von Ost nach West wechseln." The robber on the Tiergarten (West), the wall
    closed: a 7 sends it East in both readings; a knight anywhere in `free` (the text names the 7 only), East in
    `across`."""
    knight, seven = _knight_moves(reading, int(BERLIN.board.named["Tiergarten"]))
    assert knight == sides and seven == {C.EAST}


@pytest.mark.parametrize("min_bid", [0, 1])
def test_the_love_parades_opener_bids_at_least_love_parade_min_bid(min_bid):
    """"Der Spieler, der am Zug ist, gibt ein Gebot in Form von Rohstoffen ab": he opens at love_parade_min_bid
    (0: a bid of no cards; 1: at least one resource); nobody raises, so he pays his opening bid for the chip. An
    opener holding fewer cards than the minimum passes."""
    from simlib.games.mauerspechte.play import love_parade

    t = Table(br=rules_of(love_parade_min_bid=min_bid))
    t.wl.tiergarten[0] = 1
    t.st.hands[:, :] = [[2, 0, 0, 0, 0], [1, 0, 0, 0, 0], [1, 0, 0, 0, 0], [1, 0, 0, 0, 0]]
    t.st.bank[:] = 95 // 5 - t.st.hands.sum(axis=0)
    t.prm[:, MAX_BID] = 0  # the others do not raise
    love_parade(t.st, t.wl, t.br, t.lg, 50, 0, t.codes, t.prm, False)
    (bid,) = t.events("bid")
    assert bid[1] == 0 and bid[3] == min_bid
    assert t.wl.chips.tolist() == [1, 0, 0, 0] and t.st.hands[0].sum() == 2 - min_bid
    t.wl.tiergarten[0] = 1
    t.st.hands[0, :] = 0
    love_parade(t.st, t.wl, t.br, t.lg, 52, 0, t.codes, t.prm, False)
    assert (len(t.events("bid")) == 2) == (min_bid == 0)


def test_a_supply_size_without_a_limited_supply_is_refused():
    from simlib.core.config import RunConfig
    from simlib.core.errors import SimlibError
    from simlib.games.mauerspechte import GAME

    with pytest.raises(SimlibError, match="set vp_chip_supply=limited too"):
        RunConfig.build(GAME, players=4, policies=["random"], plays=1, seed=1, options={"vp_chips": 5})
    limited = RunConfig.build(GAME, players=4, policies=["random"], plays=1, seed=1,
                              options={"vp_chips": 5, "vp_chip_supply": "limited"})
    assert limited.options["vp_chips"] == 5
