"""Burgenland's rules, each as a drawn situation from the rule text and docs/games/burgenland.md ("Conservation
checks and drawn tests" 1-10, "As built"), played through the kernel's own blocks on the standard map with
the stones laid by hand; then whole plays (a play alone equals the same play in a batch, the data files'
errors)."""

from __future__ import annotations

import numpy as np
import pytest

from simlib.core.config import RunConfig
from simlib.core.errors import SimlibError
from simlib.core.rng import play_key
from simlib.games.burgenland import GAME
from simlib.games.burgenland import constants as C
from simlib.games.burgenland import play as K
from simlib.games.burgenland.board import board_from_text, map_text
from simlib.games.burgenland.builds import MAX_BUILDS, Means, legal_builds
from simlib.games.burgenland.components import components_from_text, data_text
from simlib.games.burgenland.rules import (
    BONUS_TOP,
    JOKER_PILE,
    MASTER_TOP,
    SWAP_SUPPLY,
    WELL_TOP,
    WELLS_BUILT,
    can_pay_central,
    can_pay_small,
    marker_castle,
    pay_central,
    pay_small,
)
from simlib.games.burgenland.state import Setup, board_arrays, card_arrays, new_play, rules

RED, YELLOW, GREEN, LIGHTBLUE, DARKBLUE, PURPLE, BLACK, WHITE = range(8)
WALL, HOUSE, PALAS, WELL = C.WALL, C.HOUSE, C.PALAS, C.WELL
# The standard map's stone positions per castle (map file): castle k is index k - 1.
CASTLE_POSITIONS = {1: (0, 2), 2: (0, 4), 3: (1, 3), 4: (1, 5), 5: (2, 3), 6: (2, 6), 7: (3, 7), 8: (4, 5),
                    9: (4, 6), 10: (5, 7), 11: (6, 7)}


def hand_of(*cards):
    """A hand from (colour, coins, count) triples."""
    hand = np.zeros((C.N_COLOURS, C.MAX_COINS), np.int64)
    for colour, coins, n in cards:
        hand[colour, coins - 1] += n
    return hand


class Position:
    """A play set up as the kernel does (seed 1, play 0), with the stones then laid by hand: stone colour c on
    position c (castle 1 is red/green, castle 5 green/lightblue, ...) unless `stones` says otherwise."""

    def __init__(self, players=4, stones=None, **options):
        config = RunConfig.build(GAME, players=players, policies=["random"], plays=1, seed=1, options=options)
        self.bd = board_arrays(GAME.board(config), players)
        self.cards = card_arrays(GAME.components(config), config.options)
        self.tile_ids = GAME.components(config).bonus_ids  # the data file's id of each physical tile
        self.rules = rules(config.options)
        self.setup = Setup(self.bd, self.cards, self.rules)
        self.st = new_play(players, len(self.cards.bonus_effect), len(self.cards.master_builders))
        self.key = play_key(1, 0)
        K.set_up(self.st, self.setup, self.key)
        for name, a in zip(self.st._fields, self.st):  # the play's arrays by name: pos.hands is pos.st.hands
            setattr(self, name, a)
        self.stones[:] = np.arange(8) if stones is None else stones
        self.rec = np.zeros(C.EV_COLS, np.int64)
        self.paid = np.zeros((8, 3), np.int64)

    def give(self, seat, *cards, jokers=0):
        """Cards from the face-down pile into a hand, and jokers from their pile."""
        hand = hand_of(*cards)
        self.deck -= hand
        self.hands[seat] += hand
        self.pool[JOKER_PILE] -= jokers
        self.jokers[seat] += jokers
        assert (self.deck >= 0).all() and self.pool[JOKER_PILE] >= 0

    def colours(self, castle):
        a, b = CASTLE_POSITIONS[castle]
        return {int(self.stones[a]), int(self.stones[b])}

    def legal(self, seat, central=True):
        """The legal builds as (piece, castle 1-11 or 0 = central, spot, tile) tuples."""
        builds = np.zeros((MAX_BUILDS, 4), np.int64)
        tile_of = np.zeros(C.N_EFFECTS, np.int64)
        turn = K.turn_of(self.st, seat, tile_of, self.cards.bonus_effect)
        jokers = self.jokers[seat]
        n = legal_builds(builds, self.st, self.bd, self.rules.central_price, turn,
                         Means(self.hands[seat], jokers, jokers, central, jokers, 0, -1), self.paid)
        return {(int(p), 0 if c == C.CENTRAL else int(c) + 1, int(s), int(t)) for p, c, s, t in builds[:n]}

    def build(self, seat, piece, castle, spot=-1, tile=-1):
        """Build through the kernel's block (castle 1-11, 0 = central); returns (the event row, the play ended)."""
        b = np.array([piece, C.CENTRAL if castle == 0 else castle - 1, spot, tile], np.int64)
        K.new_row(self.rec, C.BUILD, 0, 0, seat, self.pool)
        done = K.build(self.rec, b, self.jokers[seat], seat, self.st, self.setup, self.paid, self.key)
        K.close_row(self.rec, self.pool, self.deck)
        return self.rec.copy(), bool(done)

    def gained_coins(self, rec):
        cards = [c for c in rec[C.EV_GAINED:C.EV_GAINED + C.GAINED_SLOTS] if c >= 0]
        return [c % 3 + 1 for c in cards]

    def conserved(self):
        cards = self.deck + self.discard + self.hands.sum(axis=0)
        pieces = self.supply.sum(axis=0) + self.counts.sum(axis=0)
        return ((cards == self.cards.cards).all() and self.pool[JOKER_PILE] + self.jokers.sum() == 17
                and tuple(pieces) == C.PIECE_TOTALS)


# --- 1. paying in a small castle ------------------------------------------------------------------------------

@pytest.mark.parametrize("red, yellow", [(4, 0), (3, 1), (2, 2), (1, 3), (0, 4)])
def test_four_cards_of_the_two_colours_in_any_split_pay(red, yellow):
    hand = hand_of((RED, 1, red), (YELLOW, 2, yellow))
    assert can_pay_small(hand, 0, RED, YELLOW, 0)
    paid = np.zeros((8, 3), np.int64)
    assert pay_small(hand, 0, RED, YELLOW, 0, paid) == 0 and paid.sum() == 4 and (paid <= hand).all()


def test_jokers_stand_in_for_missing_cards_and_a_wrong_colour_does_not_pay():
    paid = np.zeros((8, 3), np.int64)
    assert pay_small(hand_of((RED, 1, 2), (YELLOW, 1, 1)), 1, RED, YELLOW, 0, paid) == 1 and paid.sum() == 3
    assert not can_pay_small(hand_of((RED, 1, 3), (GREEN, 1, 1)), 0, RED, YELLOW, 0)
    assert pay_small(hand_of((RED, 1, 3), (GREEN, 1, 1)), 0, RED, YELLOW, 0, paid) == -1
    assert pay_small(np.zeros((8, 3), np.int64), 4, RED, YELLOW, 0, paid) == 4 and paid.sum() == 0


def test_the_price_uses_the_lowest_coin_cards_and_jokers_only_when_needed():
    paid = np.zeros((8, 3), np.int64)
    hand = hand_of((RED, 3, 2), (RED, 1, 2), (YELLOW, 2, 1))
    assert pay_small(hand, 2, RED, YELLOW, 0, paid) == 0
    assert paid[RED, 0] == 2 and paid[YELLOW, 1] == 1 and paid[RED, 2] == 1


# --- 2. jokers for walls -----------------------------------------------------------------------------------------

def test_a_wall_takes_one_joker_per_wall_now_in_its_castle():
    pos = Position()  # 4 players: walls pre-placed on 1a, 4a, 7a, 9a; castle 5 empty
    assert pos.colours(1) == {RED, GREEN}
    pos.give(0, *[(c, 2, 4) for c in pos.colours(5)], (RED, 3, 3), (GREEN, 3, 1))
    rec, _ = pos.build(0, WALL, 5, 0)
    assert rec[C.EV_WALL_JOKERS] == 1
    rec, _ = pos.build(0, WALL, 5, 1)
    assert rec[C.EV_WALL_JOKERS] == 2
    rec, _ = pos.build(0, WALL, 1, 1)  # beside the pre-placed wall
    assert rec[C.EV_WALL_JOKERS] == 2 and pos.conserved()


def test_wall_jokers_are_capped_by_the_joker_pile():
    pos = Position()
    pos.give(0, *[(c, 2, 2) for c in pos.colours(1)], jokers=16)  # one joker left in the pile
    rec, _ = pos.build(0, WALL, 1, 2)
    assert rec[C.EV_WALL_JOKERS] == 1 and pos.pool[JOKER_PILE] == 0 and pos.conserved()


# --- 3. the house rule -------------------------------------------------------------------------------------------

def test_a_house_needs_as_many_walls_as_houses_after_building():
    pos = Position()
    pos.give(0, *[(c, 2, 2) for c in pos.colours(1)], *[(c, 2, 2) for c in pos.colours(2)])
    assert (HOUSE, 1, 1, -1) in pos.legal(0) and not any(b[:2] == (HOUSE, 2) for b in pos.legal(0))
    pos.build(0, HOUSE, 1, 1)
    assert not any(b[:2] == (HOUSE, 1) for b in pos.legal(0))  # a second house: 2 houses > 1 wall


# --- 4. the palas and the master builder ---------------------------------------------------------------------------

def test_a_palas_pays_the_master_builder_in_coins_without_change_and_turns_the_card():
    pos = Position()
    pos.master[:] = [3, 5, 1, 1, 2, 2, 3, 3, 3, 4, 4, 5]
    a, b = sorted(pos.colours(5))
    pos.give(0, (a, 2, 4), (PURPLE, 2, 2))
    rec, _ = pos.build(0, PALAS, 5, 0)
    assert rec[C.EV_MASTER] == 3
    paid = [c for c in rec[C.EV_PAID:C.EV_PAID + C.PAID_SLOTS] if c >= 0]
    assert sorted(paid) == sorted([a * 3 + 1] * 4 + [PURPLE * 3 + 1] * 2)  # 4 cards + 2 x 2 coins: no change
    assert pos.pool[MASTER_TOP] == 1 and pos.master[pos.pool[MASTER_TOP] % 12] == 5
    pos.give(0, (a, 1, 2), (b, 1, 2), (PURPLE, 3, 2))
    assert not any(x[:2] == (PALAS, 5) for x in pos.legal(0))  # one palas per castle
    assert (WALL, 5, 1, -1) in pos.legal(0) and pos.conserved()  # the hand pays; the rule refuses


def test_the_price_cards_coins_do_not_count_toward_the_master_builder():
    pos = Position()
    pos.master[0] = 2
    a, b = sorted(pos.colours(5))
    pos.give(0, (a, 3, 3), (b, 3, 1))  # 12 coins, all in the price: 2 due, none left
    assert not any(x[:2] == (PALAS, 5) for x in pos.legal(0))
    pos.give(0, jokers=1)  # a joker pays a price card: the 3-coin card is free for the master builder
    assert (PALAS, 5, 0, -1) in pos.legal(0)


# --- 5. wells ----------------------------------------------------------------------------------------------------

def test_wells_go_on_the_marker_castle_and_pay_5_4_3_in_drawn_coins():
    pos = Position()
    marker = int(pos.well_order[pos.pool[WELL_TOP]]) + 1
    other = 1 if marker != 1 else 2
    for castle in (marker, other):
        pos.give(0, *[(c, 2, 2) for c in pos.colours(castle)])
    wells = {b[1] for b in pos.legal(0) if b[0] == WELL}
    assert wells == {marker}
    rec, _ = pos.build(0, WELL, marker)
    coins = pos.gained_coins(rec)
    assert rec[C.EV_WELL_REWARD] == 5 and sum(coins) >= 5 and sum(coins[:-1]) < 5
    assert pos.pool[WELLS_BUILT] == 1 and int(pos.well_order[pos.pool[WELL_TOP]]) + 1 != marker
    nxt = int(pos.well_order[pos.pool[WELL_TOP]]) + 1
    pos.give(1, *[(c, 2, 2) for c in pos.colours(nxt)])
    rec, _ = pos.build(1, WELL, nxt)
    assert rec[C.EV_WELL_REWARD] == 4 and pos.conserved()


def test_a_well_card_naming_a_castle_with_a_well_is_set_aside():
    pos = Position(players=3)  # 3 players: wells pre-placed on castles 5 and 10
    assert int(pos.well_order[pos.pool[WELL_TOP]]) not in (4, 9)
    pos.well_order[:] = [0, 4, 9, 1, 2, 3, 5, 6, 7, 8, 10]
    pos.pool[WELL_TOP] = 0
    pos.give(0, *[(c, 2, 2) for c in pos.colours(1)])
    pos.build(0, WELL, 1)
    assert marker_castle(pos.well_order, pos.pool) == 1  # castles 5 and 10 skipped: castle 2
    assert pos.pool[WELLS_BUILT] == 1  # the pre-placed wells used no reward


# --- 5b. the reading of the well marker (free_well_tile) -----------------------------------------------------------
# "Brunnen werden auf das einzig runde Feld pro Burg gebaut und immer nur in der Burg, die aktuell über den roten
# Anzeigemarker verfügt." Drawn: the marker on castle k; seat 0 holds the designed tile X5 ("Brunnen frei
# wählbar") and cards for a well at k and at another castle m without a well, and for a house in castle 2 (no wall).

def marker_position(free_well_tile):
    pos = Position(free_well_tile=free_well_tile)
    marker = int(pos.well_order[pos.pool[WELL_TOP]]) + 1
    other = next(c for c in (2, 3, 5, 6) if c != marker and pos.colours(c) != pos.colours(marker))
    x5 = pos.tile_ids.index("X5")
    pos.tiles_held[0, x5] = True
    for coins, castle in zip((1, 2, 3), (marker, other, 2)):  # 2 cards of each colour: the pile holds 3, 4, 3
        pos.give(0, *[(c, coins, 2) for c in pos.colours(castle)])
    return pos, marker, other, x5


def test_immer_nur_a_well_only_on_the_marker_castle_even_holding_x5():
    """The text's reading (the default): 'immer nur' admits no tile; X5 lifts the house rule instead (as X2)."""
    pos, marker, other, x5 = marker_position(False)
    assert GAME.parameters()["free_well_tile"].default is False
    legal = pos.legal(0, central=False)
    assert {b[1] for b in legal if b[0] == WELL} == {marker}
    assert (WELL, marker, -1, -1) in legal and not any(b[0] == WELL and b[3] >= 0 for b in legal)
    assert pos.cards.bonus_effect[x5] == C.IGNORE_HOUSE_RULE
    assert (HOUSE, 2, 0, x5) in legal  # castle 2 holds no wall: only the tile lets a house in
    rec, _ = pos.build(0, HOUSE, 2, 0, x5)
    assert rec[C.EV_TILE] == x5 and not pos.tiles_held[0, x5] and pos.counts[1, HOUSE] == 1
    rec, _ = pos.build(0, WELL, marker)
    assert rec[C.EV_WELL_REWARD] == 5 and pos.conserved()


def test_the_other_reading_x5_places_one_well_anywhere_and_the_marker_stays():
    """free_well_tile = true: X5 puts one well on any castle without a well; the reward is the next one, and the
    marker stays where it is."""
    pos, marker, other, x5 = marker_position(True)
    legal = pos.legal(0, central=False)
    wells = {b[1]: b[3] for b in legal if b[0] == WELL}
    assert wells[marker] == -1 and wells[other] == x5
    pos.give(0, jokers=4)  # now every castle is paid for: a well with X5 on each one without a well
    assert {b[1] for b in pos.legal(0, central=False) if b[0] == WELL} == {c for c in range(1, 12)
                                                                           if pos.counts[c - 1, WELL] == 0}
    assert not any(b[0] == HOUSE and b[1] == 2 for b in legal)  # X5 does not lift the house rule
    rec, _ = pos.build(0, WELL, other, -1, x5)
    assert rec[C.EV_WELL_REWARD] == 5 and rec[C.EV_TILE] == x5 and not pos.tiles_held[0, x5]
    assert marker_castle(pos.well_order, pos.pool) == marker - 1 and pos.pool[WELLS_BUILT] == 1
    assert {b[1] for b in pos.legal(0, central=False) if b[0] == WELL} == {marker}  # X5 used up
    rec, _ = pos.build(0, WELL, marker)
    assert rec[C.EV_WELL_REWARD] == 4 and pos.conserved()


# --- 6. the spots' bonuses -------------------------------------------------------------------------------------------

@pytest.mark.parametrize("castle, spot, kind", [(5, 0, C.SPOT_JOKER), (6, 1, C.SPOT_COINS), (6, 2, C.SPOT_SWAP),
                                                (5, 2, C.SPOT_BONUS)])
def test_each_spot_gives_its_bonus(castle, spot, kind):
    pos = Position()
    pos.give(0, *[(c, 2, 2) for c in pos.colours(castle)])
    before_jokers, before_swaps, before_tiles = pos.pool[JOKER_PILE], pos.pool[SWAP_SUPPLY], pos.pool[BONUS_TOP]
    rec, _ = pos.build(0, WALL, castle, spot)
    assert rec[C.EV_SPOT_BONUS] == kind
    if kind == C.SPOT_JOKER:
        assert rec[C.EV_JOKERS_GAINED] == 1 and pos.pool[JOKER_PILE] == before_jokers - 1 - 1  # + the wall's joker
    if kind == C.SPOT_COINS:
        coins = pos.gained_coins(rec)
        assert sum(coins) >= 3 and sum(coins[:-1]) < 3  # castle 6 spot b: coins 3
    if kind == C.SPOT_SWAP:
        assert pos.swaps_held[0] == 1 and pos.pool[SWAP_SUPPLY] == before_swaps - 1
    if kind == C.SPOT_BONUS:
        tile = rec[C.EV_TILE_GAINED]
        assert pos.pool[BONUS_TOP] == before_tiles + 1 and tile == pos.bonus_order[before_tiles]
        assert pos.tiles_held[0, tile] != (pos.cards.bonus_effect[tile] == C.JOKERS)
    assert pos.conserved()


def test_the_bonus_tiles_extra_spot_and_ignored_rules():
    pos = Position(free_well_tile=True)  # the reading under which a tile (X5) lifts the well marker
    effect = list(pos.cards.bonus_effect)
    for e in (C.EXTRA_SPOT, C.IGNORE_HOUSE_RULE, C.SECOND_PALAS, C.ANY_WELL):
        pos.tiles_held[0, effect.index(e)] = True
    pos.give(0, *[(c, 1, 3) for c in pos.colours(2)], *[(c, 3, 3) for c in pos.colours(2)])
    legal = pos.legal(0)
    assert (HOUSE, 2, 0, effect.index(C.IGNORE_HOUSE_RULE)) in legal  # castle 2 has no wall
    assert any(b[0] == WELL and b[3] == effect.index(C.ANY_WELL) for b in legal)
    for spot in range(3):
        pos.spot_piece[1, spot] = WALL
    pos.counts[1, WALL] = 3
    assert {b for b in pos.legal(0) if b[1] == 2 and b[0] == WALL} == {(WALL, 2, 3, effect.index(C.EXTRA_SPOT))}
    rec, _ = pos.build(0, WALL, 2, 3, effect.index(C.EXTRA_SPOT))
    assert pos.n_spots[1] == 4 and rec[C.EV_WALL_JOKERS] == 4 and rec[C.EV_SPOT_BONUS] == -1


# --- 7. swaps ------------------------------------------------------------------------------------------------------

def test_a_swap_changes_the_colours_of_every_castle_on_both_positions():
    pos = Position()
    before = {k: pos.colours(k) for k in CASTLE_POSITIONS}
    pos.give(0, (LIGHTBLUE, 1, 2), (WHITE, 1, 2))
    assert not any(b[1] == 6 for b in pos.legal(0, central=False))  # castle 6: green/black
    pos.swaps_held[0] = 1
    tile_of = np.full(C.N_EFFECTS, -1, np.int64)
    K.do_swap(pos.rec, 2, 7, pos.st, K.turn_of(pos.st, 0, tile_of, pos.cards.bonus_effect), pos.rules)
    changed = {k for k in CASTLE_POSITIONS if pos.colours(k) != before[k]}
    assert changed == {1, 5, 6, 7, 10, 11}
    assert pos.colours(6) == {WHITE, BLACK} and pos.swaps_held[0] == 0 and pos.pool[SWAP_SUPPLY] == 10
    pos.give(0, (BLACK, 1, 2))
    assert any(b[1] == 6 for b in pos.legal(0, central=False))


# --- 8. the central castle --------------------------------------------------------------------------------------------

def test_the_central_castle_takes_one_colour_or_all_different_jokers_wild():
    paid = np.zeros((8, 3), np.int64)
    assert pay_central(hand_of((RED, 1, 5)), 0, 5, 0, paid) == 0 and paid[RED].sum() == 5
    assert pay_central(hand_of(*[(c, 2, 1) for c in range(5)]), 0, 5, 0, paid) == 0
    assert (paid.sum(axis=1)[:5] == 1).all()
    assert not can_pay_central(hand_of((RED, 1, 4), (LIGHTBLUE, 1, 1)), 0, 5)
    assert pay_central(hand_of((RED, 1, 4), (LIGHTBLUE, 1, 1)), 0, 5, 0, paid) == -1
    assert pay_central(hand_of((RED, 1, 4)), 1, 5, 0, paid) == 1 and paid.sum() == 4


def test_a_central_build_gives_no_reward_and_obeys_no_castle_rule():
    pos = Position()
    pos.give(0, (RED, 1, 3), (RED, 2, 4))
    assert {b for b in pos.legal(0) if b[1] == 0} == {(WALL, 0, -1, -1), (HOUSE, 0, -1, -1), (PALAS, 0, -1, -1)}
    rec, _ = pos.build(0, HOUSE, 0)
    assert rec[C.EV_SPOT_BONUS] == -1 and rec[C.EV_WALL_JOKERS] == 0 and rec[C.EV_MASTER] == 0
    assert pos.counts[C.CENTRAL, HOUSE] == 1 and pos.conserved()


# --- 9. the end ----------------------------------------------------------------------------------------------------

def test_the_last_piece_ends_the_play_at_once_without_its_bonus():
    pos = Position()
    pos.supply[0] = [1, 0, 0, 0]
    pos.give(0, *[(c, 2, 2) for c in pos.colours(5)])
    rec, done = pos.build(0, WALL, 5, 0)
    assert done and rec[C.EV_SPOT_BONUS] == -1 and rec[C.EV_WALL_JOKERS] == 0


def test_seats_rank_by_pieces_left_with_shared_ranks():
    config = RunConfig.build(GAME, players=4, policies=["random"], plays=300, seed=5, options={})
    seats = GAME.simulate(config, 0, 300, events=False)["seats"].to_pandas()
    for _, play in seats.groupby("play_index"):
        assert play["winner"].sum() == 1 and play.loc[play["winner"], "pieces_left"].item() == 0
        for _, row in play.iterrows():
            assert row["rank"] == 1 + (play["pieces_left"] < row["pieces_left"]).sum()


# --- 10. starting hands -------------------------------------------------------------------------------------------

@pytest.mark.parametrize("start_hands, cards", [("staggered", [4, 5, 6, 7]), ("equal", [4, 4, 4, 4])])
def test_starting_hands(start_hands, cards):
    config = RunConfig.build(GAME, players=4, policies=["random"], plays=20, seed=2,
                             options={"start_hands": start_hands})
    events = GAME.simulate(config, 0, 20, events=True)["events"].to_pandas()
    deals = events[events["action"] == "deal"]
    assert (deals.groupby("seat")["gained_colours"].apply(lambda x: set(map(len, x))) == [{c} for c in cards]).all()
    assert (deals["jokers_gained"] == 1).all()


# --- whole plays ---------------------------------------------------------------------------------------------------

def _config(policies, players=4, **options):
    return RunConfig.build(GAME, players=players, policies=policies, plays=60, seed=11, options=options)


@pytest.mark.parametrize("policies, options", [(["random"], {}), (["builder", "saver", "random", "builder"],
                                                                   {"start_hands": "equal"})])
def test_a_play_gives_the_same_tables_alone_and_in_a_batch(policies, options):
    config = _config(policies, **options)
    batch = GAME.simulate(config, 0, 12, events=True)
    alone = GAME.simulate(config, 9, 10, events=True)
    for name, table in alone.items():
        part = batch[name].filter(np.asarray(batch[name]["play_index"]) == 9)
        assert part.equals(table), name


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_policy_finishes_its_plays_by_the_rules(players):
    for policy in ("random", "builder", "saver"):
        out = GAME.run_kernel(_config([policy], players), 0, 60)
        assert (out.end_reason == C.LAST_PIECE).all() and (out.winner >= 0).all()
        assert (out.seat("placed").max(axis=1) == board_arrays(GAME.board(_config([policy], players)),
                                                                players).supply.sum()).all()


def test_a_small_turn_limit_ends_plays_without_a_winner():
    out = GAME.run_kernel(_config(["random"], max_turns=20), 0, 30)
    assert (out.end_reason == C.TURN_LIMIT).all() and (out.winner == -1).all() and (out.turns == 20).all()


MAP = map_text("standard")


@pytest.mark.parametrize("edit, message", [
    (lambda t: t.replace("stones = [0, 2]", "stones = [3, 3]"), "castle 1: stones [3, 3] must be two different"),
    (lambda t: t.replace("stones = [0, 4]", "stones = [0, 2]"), "castle 2: same stones as castle 1"),
    (lambda t: t.replace('spots = ["joker", "coins:2", "swap"]', 'spots = ["joker", "gold", "swap"]'),
     "castle 1: spot b: unknown kind 'gold'"),
    (lambda t: t.replace('spots = ["joker", "coins:2", "swap"]', 'spots = ["joker", "swap"]'),
     "castle 1: 3 square spots expected, got 2"),
    (lambda t: t.replace('"coins:2"', '"coins:9"', 1), "castle 1: spot b: coin value must be 1 to 5"),
    (lambda t: t.replace("id = 11", "id = 12"), "castle 12"),
    (lambda t: t.replace("id = 11", "id = 10"), "castle 10: duplicate id"),
    (lambda t: t.replace("positions = 8", "positions = 9"), "positions: 8 expected"),
    (lambda t: t.replace("supply = { wall = 3,", "supply = { wall = 4,"), "setup players=4: walls 4 pre-placed"),
    (lambda t: t.replace('{ castle = 1, spot = "b", piece = "house" }', '{ castle = 2, spot = "b", piece = "house" }'),
     "setup players=3: castle 2: a house without a wall"),
    (lambda t: t.replace("[[castle]]\nid = 1\n", "[[castle]]\nid = 1\nx = 1\n", 1).replace("= [", "= ", 1),
     "is not valid TOML"),
])
def test_a_bad_map_file_fails_naming_the_entry(edit, message):
    with pytest.raises(SimlibError, match=message.replace("[", r"\[").replace("]", r"\]")):
        board_from_text("bad.toml", edit(MAP))


DATA = data_text("assumed")


@pytest.mark.parametrize("edit, message", [
    (lambda t: t.replace('effect = "swap"', 'effect = "teleport"'), "bonus X6: unknown effect 'teleport'"),
    (lambda t: t.replace("master_builders = [1,", "master_builders = [9,"), "master_builders"),
    (lambda t: t.replace('id = "X2"', 'id = "X1"'), "bonus X1: id must be a new"),
    (lambda t: t.replace("value = 2", "value = 0"), "bonus X7: value"),
])
def test_a_bad_data_file_fails_naming_the_entry(edit, message):
    with pytest.raises(SimlibError, match=message):
        components_from_text("bad.toml", edit(DATA))


def test_the_run_id_follows_the_map_files_text(tmp_path):
    path = tmp_path / "map.toml"
    path.write_text(MAP)
    first = RunConfig.build(GAME, players=4, policies=["random"], plays=10, seed=1, options={"map": str(path)})
    path.write_text(MAP.replace('spots = ["joker", "coins:2", "swap"]', 'spots = ["joker", "coins:3", "swap"]'))
    edited = RunConfig.build(GAME, players=4, policies=["random"], plays=10, seed=1, options={"map": str(path)})
    versions = GAME.rules_versions()
    assert first.options["data_id"] != edited.options["data_id"] and first.run_id(versions) != edited.run_id(versions)
