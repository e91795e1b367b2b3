"""What the policies choose, apart from the rules: whether and how to play a build-aid tile, which disc
next, whether to play a victory-point tile, which pile to take from, which discs to throw back.
Every random choice is a keyed draw of the play, from the stream of its purpose (state.Draws: the turn's draws
counted per stream)."""

import numpy as np

from ...core.blocks import block
from ...core.rng import below
from .chains import Query, best_chain
from .constants import AID, BONUS, HAND, MOVE_TOWER, N_COLOURS, N_FIELDS, TAKE_DOWN
from .policies import AID_MARGIN, AID_OPTIONS, CLIMBER, MAX_NODES, PARAMS, RANDOM, REACH, TAKE_FIRST
from .rules import first_placements, move_tower_targets, take_down_targets
from .state import AID_DRAWS, CHOICE_DRAWS, STEP_DRAWS, take


@block(_nrt=False)
def pick(draws, stream, n):
    """A uniform choice among n, one draw of the stream."""
    return below(take(draws, stream), n)


# A bound on a build-aid tile's targets: move_tower pairs a tower with each empty field of its colour.
MAX_TARGETS = N_FIELDS * 7


@block(_nrt=False)
def aid_targets(effect, height, bd, out_a, out_b):
    """The legal targets of a build-aid tile: (field, field) pairs; one pair (-1, -1) for the tiles that
    change only the placing rules; none when the tile has nothing to act on."""
    if effect == TAKE_DOWN:
        n = take_down_targets(height, out_a)
        out_b[:n] = -1
        return n
    if effect == MOVE_TOWER:
        return move_tower_targets(height, bd.colour, bd.colour_fields, out_a, out_b)
    out_a[0], out_b[0] = -1, -1
    return 1


@block(_nrt=False)
def apply_aid(effect, a, b, height, bag, colour):
    """A build-aid tile's board edit: take_down returns tower a's top disc to the bag; move_tower moves
    tower a onto the empty field b."""
    if effect == TAKE_DOWN:
        height[a] -= 1
        bag[colour[a]] += 1
    elif effect == MOVE_TOWER:
        height[b] = height[a]
        height[a] = 0


@block(_nrt=True)
def plan_turn(code, prm, aid_tile, bonus_tile, height, hand, setup, draws, chain):
    """A chain-searching policy's turn: whether to play its build-aid tile (and on what), and the chain to place
    (into `chain`).

    The aid is played on the best of the targets tried when that beats the best chain without it by more
    than aid_margin. A climber holding no tile plays the best chain that earns a tile (its points below the
    rules' tile threshold as they count them: bonus_counts, option threshold_counts) instead of its best chain
    when that costs at most `sacrifice` points. Holding no tile, it has no bonus: its best chain's score is
    then its levels, which both readings compare.
    Returns (play the aid?, target a, target b, chain length, the most nodes one search visited, capped
    searches)."""
    bd, ta, threshold = setup.board, setup.tiles, setup.rules.tile_threshold
    climber_low = code == CLIMBER and aid_tile < 0 and bonus_tile < 0 and threshold > 0
    squares, bonus_counts, max_nodes = code == CLIMBER, setup.rules.bonus_counts, np.int64(prm[MAX_NODES])
    found = best_chain(height, hand, bd, ta, Query(HAND, -1, bonus_tile, squares, threshold if climber_low else 0,
                                                   bonus_counts, max_nodes), draws)
    plan, plan_n = found.fields, found.length
    nodes, capped = found.nodes, np.int64(found.capped)
    if climber_low and found.score >= threshold and found.low_length > 0 \
            and found.low_score >= found.score - prm[PARAMS.climber.sacrifice]:
        plan, plan_n = found.low_fields, found.low_length
    play, play_a, play_b = False, -1, -1
    if aid_tile >= 0:
        effect = ta.aid_effect[aid_tile]
        targets_a = np.empty(MAX_TARGETS, np.int64)
        targets_b = np.empty(MAX_TARGETS, np.int64)
        n = aid_targets(effect, height, bd, targets_a, targets_b)
        best = found.value + prm[AID_MARGIN]  # what the aid must beat
        for t in range(min(n, np.int64(prm[AID_OPTIONS]))):  # a uniform sample: a partial Fisher-Yates
            j = t + pick(draws, AID_DRAWS, n - t)
            targets_a[t], targets_a[j] = targets_a[j], targets_a[t]
            targets_b[t], targets_b[j] = targets_b[j], targets_b[t]
            a, b = targets_a[t], targets_b[t]
            trial = height.copy()
            apply_aid(effect, a, b, trial, np.zeros(N_COLOURS, np.int64), bd.colour)
            with_aid = best_chain(trial, hand, bd, ta, Query(ta.aid_max_discs[aid_tile], effect, bonus_tile, squares, 0,
                                                             bonus_counts, max_nodes), draws)
            nodes = max(nodes, with_aid.nodes)
            capped += with_aid.capped
            if with_aid.value > best and with_aid.length > 0:
                play, play_a, play_b = True, a, b
                plan, plan_n, best = with_aid.fields, with_aid.length, with_aid.value
    for i in range(plan_n):
        chain[i] = plan[i]
    return play, play_a, play_b, plan_n, nodes, capped


@block(_nrt=True)
def random_aid(aid_tile, height, bd, ta, draws):
    """The random policy: plays a playable build-aid tile with probability 1/2, on a uniform target."""
    targets_a = np.empty(MAX_TARGETS, np.int64)
    targets_b = np.empty(MAX_TARGETS, np.int64)
    n = aid_targets(ta.aid_effect[aid_tile], height, bd, targets_a, targets_b)
    if n == 0 or pick(draws, AID_DRAWS, 2) == 0:
        return False, -1, -1
    j = pick(draws, AID_DRAWS, n)
    return True, targets_a[j], targets_b[j]


@block(_nrt=False)
def random_step(n_legal, placed, draws):
    """The random policy's next disc: uniform over the legal placements, and stopping once one disc is
    down (returns n_legal to stop)."""
    return pick(draws, STEP_DRAWS, n_legal + (placed > 0))


@block(_nrt=False)
def play_bonus(code, draws):
    """Play a victory-point tile whose condition is met? Search policies always (it pays more than the 2
    points it keeps unused); random uniformly."""
    return code != RANDOM or pick(draws, CHOICE_DRAWS, 2) == 1


@block(_nrt=False)
def choose_pile(code, prm, can_aid, can_bonus, draws):
    """Which pile to take a tile from (AID, BONUS; -1: none can be taken)."""
    if can_aid and can_bonus:
        if code == RANDOM:
            return pick(draws, CHOICE_DRAWS, 2)
        return BONUS if prm[TAKE_FIRST] >= 0.5 else AID
    if can_aid:
        return AID
    if can_bonus:
        return BONUS
    return -1


@block(_nrt=True)
def throw_back(code, prm, hand, height, bd, thrown):
    """The discs to throw back before refilling (into `thrown`, per colour): with reach r > 0, every disc of a
    colour with no field within r steps of a lowest field of the hand's most numerous colour."""
    thrown[:] = 0
    if code == RANDOM or prm[REACH] <= 0:
        return
    main = np.argmax(hand)
    if hand[main] == 0:
        return
    only = np.zeros(N_COLOURS, np.int64)
    only[main] = hand[main]
    starts = np.empty(N_FIELDS, np.int64)
    n = first_placements(height, bd, only, -1, starts)
    for c in range(N_COLOURS):
        if c == main or hand[c] == 0:
            continue
        near = False
        for g in bd.colour_fields[c]:
            for i in range(n):
                near |= bd.distance[starts[i], g] <= prm[REACH]
        if not near:
            thrown[c] = hand[c]
