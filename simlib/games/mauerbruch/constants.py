"""Mauerbruch's vocabulary as plain Python (no Numba): card kinds, symbols, pair kinds, phases, ends."""

KINDS = ("number", "joker", "ban2", "ban5", "wish")
NUMBER, JOKER, BAN2, BAN5, WISH = range(5)
SYMBOLS = ("circle", "triangle", "square", "star")  # Kreis, Dreieck, Quadrat; the fourth is our name

N_STACKS = 7
NO_PAIR, SINGLE, DOUBLE = 0, 1, 2
PAIR_KINDS = ("none", "single", "double")

# When a pair was taken: removed in the opening (discarded or onto the pile), the opening's single
# pair, or in a turn.
OPENING_DOUBLE, OPENING_SINGLE, TURN = 0, 1, 2
PHASES = ("opening_double", "opening_single", "turn")

BROKEN, BLOCKED = 0, 1
END_REASONS = ("broken", "blocked")  # broken: a stack was emptied; blocked: the player to move had no pair

OPENING_MODES = ("discard", "piles")

# Columns of the kernel's event matrix: one row per pair taken.
(EV_PLAY, EV_TAKE, EV_PHASE, EV_TURN, EV_SEAT, EV_CARD_A, EV_STACK_A, EV_CARD_B, EV_STACK_B, EV_KIND, EV_BAN2,
 EV_BAN5, EV_SWAP_CARD, EV_SWAP_STACK) = range(14)
EV_COLS = 14
