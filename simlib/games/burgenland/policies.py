"""Burgenland's policies: names, kernel codes and parameters; what the scripted ones decide is in decisions.py,
the search's in search.py."""

from ...core.config import PolicyInfo
from ...core.lineup import parameter_index

RANDOM, BUILDER, SAVER, SEARCH = 0, 1, 2, 3

_WEIGHTS = {"w_joker": 1.0, "w_coins": 0.5, "w_swap": 0.5, "w_bonus": 0.8, "coin_scale": 4.0,
            "central_patience": 3.0}
_WEIGHT_DOCS = {
    "w_joker": "value of a joker gained (and the cost of one paid)",
    "w_coins": "value of a coin gained (a coins spot, a well's reward)",
    "w_swap": "value of a swap tile gained",
    "w_bonus": "value of a bonus tile gained",
    "coin_scale": "coins paid are a cost of coins / coin_scale",
    "central_patience": "turns in a row without an affordable small-castle build before it builds in the central "
                        "castle",
}
_WEIGHT_BOUNDS = {"w_joker": (-10.0, 10.0), "w_coins": (-10.0, 10.0), "w_swap": (-10.0, 10.0),
                  "w_bonus": (-10.0, 10.0), "coin_scale": (0.1, 100.0), "central_patience": (0.0, 1000.0)}

POLICIES = {
    p.name: p
    for p in (
        PolicyInfo("random", RANDOM,
                   "Uniform over the legal main actions (drawing, and every build it can pay: piece, castle, spot "
                   "and bonus tile, the central castle included); plays a held swap tile with probability p_swap on "
                   "a uniform pair of positions; never exchanges coins for a joker (the reference).",
                   {"p_swap": 0.5}, {"p_swap": "chance of playing a held swap tile at the start of a turn"},
                   {"p_swap": (0.0, 1.0)}),
        PolicyInfo("builder", BUILDER,
                   "Builds whenever it can: the build with the best value (its rewards by the weights, minus jokers "
                   "and coins paid), the central castle only after central_patience turns without a small-castle "
                   "build; plays a swap tile, or exchanges coins for a joker, when that makes a build affordable.",
                   _WEIGHTS, _WEIGHT_DOCS, _WEIGHT_BOUNDS, integers=frozenset({"central_patience"})),
        PolicyInfo("saver", SAVER,
                   "Draws until it can place its most demanding piece (palas, well, house, wall: the first it holds "
                   "with a free place), then builds it on the best spot; plays a swap tile to bring the two colours "
                   "it holds most of onto a castle where that piece can go; the central castle when the piece has "
                   "no place in a small castle.",
                   {"keep_jokers": 1.0, "central_patience": 0.0},
                   {"keep_jokers": "1: jokers pay only for palases; 0: for any piece",
                    "central_patience": "turns in a row the piece has no small-castle place before it goes to the "
                                        "central castle"},
                   {"keep_jokers": (0.0, 1.0), "central_patience": (0.0, 1000.0)},
                   integers=frozenset({"keep_jokers", "central_patience"})),
        PolicyInfo("search", SEARCH,
                   "Scores each main action it may take (drawing, and every build it can pay), after the free "
                   "actions its base policy would take, by rollouts: the other seats' hands, the face-down pile "
                   "and the bonus tiles it has not seen are dealt again, then every seat plays the base policy for "
                   "`horizon` turns (or to the end), scored by pieces placed; plays the one with the best win share "
                   "(successive halving spends the budget).",
                   {"budget": 64.0, "base": float(BUILDER), "horizon": 24.0},
                   {"budget": "rollouts per turn",
                    "base": f"the rollouts' policy, assumed for the others: {RANDOM} random, {BUILDER} builder, "
                            f"{SAVER} saver",
                    "horizon": "turns (of all seats) a rollout plays before it is scored by pieces placed "
                               "(0: to the end)"},
                   {"budget": (1.0, 65536.0), "base": (0.0, float(SAVER)), "horizon": (0.0, 10000.0)},
                   integers=frozenset({"budget", "base", "horizon"})),
    )
}

PARAMS = parameter_index(POLICIES)  # where the kernels read a parameter: PARAMS.search.budget
