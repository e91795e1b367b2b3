"""Mauerbruch's policies: names, kernel codes and parameters; scripted decisions are in decisions.py, the
search's in search.py."""

from ...core.config import PolicyInfo
from ...core.lineup import parameter_index, shared_position

RANDOM, GREEDY, CAUTIOUS, SEARCH = 0, 1, 2, 3

_EPSILON = "probability of taking a uniformly random pair instead (real players overlook pairs)"

POLICIES = {
    p.name: p
    for p in (
        PolicyInfo("random", RANDOM,
                   "Uniform over the available pairs at each take; swaps a Wunschkarte when that creates a pair "
                   "(uniform among such swaps); uniform neighbour stack (the reference)."),
        PolicyInfo("greedy", GREEDY,
                   "Chains doubles: takes a double pair whenever there is one (each double earns another take), "
                   "swaps a Wunschkarte for a double; takes the larger neighbour stack.",
                   {"epsilon": 0.05}, {"epsilon": _EPSILON}, {"epsilon": (0.0, 1.0)}),
        PolicyInfo("cautious", CAUTIOUS,
                   "Looks one turn ahead: breaks the wall when that leaves it ahead, never leaves a one-card stack "
                   "to the next player after a single pair, prefers doubles; takes the larger neighbour stack.",
                   {"epsilon": 0.05, "break_margin": 0.0},
                   {"epsilon": _EPSILON,
                    "break_margin": "cards it wants to be ahead of every other pile by after breaking the wall"},
                   {"epsilon": (0.0, 1.0), "break_margin": (-109.0, 109.0)}, integers=frozenset({"break_margin"})),
        PolicyInfo("search", SEARCH,
                   "Scores every take (a pair, or a Wunschkarte swap and a pair) by rollouts: the cards under the "
                   "tops re-shuffled (it has not seen them), then every seat plays the base policy; plays the take "
                   "with the best win share (successive halving spends the budget).",
                   {"budget": 64.0, "base": float(CAUTIOUS), "horizon": 0.0},
                   {"budget": "rollouts per decision",
                    "base": f"the rollouts' policy: {RANDOM} random, {GREEDY} greedy, {CAUTIOUS} cautious",
                    "horizon": "takes a rollout plays before it is scored by cards (0: to the end)"},
                   {"budget": (1.0, 65536.0), "base": (0.0, float(CAUTIOUS)), "horizon": (0.0, 1000.0)},
                   integers=frozenset({"budget", "base", "horizon"})),
    )
}


PARAMS = parameter_index(POLICIES)  # where the kernels read a parameter: PARAMS.cautious.break_margin
EPSILON = shared_position(POLICIES, "epsilon")  # read for greedy and cautious alike
