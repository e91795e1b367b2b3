"""Blocks: the board of one play (terrain and tokens drawn, the robber on the desert), a new game's pieces,
bank and deck, and a settlement placed (the opening's placements in snake order are play.place_opening). The
draws happen in this order, so a play replays alone: the terrain shuffle, the deck shuffle, then the set-up's
choices."""


from ...core.blocks import block
from ...core.rng import below
from .board import DESERT
from .constants import (
    BANK_RATE,
    BOARD_DRAWS,
    DECK_DRAWS,
    DIE_FACES,
    EV_HEX,
    NO_ROUTE_BOUND,
    ROBBER_ROLL,
    SETTLEMENT,
)
from .rules import settle
from .state import begin_draws, log, take
from .unseen import reset_unseen


@block()
def start_play(st, tally, key):
    """A play begins: its key, the set-up's draws, empty tallies."""
    st.key[0] = key
    begin_draws(st, -1)
    tally.received[:] = 0
    tally.by_kind[:] = 0
    tally.exposure[:] = 0
    tally.promised[:] = 0
    tally.lost[:] = 0
    tally.bought[:] = 0
    tally.played[:] = 0
    tally.actions[0] = 0
    tally.rolls[:] = 0


@block()
def deal_board(st, bd, scratch, lg):
    """The board block: drawn terrain shuffled over its hexes, tokens along the spiral skipping the
    desert, the robber on the desert; one `hex` event per land hex; the pips per hex and node. The play's
    first events: nothing of its hands unseen yet (unseen.py)."""
    reset_unseen(lg)
    terrains = scratch.terrains
    terrains[:] = bd.terrain_bag
    for c in range(terrains.shape[0] - 1, 0, -1):
        j = below(take(st, BOARD_DRAWS), c + 1)
        terrains[c], terrains[j] = terrains[j], terrains[c]
    st.hex_terrain[:] = bd.map_terrain
    st.hex_token[:] = bd.map_token
    for k in range(bd.random_hexes.shape[0]):
        st.hex_terrain[bd.random_hexes[k]] = terrains[k]
    t = 0
    for k in range(bd.spiral_hexes.shape[0]):
        h = bd.spiral_hexes[k]
        if st.hex_terrain[h] == DESERT:
            st.hex_token[h] = 0
        elif st.hex_token[h] < 0:
            st.hex_token[h] = bd.spiral_tokens[t]
            t += 1
    st.robber[0] = -1
    for k in range(bd.land_hexes.shape[0]):
        h = bd.land_hexes[k]
        if st.hex_terrain[h] == DESERT and st.robber[0] < 0:
            st.robber[0] = h  # the robber starts on the desert
        log(lg, -1, -1, EV_HEX, h, st.hex_terrain[h], st.hex_token[h])
    for h in range(st.hex_token.shape[0]):
        st.hex_pips[h] = DIE_FACES - abs(ROBBER_ROLL - st.hex_token[h]) if st.hex_token[h] > 0 else 0
    for n in range(bd.node_hexes.shape[0]):
        st.node_pips[n] = 0
        for k in range(3):
            if bd.node_hexes[n, k] >= 0:
                st.node_pips[n] += st.hex_pips[bd.node_hexes[n, k]]


@block()
def new_game(st, rules):
    """Empty board, full bank, every player's pieces in his box, the development deck shuffled."""
    st.node_owner[:] = -1
    st.node_level[:] = 0
    st.edge_owner[:] = -1
    st.edge_kind[:] = 0
    st.edge_turn[:] = -1
    st.hands[:] = 0
    st.bank[:] = rules.bank_size
    st.dev_hand[:] = 0
    st.dev_new[:] = 0
    st.knights[:] = 0
    st.routes[:] = 0
    st.route_stale[:] = True  # unknown until searched (the set-up's roads are not counted as they are placed)
    st.route_low[:] = 0
    st.route_high[:] = NO_ROUTE_BOUND
    st.building_points[:] = 0
    st.rate[:] = BANK_RATE
    st.longest_holder[0] = -1
    st.army_holder[0] = -1
    for p in range(st.left.shape[0]):
        st.left[p, :] = rules.piece_limits
    c = 0
    for card in range(rules.dev_deck.shape[0]):
        for _ in range(rules.dev_deck[card]):
            st.deck[c] = card
            c += 1
    for c in range(st.deck.shape[0] - 1, 0, -1):
        j = below(take(st, DECK_DRAWS), c + 1)
        st.deck[c], st.deck[j] = st.deck[j], st.deck[c]
    st.deck_pos[0] = 0


@block(_nrt=False)
def expose(tally, st, bd, p, n, level, sign):
    """A building of p's at level `level` (1 settlement, 2 city) came onto (sign 1) or left (sign -1)
    node n: its pips times its cards per producing hex beside it, in exposure [player, kind, resource]
    (what one roll is expected to pay it, times 36; the robber and the bank are not asked)."""
    for k in range(3):
        h = bd.node_hexes[n, k]
        if h >= 0 and st.hex_terrain[h] < DESERT:
            tally.exposure[p, level - 1, st.hex_terrain[h]] += sign * level * st.hex_pips[h]


@block(_nrt=False)
def place_settlement(st, tally, bd, p, n):
    """A settlement of p's on node n: the harbour's rates, its point, the dice's promise to it."""
    settle(p, n, st.node_owner, st.node_level, st.left, st.rate, bd.harbour_rate, bd.harbour_resource)
    expose(tally, st, bd, p, n, SETTLEMENT, 1)
    st.building_points[p] += 1
