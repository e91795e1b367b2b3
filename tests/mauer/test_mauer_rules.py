"""Die Mauer's rule text, example by example (seeds/000_aae3786349106505.txt).

Walls are drawn as in the text, left to right: 1-5 wall pieces by crenellations, G gate, T tower.
Each example is resolved by the batch kernel's Bauphase and by the plain reference implementation.
"""

from __future__ import annotations

import numpy as np
import pytest

from simlib.core.lineup import Lineup
from simlib.games.mauer.constants import (
    CASE_NAMES,
    END_NAMES,
    EV_BUILT,
    EV_COLS,
    EV_END,
    EV_GIFT_FROM,
    EV_GIFT_PIECE,
    PLAN_NAMES,
)
from simlib.games.mauer.play import play_spielrunde, resolve_baurunde
from simlib.games.mauer.rules import special_sites
from simlib.games.mauer.state import Events, Setup, State

from support.mauer_reference import PIECES, Wall, resolve

SHORT = {"1": "wall1", "2": "wall2", "3": "wall3", "4": "wall4", "5": "wall5", "G": "gate", "T": "tower",
         "-": "hollow"}
PEN = np.array([1, 2, 3, 4, 6, 10, 15], np.int64)
SETUP = Setup(PEN, 500, 1, 0)
NO_EVENTS = Events(np.zeros((0, EV_COLS), np.int32), 0, -1, np.zeros((0, 0)))


def spielrunde(hands, wall):
    """A Spielrunde's state from its hands and wall: nothing built, no gifts."""
    n = hands.shape[0]
    return State(hands, np.zeros((n, 7), np.int8), wall, np.zeros(n, np.int64), np.zeros(n, np.int64))


def wall_of(drawing: str) -> list[str]:
    return [SHORT[c] for c in drawing.split()]


def bauphase(drawing: str, builder_plan: str, competitor_plans: str, hands=None, seed=0):
    """Resolve one Baurunde with seat 0 as Bauherr and seats 1.. as competitors, in the kernel.

    Returns (case, builds as [(seat, piece, end)], the wall after, the gift as (seat, piece) or None).
    """
    plans_text = [builder_plan] + competitor_plans.split()
    n = len(plans_text)
    plans = np.array([PLAN_NAMES.index(SHORT[p]) for p in plans_text], np.int64)
    if hands is None:  # everybody holds a full kit, and a second copy of what he plans
        hands = np.ones((n, 7), np.int8)
    pieces = wall_of(drawing)
    wall = np.array([len(pieces), PIECES.index(pieces[0]) if pieces else 0,
                     PIECES.index(pieces[-1]) if pieces else 0], np.int64)
    ev = np.full((1, EV_COLS), -1, np.int32)
    st = State(hands, np.zeros((n, 7), np.int8), wall, plans, np.zeros(n, np.int64))
    case = resolve_baurunde(st, 0, np.zeros(n, np.int64), PEN, np.uint64(seed), 0, ev, 0)
    builds = [(s, PIECES[ev[0, EV_BUILT + s]], END_NAMES[ev[0, EV_END + s]]) for s in [0] + list(range(1, n))
              if ev[0, EV_BUILT + s] >= 0]
    after = list(pieces)
    for _, piece, end in builds:
        after.insert(0, piece) if end == "left" else after.append(piece)
    gift = None if ev[0, EV_GIFT_FROM] < 0 else (int(ev[0, EV_GIFT_FROM]), PIECES[ev[0, EV_GIFT_PIECE]])
    # The plain implementation must agree on the case and on who builds.
    ref_case, ref_seats = resolve(0, [SHORT[p] for p in plans_text], Wall(pieces))
    assert ref_case == CASE_NAMES[case]
    if ref_case in ("builder_builds", "builder_outguessed", "competitors_build"):
        assert [s for s, _, _ in builds] == ref_seats
    return CASE_NAMES[case], builds, after, gift


def touching_specials(pieces):
    return any(a in ("gate", "tower") and b in ("gate", "tower") for a, b in zip(pieces, pieces[1:]))


# Beispiel A: Bauherr baut
def test_example_A1_opening_tower_nobody_guessed():
    # Nothing built; Bauherr plans a tower; competitors: four wall pieces and a gate.
    case, builds, after, _ = bauphase("", "T", "1 2 3 4 G")
    assert case == "builder_builds"
    assert builds == [(0, "tower", "start")]
    assert after == ["tower"]


def test_example_A2_three_not_guessed():
    # A tower lies; Bauherr plans a 3; competitors: five wall pieces, none a 3.
    case, builds, after, _ = bauphase("T", "3", "1 2 4 5 1")
    assert case == "builder_builds"
    assert [(s, p) for s, p, _ in builds] == [(0, "wall3")]
    assert after in (["wall3", "tower"], ["tower", "wall3"])


# Beispiel B: Konkurrenten bauen
def test_example_B1_three_competitors_build_wall_pieces():
    # A tower lies; Bauherr plans a 2; five competitors plan wall pieces, three of them the 2.
    case, builds, after, _ = bauphase("T", "2", "2 4 2 1 2")
    assert case == "competitors_build"
    assert [(s, p) for s, p, _ in builds] == [(1, "wall2"), (3, "wall2"), (5, "wall2")]
    assert sorted(after) == ["tower", "wall2", "wall2", "wall2"]


def test_example_B2_two_gates_one_at_each_end():
    # Tower in the middle; Bauherr plans a gate; competitors: two gates, two wall pieces, a tower.
    case, builds, after, _ = bauphase("3 T 2", "G", "G 1 G 4 T")
    assert case == "competitors_build"
    assert [(s, p) for s, p, _ in builds] == [(1, "gate"), (3, "gate")]
    assert after[0] == "gate" and after[-1] == "gate" and not touching_specials(after)


def test_example_B3_one_site_one_competitor():
    # Tower at one end; Bauherr plans a gate; competitors: a gate, two wall pieces, one more, a tower.
    case, builds, after, _ = bauphase("T 2 4", "G", "G 1 2 3 T")
    assert case == "competitors_build"
    assert builds == [(1, "gate", "right")]
    assert after == ["tower", "wall2", "wall4", "gate"]


# Beispiel C: Bauherr baut doch
def test_example_C1_three_gates_two_sites_builder_builds():
    # Tower in the middle; Bauherr plans a gate; competitors: three gates, two wall pieces.
    case, builds, after, _ = bauphase("3 T 2", "G", "G G 1 G 4")
    assert case == "builder_outguessed"
    assert [(s, p) for s, p, _ in builds] == [(0, "gate")]
    assert after.count("gate") == 1 and not touching_specials(after)


def test_example_C2_two_towers_one_site_builder_builds():
    # Gate at one end, tower near the other; Bauherr plans a tower; competitors: two towers,
    # two wall pieces, a gate.
    case, builds, after, _ = bauphase("G 2 T 3", "T", "T 1 T 4 G")
    assert case == "builder_outguessed"
    assert builds == [(0, "tower", "right")]
    assert after == ["gate", "wall2", "tower", "wall3", "tower"]


# Beispiel D: Niemand baut
def test_example_D_special_without_site_nobody_builds():
    # Gate at one end, tower at the other; Bauherr plans a tower; competitors: five wall pieces.
    case, builds, after, _ = bauphase("G 2 3 T", "T", "1 2 3 4 5")
    assert case == "illegal_plan"
    assert builds == [] and after == wall_of("G 2 3 T")


def test_D_nobody_builds_whatever_was_guessed():
    case, builds, _, _ = bauphase("G 2 3 T", "T", "T T 3 4 5")
    assert case == "illegal_plan" and builds == []


# §2 and the sites of a special piece
@pytest.mark.parametrize("drawing,sites", [("", 1), ("3", 2), ("T", 0), ("T 3", 1), ("3 T 2", 2), ("G 4 T", 0)])
def test_sites_for_a_special_piece(drawing, sites):
    pieces = wall_of(drawing)
    wall = np.array([len(pieces), PIECES.index(pieces[0]) if pieces else 0,
                     PIECES.index(pieces[-1]) if pieces else 0], np.int64)
    assert special_sites(wall) == sites == Wall(pieces).sites()


def test_two_specials_on_a_single_wall_piece_go_to_both_ends():
    case, builds, after, _ = bauphase("3", "T", "T T 1")
    assert case == "competitors_build"
    assert after[0] == "tower" and after[-1] == "tower" and after[1] == "wall3"


def test_wall_pieces_have_unlimited_sites():
    case, builds, after, _ = bauphase("G 2 T", "5", "5 5 5 5 5")
    assert case == "competitors_build" and len(builds) == 5 and len(after) == 8


# Hohle Hand
def test_hollow_case_1_only_builder_hollow_builds_a_legal_piece_of_his_choice():
    hands = np.zeros((4, 7), np.int8)
    hands[0, PIECES.index("tower")] = 1   # no site for the tower
    hands[0, PIECES.index("wall4")] = 1
    hands[1:, :] = 1
    case, builds, after, _ = bauphase("G 1 T", "-", "2 3 G", hands=hands)
    assert case == "hollow_1"
    assert [(s, p) for s, p, _ in builds] == [(0, "wall4")]


def test_hollow_case_1_builds_nothing_without_a_legal_piece():
    hands = np.zeros((4, 7), np.int8)
    hands[0, PIECES.index("tower")] = 1
    hands[1:, :] = 1
    case, builds, after, _ = bauphase("G 1 T", "-", "2 3 G", hands=hands)
    assert case == "hollow_1" and builds == []


def test_hollow_case_2_the_lone_hollow_competitor_gives_a_piece():
    hands = np.ones((4, 7), np.int8)
    case, builds, after, gift = bauphase("3", "-", "2 - G", hands=hands)
    assert case == "hollow_2" and builds == []
    giver, piece = gift
    assert giver == 2
    assert hands[2].sum() == 6 and hands[0].sum() == 8 and hands[0, PIECES.index(piece)] == 2


def test_hollow_case_3_several_hollow_competitors_nothing_happens():
    hands = np.ones((4, 7), np.int8)
    case, builds, after, gift = bauphase("3", "-", "- - G", hands=hands)
    assert case == "hollow_3" and builds == [] and gift is None and hands.sum() == 28


def test_a_competitors_hollow_hand_is_a_wrong_guess_when_the_builder_plans_a_piece():
    case, builds, _, _ = bauphase("3", "4", "- - 1")
    assert case == "builder_builds" and [(s, p) for s, p, _ in builds] == [(0, "wall4")]


# Ende der Spielrunde
def test_round_ends_when_a_gift_empties_the_givers_supply():
    # Seat 1 holds only a wall piece; the builder (heavy policy) holds pieces too. With the
    # hollow policy for seat 1 at rate 1 it always goes hollow; seat 0 builder plans hollow at rate 1.
    from simlib.games.mauer.policies import HOLLOW_TACTICIAN, PARAMS

    n = 3
    hands = np.zeros((n, 7), np.int8)
    hands[0, 0] = 2
    hands[1, 3] = 1
    hands[2, :] = 1
    codes = np.array([HOLLOW_TACTICIAN, HOLLOW_TACTICIAN, 1], np.int64)
    prm = np.zeros((n, len(PARAMS.hollow)))
    prm[0, PARAMS.hollow.builder_hollow] = 1.0     # the builder always plans the hollow hand
    prm[1, PARAMS.hollow.competitor_hollow] = 1.0  # seat 1 always plans the hollow hand
    wall = np.zeros(3, np.int64)
    nbr, reason = play_spielrunde(spielrunde(hands, wall), SETUP, Lineup(codes, prm, prm), np.uint64(7), NO_EVENTS)
    assert (nbr, reason) == (1, 0)  # one Baurunde (hollow case 2), ended by the emptied supply
    assert hands[1].sum() == 0 and hands[0, 3] == 1


def test_deadlock_ends_the_round():
    # Nobody holds a wall piece and no special can be built: the text's rules never end this.
    # Everybody holds only a gate and a tower: the first special built closes both ends.
    n = 3
    hands = np.zeros((n, 7), np.int8)
    hands[:, 5] = 1
    hands[:, 6] = 1
    wall = np.zeros(3, np.int64)
    seats = Lineup(np.zeros(n, np.int64), np.zeros((n, 5)), np.zeros((n, 5)))
    nbr, reason = play_spielrunde(spielrunde(hands, wall), SETUP, seats, np.uint64(7), NO_EVENTS)
    assert reason == 1  # DEADLOCK
    assert wall[0] == 1 and hands.sum() == 5


def test_scoring_key():
    from simlib.games.mauer import GAME
    p = GAME.parameters()
    assert [p[f"penalty_{k}"].default for k in ("wall_1", "wall_2", "wall_3", "wall_4", "wall_5", "gate", "tower")] \
        == [1, 2, 3, 4, 6, 10, 15]
    assert all(p[f"penalty_{k}"].provenance == "seed" for k in ("wall_1", "gate", "tower"))
