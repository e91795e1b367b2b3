"""7 Steps' rules, each as a drawn situation on the standard board: the towers set up as the rule text
(shared/seeds/003_18fad9fc6592207b.txt, settled in issue 12 and docs/games/sevensteps.md) describes them,
one block of the kernel run, the outcome the text gives. Fields are named by their axial (q, r) as in the
docs' field table. Whole games are checked against the independent event replay
(tests/sevensteps/test_sevensteps_reference.py)."""

from __future__ import annotations

import numpy as np
import pytest

from simlib.core.config import RunConfig
from simlib.core.errors import SimlibError
from simlib.games.sevensteps import GAME
from simlib.games.sevensteps.board import load_board
from simlib.games.sevensteps.chains import Query, best_chain
from simlib.games.sevensteps.constants import (
    BAG_EMPTY,
    COLOURS,
    DOWNHILL,
    HIGH_START,
    LEVEL,
    LINE,
    MOVE_TOWER,
    N_COLOURS_USED,
    ONE_COLOUR,
    STEP_UP_2,
    STEPS_UP,
    TAKE_DOWN,
)
from simlib.games.sevensteps.decisions import MAX_TARGETS, aid_targets, apply_aid, plan_turn
from simlib.games.sevensteps.play import new_turn_work, place_chain
from simlib.games.sevensteps.policies import AID_MARGIN, AID_OPTIONS, CLIMBER, GREEDY, MAX_NODES, PARAMS, POLICIES
from simlib.games.sevensteps.rules import (
    bonus_earned,
    draw_tile,
    first_placements,
    may_take_tile,
    measure,
    move_tower_targets,
    next_placements,
    place_disc,
    take_down_targets,
    threshold_points,
)
from simlib.games.sevensteps.specials import load_specials
from simlib.games.sevensteps.state import N_STREAMS, Draws, Rules, Setup, board_arrays, tile_arrays

FRONT = load_board("fano", "standard", "front")
BACK = load_board("fano", "standard", "back")
NONE = -1  # no build-aid effect


def draws(key):
    """A turn's draws (state.Draws) of `key`: turn 0, nothing drawn yet."""
    return Draws(np.uint64(key), np.zeros(1, np.int64), np.zeros(N_STREAMS, np.int64))


class Turn:
    """A board drawn as towers {(q, r): height}, a hand {colour: discs}, and a turn placing discs on it."""

    def __init__(self, towers=None, hand=None, board=FRONT, first_disc="tile", effect=NONE):
        self.board, self.effect = board, effect
        self.bd = board_arrays(board, first_disc)
        self.height = np.zeros(49, np.int64)
        for (q, r), h in (towers or {}).items():
            self.height[self.at(q, r)] = h
        self.hand = np.zeros(7, np.int64)
        for colour, n in (hand or {c: 7 for c in COLOURS}).items():
            self.hand[COLOURS.index(colour)] = n
        self.used = np.zeros(49, np.bool_)
        self.fields, self.levels, self.dirs, self.collapses = [], [], [], 0

    def at(self, q, r):
        return int(np.flatnonzero((self.board.coords == (q, r)).all(axis=1))[0])

    def coords(self, fields):
        return {tuple(int(x) for x in self.board.coords[f]) for f in fields}

    def legal(self):
        """The (q, r) where the next disc may go."""
        out, out_dir = np.empty(49, np.int64), np.empty(49, np.int64)
        if not self.fields:
            n = first_placements(self.height, self.bd, self.hand, self.effect, out)
        else:
            n = next_placements(self.height, self.bd, self.hand, self.used, self.fields[-1], self.levels[-1],
                                self.effect, out, out_dir)
        return self.coords(out[:n])

    def place(self, *chain):
        """Place discs on (q, r) after (q, r), each checked legal first; returns the levels."""
        for q, r in chain:
            assert (q, r) in self.legal(), f"({q},{r}) is not a legal placement here"
            f = self.at(q, r)
            if self.fields:
                self.dirs.append(int(np.flatnonzero(self.bd.neighbours[self.fields[-1]] == f)[0]))
            else:
                self.dirs.append(-1)
            level, collapses = place_disc(self.height, self.bd.colour, self.bd.colour_fields, f)
            self.used[f] = True
            self.hand[self.bd.colour[f]] -= 1
            self.fields.append(f)
            self.levels.append(level)
            self.collapses += collapses
        return self.levels

    def heights(self, colour):
        return {tuple(int(x) for x in self.board.coords[f]): int(self.height[f])
                for f in self.board.colour_fields[COLOURS.index(colour)]}

    def measure(self, kind):
        a = np.array
        return measure(kind, len(self.fields), a(self.fields, np.int64), a(self.levels, np.int64),
                       a(self.dirs, np.int64), self.bd.colour)


# --- the board -------------------------------------------------------------------------------------------


def test_hex_adjacency_on_the_standard_board():
    t = Turn()
    centre = t.at(0, 0)
    assert t.coords(t.bd.neighbours[centre]) == {(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)}
    # across a tile border: (1,0) (middle tile) touches (2,-1) and (2,0) of the yellow tile
    assert {(2, -1), (2, 0)} <= t.coords(t.bd.neighbours[t.at(1, 0)])
    # a rim field of an outer tile has 3 neighbours
    assert (t.bd.neighbours[t.at(4, -2)] >= 0).sum() == 3
    edges = (FRONT.neighbours >= 0).sum() // 2
    assert edges == 120 and ((FRONT.neighbours >= 0).sum(1) == 6).sum() == 25


@pytest.mark.parametrize("board", [FRONT, BACK], ids=["front", "back"])
def test_every_colour_has_seven_fields_on_either_side(board):
    assert (np.bincount(board.colour, minlength=7) == 7).all()
    assert sorted(board.colour_fields.ravel()) == list(range(49))


def test_the_back_shows_three_colours_per_tile_and_no_colour_touches_itself_across_a_border():
    for tile in range(7):
        assert len(set(BACK.colour[BACK.tile == tile])) == 3
    for f in range(49):
        for g in BACK.neighbours[f]:
            if g >= 0 and BACK.tile[f] != BACK.tile[g]:
                assert BACK.colour[f] != BACK.colour[g]


# --- placing ----------------------------------------------------------------------------------------------


def test_the_first_disc_goes_at_its_colours_lowest_level():
    # blue (0,0) 4 and (1,0) 4: a first blue disc must go on one of the five empty blue fields
    t = Turn({(0, 0): 4, (1, 0): 4}, {"blue": 3})
    assert t.legal() == {(1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)}
    # every blue field occupied, the lowest at 1: only those ("mit Ebene 1 begonnen": the disc lands at 2)
    towers = {(0, 0): 2, (1, 0): 1, (1, -1): 3, (0, -1): 1, (-1, 0): 2, (-1, 1): 2, (0, 1): 2}
    t = Turn(towers, {"blue": 1})
    assert t.legal() == {(1, 0), (0, -1)}
    assert t.place((0, -1)) == [2]


def test_the_first_disc_goes_at_the_lowest_level_of_its_colour_on_a_tile_the_texts_reading_and_the_default():
    # "Ferner muss auf einem Spielplanteil ein neuer Stein immer auf der niedrigsten Ebene gelegt werden": on the
    # back, blue lies on tile 0 (3 fields), tile 4 ((-3,0), (-3,2)) and tile 6 ((2,2), (0,2)). Tile 4's two blue
    # fields are both built (2 and 3): on that tile the lowest is (-3,0) at 2, so a first blue disc may go there
    # (level 3) as well as on any empty blue field of tiles 0 and 6
    assert GAME.parameters()["first_disc"].default == "tile"
    towers = {(-3, 0): 2, (-3, 2): 3}
    assert Turn(towers, {"blue": 1}, BACK).legal() == {(0, 0), (1, 0), (-1, 0), (2, 2), (0, 2), (-3, 0)}
    t = Turn(towers, {"blue": 1}, BACK)
    assert t.place((-3, 0)) == [3]
    # the other reading (colour: the whole board): blue has empty fields elsewhere, so (-3,0) is closed
    assert Turn(towers, {"blue": 1}, BACK, "colour").legal() == {(0, 0), (1, 0), (-1, 0), (2, 2), (0, 2)}
    # on a tile whose blue fields are all at one height, both at that height; the per-tile lowest of tile 0 is
    # its empty fields, tile 6's too
    towers = {(-3, 0): 1, (-3, 2): 1, (0, 0): 1}
    assert Turn(towers, {"blue": 1}, BACK).legal() == {(1, 0), (-1, 0), (2, 2), (0, 2), (-3, 0), (-3, 2)}
    assert Turn(towers, {"blue": 1}, BACK, "colour").legal() == {(1, 0), (-1, 0), (2, 2), (0, 2)}


def test_on_the_front_the_two_first_disc_readings_agree():
    # one colour per tile: the colour's lowest on its tile is its lowest on the board
    towers = {(0, 0): 2, (1, 0): 1, (1, -1): 3, (0, -1): 1, (-1, 0): 2, (-1, 1): 2, (0, 1): 2}
    assert Turn(towers, {"blue": 1}, FRONT, "tile").legal() == Turn(towers, {"blue": 1}, FRONT, "colour").legal()


def test_further_discs_go_adjacent_same_level_or_one_up_never_down_never_twice():
    # blue (0,0) 1, (1,0) 2: after (-1,0) at 1 the chain may go to (0,0) at 2 (one up) or empty (0,-1) at 1
    # (same), not to (1,0) (it is not adjacent to (-1,0))
    t = Turn({(0, 0): 1, (1, 0): 2}, {"blue": 4})
    t.place((-1, 0))
    assert t.legal() == {(0, 0), (0, -1), (-1, 1)}
    t.place((0, 0))
    # from level 2: (1,0) at 3 is one up; empty fields at 1 would be down
    assert t.legal() == {(1, 0)}
    t = Turn({(1, 0): 2}, {"blue": 2})
    t.place((0, 0))
    assert (1, 0) not in t.legal()  # level 3 after level 1: two up
    # no field twice: after (0,0) and (1,0) the chain cannot return to (0,0)
    t = Turn({}, {"blue": 3})
    t.place((0, 0), (1, 0))
    assert (0, 0) not in t.legal()
    # a disc needs its own colour: with no yellow in hand, the yellow field (2,0) next to (1,0) is closed
    assert (2, 0) not in t.legal()


def test_the_turn_scores_the_sum_of_levels_as_in_the_seed_example():
    # "je 1 Stein auf Ebene 1 und je 2 Steine auf Ebene 2 eingesetzt = 1+1+2+2 = 6 Punkte"
    t = Turn({(0, 0): 1, (1, 0): 1}, {"blue": 4})
    assert sum(t.place((0, -1), (-1, 0), (0, 0), (1, 0))) == 6


def test_a_tower_reaching_seven_collapses_and_a_chain_collapse_follows():
    # docs example: blue (-1,0) 1, (0,-1) 2, (0,0) 3, (1,0) 4; yellow (2,0) 5, (2,-1) 6
    t = Turn({(-1, 0): 1, (0, -1): 2, (0, 0): 3, (1, 0): 4, (2, 0): 5, (2, -1): 6}, {"blue": 5, "yellow": 2})
    levels = t.place((-1, 1), (-1, 0), (0, -1), (0, 0), (1, 0), (2, 0), (2, -1))
    assert levels == [1, 2, 3, 4, 5, 6, 7] and sum(levels) == 28
    assert t.collapses == 2  # (2,-1) reached 7, its collapse brought (2,0) to 7
    assert t.heights("yellow") == {(3, -1): 2, (4, -1): 2, (4, -2): 2, (3, -2): 2, (2, -1): 2, (2, 0): 1, (3, 0): 2}
    assert sum(t.heights("yellow").values()) == 13


def test_towers_reaching_seven_together_collapse_together():
    # yellow (2,-1), (3,-1), (4,-1) at 6; a disc on (2,-1) (high start) reaches 7: its discs bring the other
    # two to 7, which go together, two onto each yellow field; no tower ever exceeds 7
    t = Turn({(2, -1): 6, (3, -1): 6, (4, -1): 6}, {"yellow": 1}, effect=HIGH_START)
    assert t.place((2, -1)) == [7] and t.collapses == 3
    assert t.heights("yellow") == {(3, -1): 2, (4, -1): 2, (4, -2): 3, (3, -2): 3, (2, -1): 3, (2, 0): 3, (3, 0): 3}


def test_after_a_collapse_the_chain_goes_on_only_at_level_seven():
    t = Turn({(1, 0): 6, (0, 0): 6, (1, -1): 2}, {"blue": 3}, effect=HIGH_START)
    t.place((1, 0))  # 7: collapses, (0,0) goes to 7 too and both collapse
    assert t.collapses == 2 and t.legal() == set()
    t = Turn({(1, 0): 6, (2, 0): 6}, {"blue": 1, "yellow": 1}, effect=HIGH_START)
    t.place((1, 0))
    assert t.legal() == {(2, 0)}  # the adjacent yellow tower of 6: a disc at 7 again


# --- the tile threshold and the held tiles ------------------------------------------------------------------


@pytest.mark.parametrize("points, threshold, earns", [(6, 7, True), (7, 7, False), (7, 8, True), (8, 8, False)])
def test_a_low_turn_earns_a_tile_below_the_threshold(points, threshold, earns):
    assert may_take_tile(3, points, threshold) == earns
    assert not may_take_tile(0, 0, threshold)  # a pass earns nothing


def test_the_threshold_counts_the_discs_points_hierbei_and_the_total_only_under_the_other_reading():
    # "er streicht nun Punkte für die eingesetzten Steine: pro Stein und Ebende 1 Punkt ... Hat der Spieler
    # hierbei weniger als 7 Punkte erreicht, darf er ... einen Bauhilfe- oder Siegpunkthilfe-Marker nehmen."
    # Front, empty board: yellow (2,-1), blue (1,-1), black (1,-2), red (0,-2), all at level 1, with S3 (4 colours,
    # +3): the discs score 4, below 7; the bonus lifts the turn to 7
    assert GAME.parameters()["threshold_counts"].default == "discs"
    t = Turn({}, {"yellow": 1, "blue": 1, "black": 1, "red": 1})
    discs = sum(t.place((2, -1), (1, -1), (1, -2), (0, -2)))
    bonus = _bonus(t, "S3")
    assert (discs, bonus) == (4, 3)
    assert may_take_tile(4, threshold_points(discs, bonus, False), 7)      # discs: 4 < 7, a tile
    assert not may_take_tile(4, threshold_points(discs, bonus, True), 7)   # total: 7, none
    # S1 on three blue discs: 3 + 3 = 6, below 7 either way
    t = Turn({}, {"blue": 3})
    discs = sum(t.place((0, 0), (1, 0), (1, -1)))
    for bonus_counts in (False, True):
        assert may_take_tile(3, threshold_points(discs, _bonus(t, "S1"), bonus_counts), 7)
    # seven discs at level 1 score 7 without a bonus: no tile under either reading
    assert not any(may_take_tile(7, threshold_points(7, 0, counts), 7) for counts in (False, True))


def test_a_tile_is_drawn_from_its_pile_and_an_empty_pile_is_refilled_from_its_discards():
    piles = np.array([[0, 1, 2], [0, 0, 0]], np.int64)
    discards = np.zeros((2, 3), np.int64)
    n_piles, n_discards = np.array([3, 0], np.int64), np.array([0, 0], np.int64)
    drawn = {draw_tile(piles, n_piles, discards, n_discards, 0, np.uint64(5), i) for i in range(3)}
    assert drawn == {0, 1, 2} and n_piles[0] == 0
    assert draw_tile(piles, n_piles, discards, n_discards, 1, np.uint64(5), 9) == -1  # nothing anywhere
    discards[0, 0], n_discards[0] = 2, 1
    assert draw_tile(piles, n_piles, discards, n_discards, 0, np.uint64(5), 10) == 2 and n_discards[0] == 0


# --- the build-aid tiles (docs: "Build-aid tiles") ---------------------------------------------------------


def test_B1_high_start_lifts_the_lowest_level_rule_for_the_first_disc():
    towers = {(0, 0): 4, (1, 0): 4}
    assert (0, 0) not in Turn(towers, {"blue": 2}).legal()
    t = Turn(towers, {"blue": 2}, effect=HIGH_START)
    assert sum(t.place((0, 0), (1, 0))) == 10


def test_B1_and_B2_limit_the_turn_to_five_discs_the_others_to_seven():
    specials = load_specials("assumed")
    limits = dict(zip(specials.aid_ids, specials.aid_max_discs.tolist()))
    assert limits == {"B1": 5, "B2": 5, "B3": 7, "B4": 7, "B5": 7}


def test_a_max_five_tile_stops_the_chain_at_five_discs():
    # seven blue discs on an empty front board: the whole blue flower is one chain of 7, but not under B1/B2
    for max_discs, placed in ((7, 7), (5, 5)):
        t = Turn({}, {"blue": 7})
        plan = np.array([t.at(q, r) for q, r in ((-1, 1), (-1, 0), (0, -1), (1, -1), (1, 0), (0, 1), (0, 0))])
        n = place_chain(GREEDY, plan, NONE, max_discs, t.height, t.hand, t.bd, draws(1), new_turn_work())
        assert n == placed and t.height.sum() == placed
        assert _search(Turn({}, {"blue": 7}), max_discs=max_discs).length == placed


def test_B2_double_step_allows_two_levels_up():
    towers = {(1, 0): 2}
    t = Turn(towers, {"blue": 2})
    t.place((0, 0))
    assert (1, 0) not in t.legal()
    t = Turn(towers, {"blue": 2}, effect=STEP_UP_2)
    assert sum(t.place((0, 0), (1, 0))) == 4


def test_B3_downhill_allows_a_lower_next_disc():
    yellow = {(3, -1): 2, (4, -1): 2, (4, -2): 2, (3, -2): 2, (2, -1): 2, (2, 0): 2, (3, 0): 2}
    t = Turn(yellow, {"yellow": 1, "blue": 1})
    t.place((2, -1))
    assert (1, 0) not in t.legal()
    t = Turn(yellow, {"yellow": 1, "blue": 1}, effect=DOWNHILL)
    assert sum(t.place((2, -1), (1, 0))) == 4


def test_B4_take_down_returns_a_top_disc_to_the_bag():
    t = Turn({(0, 0): 2}, {"blue": 2})
    t.place((1, 0))
    assert (0, 0) not in t.legal()  # level 3 after 1
    t = Turn({(0, 0): 2}, {"blue": 2})
    bag = np.zeros(7, np.int64)
    out = np.empty(49, np.int64)
    assert t.coords(out[:take_down_targets(t.height, out)]) == {(0, 0)}
    apply_aid(TAKE_DOWN, t.at(0, 0), -1, t.height, bag, t.bd.colour)
    assert t.height[t.at(0, 0)] == 1 and bag[COLOURS.index("blue")] == 1
    assert sum(t.place((1, 0), (0, 0))) == 3
    assert take_down_targets(np.zeros(49, np.int64), out) == 0  # not playable on an empty board


def test_B5_move_tower_moves_a_whole_tower_onto_an_empty_field_of_its_colour():
    t = Turn({(-1, 1): 1}, {"blue": 2})
    a, b = np.empty(400, np.int64), np.empty(400, np.int64)
    n = move_tower_targets(t.height, t.bd.colour, t.bd.colour_fields, a, b)
    assert n == 6 and set(a[:n]) == {t.at(-1, 1)}  # onto each of the six empty blue fields
    apply_aid(MOVE_TOWER, t.at(-1, 1), t.at(1, 0), t.height, np.zeros(7, np.int64), t.bd.colour)
    assert t.height[t.at(-1, 1)] == 0 and t.height[t.at(1, 0)] == 1
    assert sum(t.place((1, -1), (1, 0))) == 3  # 1 + 1 without the move
    assert move_tower_targets(np.zeros(49, np.int64), t.bd.colour, t.bd.colour_fields, a, b) == 0


# --- the victory-point tiles (docs: "Victory-point tiles") --------------------------------------------------


def _bonus(t, tile_id):
    s = load_specials("assumed")
    tile = s.bonus_ids.index(tile_id)
    a = np.array
    return bonus_earned(tile, s.bonus_measure, s.bonus_at_least, s.bonus_points, len(t.fields),
                        a(t.fields, np.int64), a(t.levels, np.int64), a(t.dirs, np.int64), t.bd.colour)


def test_S1_S2_discs_of_one_colour():
    t = Turn({}, {"blue": 3})
    t.place((0, 0), (1, 0), (1, -1))
    assert t.measure(ONE_COLOUR) == 3 and _bonus(t, "S1") == 3 and _bonus(t, "S2") == 0
    t = Turn({}, {"blue": 5})
    t.place((-1, 1), (-1, 0), (0, -1), (1, -1), (1, 0))
    assert sum(t.levels) + _bonus(t, "S2") == 11


def test_S3_S4_colours_used():
    t = Turn({}, {"yellow": 1, "blue": 1, "black": 1, "red": 1})
    t.place((2, -1), (1, -1), (1, -2), (0, -2))
    assert t.measure(N_COLOURS_USED) == 4 and sum(t.levels) + _bonus(t, "S3") == 7 and _bonus(t, "S4") == 0
    t = Turn({}, {"yellow": 1, "black": 2, "blue": 1, "red": 1, "white": 1})
    t.place((3, -2), (2, -2), (1, -2), (0, -1), (-1, -1), (-2, 0))
    assert t.measure(N_COLOURS_USED) == 5 and sum(t.levels) + _bonus(t, "S4") == 12
    # on the back a straight chain shows four colours
    t = Turn({}, {"blue": 1, "red": 1, "black": 1, "yellow": 1}, BACK)
    t.place((0, 0), (1, -1), (2, -1), (3, -1))
    assert _bonus(t, "S3") == 3


def test_S5_S6_levels_reached():
    towers = {(1, -1): 2, (0, -1): 2, (-1, 0): 2, (-1, 1): 2, (0, 1): 2, (0, 0): 2, (1, 0): 3}
    t = Turn(towers, {"blue": 2})
    t.place((0, 0), (1, 0))
    assert t.measure(LEVEL) == 4 and sum(t.levels) + _bonus(t, "S5") == 10 and _bonus(t, "S6") == 0
    t = Turn({(0, 0): 1, (1, 0): 2, (2, 0): 3, (3, 0): 4, (4, -1): 5}, {"blue": 3, "yellow": 3})
    t.place((-1, 0), (0, 0), (1, 0), (2, 0), (3, 0), (4, -1))
    assert t.levels == [1, 2, 3, 4, 5, 6] and sum(t.levels) + _bonus(t, "S6") == 26


def test_S7_S8_discs_in_a_straight_line():
    t = Turn({}, {"blue": 3, "yellow": 1})
    t.place((-1, 0), (0, 0), (1, 0))
    assert t.measure(LINE) == 3 and sum(t.levels) + _bonus(t, "S7") == 6 and _bonus(t, "S8") == 0
    t.place((2, 0))
    assert t.measure(LINE) == 4 and _bonus(t, "S8") == 5
    t = Turn({}, {"blue": 3})
    t.place((-1, 0), (0, 0), (0, 1))  # a bend: two discs in a line at most
    assert t.measure(LINE) == 2 and _bonus(t, "S7") == 0


def test_S9_S10_steps_up():
    t = Turn({(0, 0): 1, (1, 0): 2, (2, 0): 3}, {"blue": 3, "yellow": 1})
    t.place((-1, 0), (0, 0), (1, 0), (2, 0))
    assert t.measure(STEPS_UP) == 3 and sum(t.levels) + _bonus(t, "S9") == 13 and _bonus(t, "S10") == 0
    t = Turn({(0, 0): 1, (1, 0): 2, (2, 0): 3, (3, 0): 4, (4, -1): 5}, {"blue": 3, "yellow": 3})
    t.place((-1, 0), (0, 0), (1, 0), (2, 0), (3, 0), (4, -1))
    assert sum(t.levels) + _bonus(t, "S10") == 27


# --- the greedy search and its stated bound --------------------------------------------------------------


def _search(t, threshold=0, squares=False, max_nodes=10**7, bonus_tile=-1, max_discs=7, bonus_counts=False):
    query = Query(max_discs, t.effect, bonus_tile, squares, threshold, bonus_counts, max_nodes)
    return best_chain(t.height, t.hand, t.bd, tile_arrays(load_specials("assumed")), query, draws(3))


@pytest.mark.parametrize("board, hand, chains", [
    (FRONT, {"blue": 3, "yellow": 2, "black": 2}, 3861),
    (BACK, {"blue": 2, "yellow": 1, "black": 1, "red": 1, "white": 1, "orange": 1}, 7664),
])
def test_the_search_visits_every_legal_chain_once_and_the_worst_hands_meet_the_stated_bound(board, hand, chains):
    # threshold > 0 switches off the cut: every chain is a node; on an empty board every path the hand pays for
    # is legal, and the docs' enumeration counts these worst hands' paths
    t = Turn({}, hand, board)
    before = (t.height.copy(), t.hand.copy())
    assert _search(t, threshold=1)[7] == chains
    assert (t.height == before[0]).all() and (t.hand == before[1]).all()  # restored


def test_the_search_finds_the_collapse_chain_and_its_cut_keeps_the_best():
    towers = {(-1, 0): 1, (0, -1): 2, (0, 0): 3, (1, 0): 4, (2, 0): 5, (2, -1): 6}
    t = Turn(towers, {"blue": 5, "yellow": 2})
    fields, n, value, score, *_, nodes, capped = _search(t)
    assert (n, value, score, capped) == (7, 28, 28, False)
    assert t.coords(fields[:n]) == {(-1, 1), (-1, 0), (0, -1), (0, 0), (1, 0), (2, 0), (2, -1)}
    assert nodes < _search(t, threshold=1)[7]  # the cut saved work
    fields, n, value, *_ = _search(t, squares=True)
    assert value == sum(x * x for x in range(1, 8))
    capped = _search(t, max_nodes=5)
    assert capped[8] and capped[7] == 5


def test_the_search_below_the_threshold_finds_the_best_low_chain():
    t = Turn({}, {"blue": 7})
    *_, low, low_n, low_score, nodes, capped = _search(t, threshold=7)
    assert low_score == 6 and low_n == 6  # six blue at level 1; seven would score 7


def test_the_search_below_the_threshold_counts_as_the_rule_does():
    # seven blue discs, S1 held (3 of one colour: +3). Counting the discs' points (the text's reading), six discs
    # at level 1 still earn a tile and score 6 + 3 = 9; counting the total, three discs (3 + 3 = 6) are the most
    s1 = load_specials("assumed").bonus_ids.index("S1")
    for bonus_counts, n, score in ((False, 6, 9), (True, 3, 6)):
        *_, low_n, low_score, nodes, capped = _search(Turn({}, {"blue": 7}), threshold=7, bonus_tile=s1,
                                                      bonus_counts=bonus_counts)
        assert (low_n, low_score) == (n, score), bonus_counts


def _random_position(t, rng, top=7):
    """Random towers (below `top`) and a random 7-disc hand, with no colour over its 20 discs."""
    t.hand[:] = np.bincount(rng.integers(0, 7, 7), minlength=7)
    t.height[:] = rng.integers(0, top, 49)
    for c, fields in enumerate(t.board.colour_fields):
        while t.height[fields].sum() + t.hand[c] > 20:
            f = rng.choice(fields[t.height[fields] > 0])
            t.height[f] -= 1


def test_the_cut_never_loses_the_best_value():
    # random boards and hands, every effect that changes the levels, with and without a bonus tile, levels and
    # squares: the best value with the cut equals the best over every chain (threshold > 0 switches the cut off)
    rng = np.random.default_rng(12)
    for trial in range(300):
        board = (FRONT, BACK)[trial % 2]
        effect = (NONE, HIGH_START, STEP_UP_2, DOWNHILL)[trial % 4]
        t = Turn({}, {}, board, effect=effect)
        _random_position(t, rng)
        bonus, squares = int(rng.integers(-1, 10)), bool(trial % 3 == 0)
        cut = _search(t, squares=squares, bonus_tile=bonus)
        full = _search(t, threshold=1000, squares=squares, bonus_tile=bonus)
        assert cut.value == full.value and cut.nodes <= full.nodes


def _policy(code):
    """A search policy's parameters: margin 2, every target tried (aid_options 100), sacrifice 3."""
    prm = np.zeros(len(POLICIES["climber"].params))  # greedy's parameters, then climber's sacrifice
    prm[[AID_MARGIN, AID_OPTIONS, MAX_NODES, PARAMS.climber.sacrifice]] = 2, 100, 10**6, 3
    return code, prm


def test_greedy_plays_its_build_aid_tile_on_the_best_target_when_it_gains_more_than_the_margin():
    specials = load_specials("assumed")
    ta = tile_arrays(specials)
    b4 = specials.aid_ids.index("B4")
    rng = np.random.default_rng(4)
    played = 0
    for _ in range(60):
        t = Turn({}, {})
        _random_position(t, rng, top=4)
        without = _search(t).value
        a, b = np.empty(MAX_TARGETS, np.int64), np.empty(MAX_TARGETS, np.int64)
        values = []
        for j in range(aid_targets(TAKE_DOWN, t.height, t.bd, a, b)):
            trial = t.height.copy()
            apply_aid(TAKE_DOWN, a[j], -1, trial, np.zeros(7, np.int64), t.bd.colour)
            values.append((best_with(trial, t), a[j]))
        code, prm = _policy(GREEDY)
        play, aid_a, *_ = plan_turn(code, prm, b4, -1, t.height, t.hand, setup(t, ta, False), draws(9),
                                    np.empty(7, np.int64))
        best = max(v for v, _ in values)
        assert play == (best > without + 2)
        if play:
            played += 1
            assert dict((f, v) for v, f in values)[aid_a] == best
    assert played > 5


def setup(t, ta, bonus_counts):
    """A Setup of t's board and the tiles `ta`: threshold 7, counting the bonus if `bonus_counts`."""
    return Setup(t.bd, ta, Rules(7, bonus_counts, 2, 1000))


def best_with(height, t):
    """Greedy's best value on `height` with t's hand."""
    u = Turn({}, {})
    u.height[:] = height
    u.hand[:] = t.hand
    return _search(u).value


def test_the_climber_gives_up_a_point_for_a_tile_only_when_it_holds_none():
    # seven blue discs on an empty front board: the climb is all seven at level 1 (7 points, no tile); six
    # score 6, below the threshold, for a tile: worth it with sacrifice 3, not with sacrifice 0 or a tile held
    specials = load_specials("assumed")
    ta = tile_arrays(specials)
    for bonus_counts in (False, True):  # holding no tile it has no bonus: both readings count its levels
        for sacrifice, bonus_held, placed in ((3, -1, 6), (0, -1, 7), (3, 0, 7)):
            t = Turn({}, {"blue": 7})
            code, prm = _policy(CLIMBER)
            prm[PARAMS.climber.sacrifice] = sacrifice
            *_, plan_n, _, _ = plan_turn(code, prm, -1, bonus_held, t.height, t.hand, setup(t, ta, bonus_counts),
                                         draws(3), np.empty(7, np.int64))
            assert plan_n == placed, (sacrifice, bonus_held, bonus_counts)


# --- whole plays -------------------------------------------------------------------------------------------


def _config(policies, players=4, **options):
    return RunConfig.build(GAME, players=players, policies=policies, plays=60, seed=11, options=options)


@pytest.mark.parametrize("policies, options", [(["random"], {}), (["greedy", "climber", "random", "greedy"],
                                                                   {"side": "back"})])
def test_a_play_gives_the_same_tables_alone_and_in_a_batch(policies, options):
    config = _config(policies, **options)
    batch = GAME.simulate(config, 0, 12, events=True)
    alone = GAME.simulate(config, 9, 10, events=True)
    for name, table in alone.items():
        part = batch[name].filter(np.asarray(batch[name]["play_index"]) == 9)
        assert part.equals(table), name


def test_rounds_are_completed_and_the_bag_is_empty_at_the_end():
    for players in (2, 3, 4):
        out = GAME.run_kernel(_config(["random"], players), 0, 60)
        assert (out.turns % players == 0).all() and (out.end_reason == BAG_EMPTY).all() and (out.bag_left == 0).all()


def test_the_threshold_option_changes_which_turns_earn_a_tile():
    for threshold in (7, 8):
        turns = GAME.simulate(_config(["greedy"], tile_threshold=threshold), 0, 40, events=True)["turns"].to_pandas()
        took = turns["taken"].notna()
        discs = turns["turn_score"] - turns["bonus_points"]
        assert (discs[took] < threshold).all()
        if threshold == 8:
            assert (took & (discs == 7)).any()


def test_the_threshold_counts_option_in_whole_plays():
    # discs (the default): a tile after a turn whose discs scored below 7, the bonus lifting it to 7 or more;
    # total: never after a total of 7 or more
    for counts in ("discs", "total"):
        turns = GAME.simulate(_config(["greedy", "random", "random", "random"], threshold_counts=counts), 0, 60,
                              events=True)["turns"].to_pandas()
        took = turns["taken"].notna()
        discs = turns["turn_score"] - turns["bonus_points"]
        lifted = took & (discs < 7) & (turns["turn_score"] >= 7)
        assert (discs[took] < 7).all()
        if counts == "discs":
            assert lifted.any()
        else:
            assert (turns.loc[took, "turn_score"] < 7).all()


# --- bad data files ----------------------------------------------------------------------------------------


def _write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def test_a_bad_tiles_file_fails_with_one_line_naming_the_entry(tmp_path):
    text = (GAME.package / "tiles" / "fano.toml").read_text()
    bad = _write(tmp_path, "t.toml", text.replace('front = "blue"', 'front = "green"', 1))
    with pytest.raises(SimlibError, match=r"tile 1: front colour 'green'"):
        load_board(bad, "standard", "front")
    bad = _write(tmp_path, "t2.toml", text.replace('front = "yellow"', 'front = "blue"', 1))
    with pytest.raises(SimlibError, match="front sides show 14 blue fields"):
        load_board(bad, "standard", "front")


@pytest.mark.parametrize("edit, message", [
    (("q = 3\nr = -1", "q = 1\nr = -1"), "place 2: overlaps place 1"),
    (("q = 3\nr = -1", "q = 9\nr = -1"), "place 2 does not touch the rest"),
    (("tile = 6", "tile = 5"), "place 7: tile 5 placed twice"),
    (("rotation = 0", "rotation = 6"), "place 1: rotation must be 0..5"),
])
def test_a_bad_layout_file_fails_with_one_line_naming_the_place(tmp_path, edit, message):
    text = (GAME.package / "layouts" / "standard.toml").read_text().replace(*edit, 1)
    with pytest.raises(SimlibError, match=message):
        load_board("fano", _write(tmp_path, "l.toml", text), "front")


def test_a_bad_specials_file_fails_with_one_line_naming_the_entry(tmp_path):
    text = (GAME.package / "specials" / "assumed.toml").read_text()
    with pytest.raises(SimlibError, match='aid 2: effect must be one of'):
        load_specials(_write(tmp_path, "s.toml", text.replace('"step_up_2"', '"fly"')))
    with pytest.raises(SimlibError, match="bonus 1: at_least must be an integer from 1 to 7"):
        load_specials(_write(tmp_path, "s2.toml", text.replace("at_least = 3", "at_least = 9", 1)))
    with pytest.raises(SimlibError, match="specials file"):
        load_specials(str(tmp_path / "missing.toml"))


@pytest.mark.parametrize("name, text, message", [
    ("tiles", 'colours = 5\n', "colours must be blue"),
    ("tiles", 'tile = 5\n', "tile must be a list of \\[\\[tile\\]\\] tables"),
    ("layout", 'place = 3\n', "place must be a list of \\[\\[place\\]\\] tables"),
    ("specials", 'aid = 3\n', "aid must be a list of \\[\\[aid\\]\\] tables"),
    ("specials", None, "bonus 1: points must be an integer from 1 to 50"),
])
def test_a_data_file_of_the_wrong_shape_fails_with_one_line(tmp_path, name, text, message):
    if text is None:
        text = (GAME.package / "specials" / "assumed.toml").read_text().replace("points = 3", "points = 0", 1)
    path = _write(tmp_path, f"{name}.toml", text)
    with pytest.raises(SimlibError, match=message):
        RunConfig.build(GAME, players=4, policies=["random"], plays=1, seed=1, options={name: path})


def test_the_run_id_follows_the_data_files_text(tmp_path):
    text = (GAME.package / "specials" / "assumed.toml").read_text()
    path = tmp_path / "specials.toml"
    path.write_text(text)
    first = RunConfig.build(GAME, players=4, policies=["random"], plays=10, seed=1, options={"specials": str(path)})
    path.write_text(text.replace("points = 6", "points = 40", 1))
    edited = RunConfig.build(GAME, players=4, policies=["random"], plays=10, seed=1, options={"specials": str(path)})
    versions = GAME.rules_versions()
    assert first.run_id(versions) != edited.run_id(versions) and first.options["data_id"] != edited.options["data_id"]
    assert GAME.specials(first).bonus_points.max() == 6 and GAME.specials(edited).bonus_points.max() == 40
    # a run configured once carries its files: it replays the same without them
    path.unlink()
    again = RunConfig.build(GAME, players=4, policies=["random"], plays=10, seed=1, options=edited.options)
    assert again.run_id(versions) == edited.run_id(versions)
