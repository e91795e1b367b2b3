"""Catan's vocabulary as plain Python (no Numba)."""

RESOURCES = ("lumber", "brick", "wool", "grain", "ore")
LUMBER, BRICK, WOOL, GRAIN, ORE = range(5)

# Costs per resource (lumber, brick, wool, grain, ore): published base game and Seafarers facts.
COST_ROAD = (1, 1, 0, 0, 0)
COST_SETTLEMENT = (1, 1, 1, 1, 0)
COST_CITY = (0, 0, 0, 2, 3)
COST_DEV = (0, 0, 1, 1, 1)
COST_SHIP = (1, 0, 1, 0, 0)

DEV_CARDS = ("knight", "victory_point", "road_building", "year_of_plenty", "monopoly")
KNIGHT, VICTORY_POINT, ROAD_BUILDING, YEAR_OF_PLENTY, MONOPOLY = range(5)
DEV_DECK = (14, 5, 2, 2, 2)

# Land terrain counts of the standard board, in board.TERRAINS order (forest .. desert).
STANDARD_TERRAINS = (4, 3, 4, 4, 3, 1)
# Number tokens A-R in the order they are laid along the spiral (skipping the desert).
SPIRAL_TOKENS = (5, 2, 6, 3, 8, 10, 9, 12, 11, 4, 8, 10, 9, 4, 5, 6, 3, 11)

PIECES = {"settlements": 5, "cities": 4, "roads": 15, "ships": 15}
BANK_PER_RESOURCE = 19

WON, TURN_LIMIT = 0, 1
END_REASONS = ("won", "turn_limit")

# Events: one row per thing that happened, in order (kernel codes index this tuple).
EVENT_ACTIONS = ("hex", "setup_settlement", "setup_road", "roll", "discard", "robber", "steal", "knight", "road",
                 "ship", "settlement", "city", "buy_dev", "road_building", "year_of_plenty", "monopoly", "trade",
                 "move_ship", "end_turn", "produce")
(EV_HEX, EV_SETUP_SETTLEMENT, EV_SETUP_ROAD, EV_ROLL, EV_DISCARD, EV_ROBBER, EV_STEAL, EV_KNIGHT, EV_ROAD, EV_SHIP,
 EV_SETTLEMENT, EV_CITY, EV_BUY_DEV, EV_ROAD_BUILDING, EV_YEAR_OF_PLENTY, EV_MONOPOLY, EV_TRADE, EV_MOVE_SHIP,
 EV_END_TURN, EV_PRODUCE) = range(len(EVENT_ACTIONS))
EV_COLS = 6  # turn, seat, action, a, b, c
