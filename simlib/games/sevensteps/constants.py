"""7 Steps' fixed numbers and codes (a change here is a new rules version)."""

COLOURS = ("blue", "yellow", "black", "red", "white", "orange", "purple")
N_COLOURS = 7
N_TILES = 7            # board tiles, 7 fields each
N_FIELDS = 49
DISCS_PER_COLOUR = 20  # 140 discs in the bag
HAND = 7               # discs held after refilling, and the most placed in a turn
TOP_LEVEL = 7          # a tower reaching this level collapses
# Axial directions (pointy-top hexes): E, NE, NW, W, SW, SE; a tile's printed field i (1..6) lies in
# direction i - 1 from its centre (before rotation).
DIRECTIONS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
SIDES = ("front", "back")
FIRST_DISC = ("colour", "tile")
THRESHOLD_COUNTS = ("discs", "total")  # what the tile threshold compares (option threshold_counts)

# Build-aid effects and victory-point measures (specials/assumed.toml names them; codes are the kernel's).
HIGH_START, STEP_UP_2, DOWNHILL, TAKE_DOWN, MOVE_TOWER = range(5)
AID_EFFECTS = ("high_start", "step_up_2", "downhill", "take_down", "move_tower")
ONE_COLOUR, N_COLOURS_USED, LEVEL, LINE, STEPS_UP = range(5)
BONUS_MEASURES = ("one_colour", "colours", "level", "line", "steps_up")
AID, BONUS = 0, 1  # the two tile piles
TILE_KINDS = ("aid", "bonus")

# How a play ended.
BAG_EMPTY, TURN_LIMIT = 0, 1
END_REASONS = ("bag_empty", "turn_limit")

# The event buffer: one row per disc placed (ROW_DISC) and one per turn (ROW_TURN), split into the
# `events` and `turns` tables. Columns shared by both kinds first.
ROW_DISC, ROW_TURN = 0, 1
(EV_KIND, EV_PLAY, EV_TURN, EV_SEAT, EV_SCORE,
 EV_DISC, EV_FIELD, EV_COLOUR, EV_LEVEL, EV_COLLAPSES,  # a disc row
 EV_AID, EV_AID_FIELD, EV_AID_TARGET, EV_BONUS, EV_BONUS_POINTS, EV_TAKEN, EV_TAKEN_TILE, EV_PLACED,
 EV_BAG_LEFT) = range(19)  # a turn row (EV_TAKEN: the pile, EV_TAKEN_TILE: which tile of it)
EV_HAND = 19                     # a turn row: the hand before the turn, 7 colour counts
EV_THROWN = EV_HAND + N_COLOURS  # discs thrown back, per colour
EV_DRAWN = EV_THROWN + N_COLOURS  # discs drawn in the refill, per colour
EV_COLS = EV_DRAWN + N_COLOURS

# The per-seat outputs, rows of State.seat_out and of the kernel's seats output in this order (the tables read them
# by name).
SEAT_COLUMNS = ("score", "tile_points", "bonus_points", "discs", "passes", "aids_taken", "bonuses_taken",
                "aids_played", "bonuses_played", "aid_left", "bonus_left", "thrown", "capped")
(SCORE, TILE_POINTS, BONUS_POINTS, DISCS, PASSES, AIDS_TAKEN, BONUSES_TAKEN, AIDS_PLAYED, BONUSES_PLAYED, AID_LEFT,
 BONUS_LEFT, THROWN, CAPPED) = range(len(SEAT_COLUMNS))
