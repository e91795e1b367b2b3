"""Burgenland's fixed numbers and codes (a change here is a new rules version)."""

N_COLOURS = 8          # one border stone per colour
N_POSITIONS = 8        # stone positions on the road network
N_CASTLES = 11         # small castles; index 11 is the central castle
CENTRAL = 11
SQUARE_SPOTS = 3       # printed square spots per small castle
MAX_SPOTS = 8          # square spots a small castle can hold with extra spots from bonus tiles
PRICE = 4              # cards a small-castle building costs
MAX_COINS = 3          # a colour card shows 1..MAX_COINS coins (published range)
CARD_TYPES = N_COLOURS * MAX_COINS  # a card type: colour * 3 + coins - 1
WELL_REWARDS = (5, 4, 3, 3, 2, 2, 1, 1)  # coins for the 1st..8th well (seed)

PIECES = ("wall", "house", "palas", "well")
WALL, HOUSE, PALAS, WELL = range(4)
PIECE_TOTALS = (16, 12, 12, 8)  # the box's pieces (published)

# Square spots' bonus symbols (seed), and "none" for an extra spot.
SPOT_KINDS = ("joker", "coins", "swap", "bonus", "none")
SPOT_JOKER, SPOT_COINS, SPOT_SWAP, SPOT_BONUS, SPOT_NONE = range(5)

# Bonus tiles' effects (the data file names them; codes are the kernel's).
EFFECTS = ("extra_spot", "ignore_house_rule", "second_palas", "free_master_builder", "any_well", "swap", "jokers")
EXTRA_SPOT, IGNORE_HOUSE_RULE, SECOND_PALAS, FREE_MASTER, ANY_WELL, SWAP_TILE, JOKERS = range(7)
N_EFFECTS = 7

# Draw streams (rules.take). A draw is keyed by (turn, stream, its rank among the stream's draws in that turn), not by a
# running count: two variants of a play draw the same numbers for the same purpose turn after turn once their choices
# part, so their difference stays paired (issue 25). The set-up (turn -1) shuffles each pile from a stream of its own
# (a longer pile in a data file moves no other); the colour cards (deals, draws, rewards) are one stream; the random
# policy's swap and main action one each (a swap played or not moves no build choice).
STONE_DRAWS, MASTER_DRAWS, WELL_DRAWS, TILE_DRAWS, CARD_DRAWS, SWAP_DRAWS, BUILD_DRAWS = range(7)
N_STREAMS = 7

START_HANDS = ("staggered", "equal")
STAGGERED, EQUAL = range(2)

# How a play ended.
END_REASONS = ("last_piece", "turn_limit", "stalled")
LAST_PIECE, TURN_LIMIT, STALLED = range(3)

# The event buffer: one row per action. DEAL: a seat's starting hand; DRAW and BUILD: the turn's main
# action; SWAP (a swap tile or a swap bonus tile) and EXCHANGE (coins for a joker): free actions before it.
ACTIONS = ("deal", "draw", "build", "swap", "exchange")
DEAL, DRAW, BUILD, SWAP, EXCHANGE = range(5)
(EV_ACTION, EV_PLAY, EV_TURN, EV_SEAT, EV_PIECE, EV_CASTLE, EV_SPOT, EV_TILE, EV_MASTER, EV_WELL_REWARD,
 EV_JOKERS_PAID, EV_WALL_JOKERS, EV_JOKERS_GAINED, EV_SPOT_BONUS, EV_SWAP_GAINED, EV_TILE_GAINED, EV_POS_A,
 EV_POS_B, EV_DECK_LEFT, EV_RESHUFFLES, EV_COLOUR_A, EV_COLOUR_B) = range(22)
PAID_SLOTS = 16   # card codes paid (colour * 3 + coins - 1), -1 unused
GAINED_SLOTS = 8  # card codes gained, in the order drawn
EV_PAID = 22
EV_GAINED = EV_PAID + PAID_SLOTS
EV_COLS = EV_GAINED + GAINED_SLOTS
