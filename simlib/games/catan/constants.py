"""Catan's vocabulary and published numbers, named once (plain Python; the compiled blocks read them as
constants). The numbers a scenario may change (win threshold, piece limits, bank, costs, deck) reach the
rules as inputs (state.Rules); these are their published defaults."""

RESOURCES = ("lumber", "brick", "wool", "grain", "ore")
LUMBER, BRICK, WOOL, GRAIN, ORE = range(5)
N_RES = len(RESOURCES)

# Costs per resource (lumber, brick, wool, grain, ore): published base game and Seafarers facts. The rows of
# Rules.costs are in COST_ROWS order.
COST_ROAD = (1, 1, 0, 0, 0)
COST_SETTLEMENT = (1, 1, 1, 1, 0)
COST_CITY = (0, 0, 0, 2, 3)
COST_DEV = (0, 0, 1, 1, 1)
COST_SHIP = (1, 0, 1, 0, 0)
COST_ROWS = (COST_ROAD, COST_SETTLEMENT, COST_CITY, COST_DEV, COST_SHIP)
PAY_ROAD, PAY_SETTLEMENT, PAY_CITY, PAY_DEV, PAY_SHIP = range(len(COST_ROWS))

DEV_CARDS = ("knight", "victory_point", "road_building", "year_of_plenty", "monopoly")
N_DEV = len(DEV_CARDS)
KNIGHT, VICTORY_POINT, ROAD_BUILDING, YEAR_OF_PLENTY, MONOPOLY = range(5)
DEV_DECK = (14, 5, 2, 2, 2)

# Land terrain counts of the standard board, in board.TERRAINS order (forest .. desert).
STANDARD_TERRAINS = (4, 3, 4, 4, 3, 1)
# Number tokens A-R in the order they are laid along the spiral (skipping the desert).
SPIRAL_TOKENS = (5, 2, 6, 3, 8, 10, 9, 12, 11, 4, 8, 10, 9, 4, 5, 6, 3, 11)

# What stands on the board: a route piece's kind (edge_kind) and a building's level (node_level, also the
# cards it produces and the points it is worth).
ROAD, SHIP = 1, 2
SETTLEMENT, CITY = 1, 2

# Pieces per player, in the order of Rules.piece_limits and State.left.
PIECES = {"settlements": 5, "cities": 4, "roads": 15, "ships": 15}
SETTLEMENTS, CITIES, ROADS, SHIPS = range(len(PIECES))
BANK_PER_RESOURCE = 19
WIN_POINTS = 10

# Published thresholds that are not inputs.
LONGEST_ROUTE_MIN = 5   # pieces in a route before the longest-route card is given
NO_ROUTE_BOUND = 64     # State.route_high when only the pieces bound a route (check_rules: at most 63)
ROUTE_WORK_ROWS = 13    # rows of rules.longest_route_in's work space
LARGEST_ARMY_MIN = 3    # knights played before the largest-army card is given
CARD_POINTS = 2         # each of those two cards is worth 2 points
DISCARD_ABOVE = 7       # on a 7, a hand of more cards loses half, rounded down
BANK_RATE = 4           # cards given to the bank for one, without a harbour
ROBBED, DISCARDED = 0, 1  # how a card was lost (Tally.lost's second index)

# Two six-sided dice: a 7 moves the robber; ways(t) = DIE_FACES - |ROBBER_ROLL - t| of DICE_OUTCOMES.
DIE_FACES = 6
ROBBER_ROLL = 7
DICE_OUTCOMES = DIE_FACES * DIE_FACES
N_SUMS = 2 * DIE_FACES + 1  # sums 0 .. 12 (0 and 1 never come)

# Draw streams. A draw is keyed by (turn, stream, its rank among the stream's draws in that turn), not by a running
# count: two variants of a play roll the same dice and draw the same steals turn by turn after their first different
# choice, so their difference stays paired (issue 25). A scenario numbers its own streams from N_BASE_STREAMS.
BOARD_DRAWS, DECK_DRAWS, DICE_DRAWS, STEAL_DRAWS, CHOICE_DRAWS = range(5)
N_BASE_STREAMS = 5
N_STREAMS = 8

WON, TURN_LIMIT = 0, 1
END_REASONS = ("won", "turn_limit")

# The action families after the roll, in the order their actions are listed at a decision (a flat action
# index k falls in the family where the running count passes k). A scenario appends its own families.
FAMILIES = ("end_turn", "road", "ship", "settlement", "city", "buy_dev", "knight", "road_building",
            "year_of_plenty", "monopoly", "trade", "move_ship")
(F_END_TURN, F_ROAD, F_SHIP, F_SETTLEMENT, F_CITY, F_BUY_DEV, F_KNIGHT, F_ROAD_BUILDING, F_YEAR_OF_PLENTY,
 F_MONOPOLY, F_TRADE, F_MOVE_SHIP) = range(len(FAMILIES))
N_FAMILIES = len(FAMILIES)

# Events: one row per thing that happened, in order (kernel codes index this tuple).
EVENT_ACTIONS = ("hex", "setup_settlement", "setup_road", "roll", "discard", "robber", "steal", "knight", "road",
                 "ship", "settlement", "city", "buy_dev", "road_building", "year_of_plenty", "monopoly", "trade",
                 "move_ship", "end_turn", "produce")
(EV_HEX, EV_SETUP_SETTLEMENT, EV_SETUP_ROAD, EV_ROLL, EV_DISCARD, EV_ROBBER, EV_STEAL, EV_KNIGHT, EV_ROAD, EV_SHIP,
 EV_SETTLEMENT, EV_CITY, EV_BUY_DEV, EV_ROAD_BUILDING, EV_YEAR_OF_PLENTY, EV_MONOPOLY, EV_TRADE, EV_MOVE_SHIP,
 EV_END_TURN, EV_PRODUCE) = range(len(EVENT_ACTIONS))
EV_COLS = 6  # turn, seat, action, a, b, c
