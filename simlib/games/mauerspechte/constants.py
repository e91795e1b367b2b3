"""Die Mauerspechte's vocabulary and seed numbers, named once (the Catan engine's are in catan/constants.py).

The scenario appends its own action families and event actions after Catan's, so every base block keeps
its numbers."""

from ..catan import constants as base

# Thresholds the leading player's points release a wall section at ("4, 5, 6, 8, 9 oder 10 Siegpunkte"); each
# becomes the chip under that section and, once the lower piece is bought, a hotel chip.
THRESHOLDS = (4, 5, 6, 8, 9, 10)
N_SECTIONS = len(THRESHOLDS)  # six land sections ("die sechs Mauerabschnitte")
N_HOTELS = 6
UPPER, LOWER = 2, 1  # a section's pieces still standing: 2 upper and lower, 1 lower only, 0 none
PIECE_CARDS = (3, 2)  # cards printed on a lower (level 1) and an upper (level 2) piece, index level - 1
# A hotel's cost by its chip: 3 cards with a 4 or 10, 4 with a 5 or 9, 5 with a 6 or 8 ("einen zusätzlichen
# vierten ... fünften"); the class of chip c is CHIP_CLASS[c].
CHIP_CLASS = {4: 0, 10: 0, 5: 1, 9: 1, 6: 2, 8: 2}
HOTEL_YIELD = 2  # "Ein Hotel produziert wie eine Stadt"
WEST, EAST = 0, 1
SIDES = ("west", "east")

# Action families after the roll: Catan's, then the scenario's.
FAMILIES = base.FAMILIES + ("wall_piece", "hotel")
F_WALL_PIECE, F_HOTEL = range(base.N_FAMILIES, len(FAMILIES))
N_FAMILIES = len(FAMILIES)

# The scenario's own draw streams after the engine's (catan/state.py): the harbours' shuffle and the cards a Love
# Parade's winner pays.
HARBOUR_DRAWS, PARADE_DRAWS = base.N_BASE_STREAMS, base.N_BASE_STREAMS + 1

# Special cards beside the board, each worth one point to its single holder.
MAUERSPECHT, RAVER = 0, 1
CARDS = ("bester_mauerspecht", "bester_raver")

# Events: Catan's, then the scenario's (kernel codes index this tuple).
EVENT_ACTIONS = base.EVENT_ACTIONS + ("wall_chip", "wall_piece", "wall_open", "hotel_release", "hotel",
                                      "hotel_produce", "tiergarten", "bid", "pass", "parade", "card", "pay", "harbour")
(EV_WALL_CHIP, EV_WALL_PIECE, EV_WALL_OPEN, EV_HOTEL_RELEASE, EV_HOTEL, EV_HOTEL_PRODUCE, EV_TIERGARTEN, EV_BID,
 EV_PASS, EV_PARADE, EV_CARD, EV_PAY, EV_HARBOUR) = range(len(base.EVENT_ACTIONS), len(EVENT_ACTIONS))
TIERGARTEN_LOWER, TIERGARTEN_MISSING = 0, 1  # why a chip went to the Tiergarten

WON, TURN_LIMIT = base.WON, base.TURN_LIMIT
END_REASONS = base.END_REASONS

# Bound on the rows of the per-play tables (a kernel output has fixed width): every wall piece, every hotel,
# and a row per Love Parade that sold a chip (a limited supply bounds them; an unlimited one has never come near).
MAX_PIECES = 2 * N_SECTIONS
MAX_CHIPS = 64  # rows of the love_parades table a play keeps (vp_chips may not be set higher, Game.validate)
UNLIMITED_CHIPS = 1 << 30  # the supply with vp_chip_supply unlimited ("8 (oder mehr)"): it never runs out
# Columns of a kernel's per-hotel output rows.
HOTEL_COLUMNS = ("owner", "chip", "old_token", "turn", "paid", "yield", "payback_turn", "rolls", "robbed",
                 "short", "field_owner", "field_others", "old_owner", "old_others")
