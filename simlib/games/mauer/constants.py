"""Die Mauer's vocabulary as plain Python: pieces, ends, cases, end reasons, the event matrix layout.

Kept free of Numba so that reading the lake (schemas, reports, SQL) never loads the compiler.
"""

PIECES = ("wall1", "wall2", "wall3", "wall4", "wall5", "gate", "tower")
PLAN_NAMES = PIECES + ("hollow",)
N_TYPES = 7
GATE, TOWER, HOLLOW = 5, 6, 7
NONE = -1

# Where a piece went: the first piece starts the wall, later ones go on the left or right end.
END_START, END_LEFT, END_RIGHT = 0, 1, 2
END_NAMES = ("start", "left", "right")

# How a Baurunde resolved (Bauphase and Hohle Hand of the rule text).
BUILDER_BUILDS = 0        # nobody guessed the builder's plan (Beispiel A)
COMPETITORS_BUILD = 1     # 1 <= k <= sites competitors guessed it (Beispiel B)
BUILDER_OUTGUESSED = 2    # more competitors guessed a special than it has sites: builder builds (Beispiel C)
ILLEGAL_PLAN = 3          # the builder's special piece has no site: nobody builds (Beispiel D)
HOLLOW_1 = 4              # only the builder hollow: he builds a legal piece of his choice
HOLLOW_2 = 5              # builder and exactly one competitor hollow: that competitor gives a gift
HOLLOW_3 = 6              # builder and several competitors hollow: nothing happens
CASE_NAMES = ("builder_builds", "competitors_build", "builder_outguessed", "illegal_plan",
              "hollow_1", "hollow_2", "hollow_3")

# Why a Spielrunde ended.
EMPTIED = 0               # a player's supply became empty (the rule text's only end)
DEADLOCK = 1              # both ends special and nobody holds a wall piece: nothing can ever be built
BAURUNDE_LIMIT = 2        # the max_baurunden safety limit (policies that never build)
END_REASON_NAMES = ("emptied", "deadlock", "baurunde_limit")
ONGOING = -1              # not ended (a search seat is to plan, or a rollout's horizon)


# How the next Spielrunde's first Bauherr is chosen (parameter `start`).
START_CONTINUE, START_ROTATE, START_FIXED = 0, 1, 2
START_MODES = ("continue", "rotate", "fixed")

# Columns of the kernel's event matrix (one row per Baurunde), then plan, built piece and end per seat.
MAX_PLAYERS = 6
EV_PLAY, EV_BR, EV_BUILDER, EV_LEN, EV_LEFT, EV_RIGHT, EV_CASE, EV_GIFT_FROM, EV_GIFT_PIECE = range(9)
EV_PLAN = 9
EV_BUILT = EV_PLAN + MAX_PLAYERS
EV_END = EV_BUILT + MAX_PLAYERS
EV_COLS = EV_END + MAX_PLAYERS
