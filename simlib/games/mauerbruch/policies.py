"""Mauerbruch's scripted policies: names, kernel codes and parameters; decisions are in decisions.py."""

from ...core.game import PolicyInfo

RANDOM, GREEDY, CAUTIOUS = 0, 1, 2
MAX_PARAMS = 2

_EPSILON = "probability of taking a uniformly random pair instead (real players overlook pairs)"

# Parameter order matters: the kernel reads epsilon at 0 and break_margin at 1.
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
                   {"epsilon": (0.0, 1.0), "break_margin": (-109.0, 109.0)}),
    )
}

