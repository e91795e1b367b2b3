"""7 Steps' policies: names, kernel codes and parameters; what the scripted ones decide is in decisions.py
(the greedy and climber policies' chain search in chains.py), the search policy in search.py."""

from ...core.config import PolicyInfo
from ...core.lineup import parameter_index, shared_position

RANDOM, GREEDY, CLIMBER, SEARCH = 0, 1, 2, 3

_SEARCH = {"aid_margin": 2.0, "aid_options": 8.0, "max_nodes": 10_000.0, "take_first": 0.0, "reach": 0.0}
_SEARCH_DOCS = {
    "aid_margin": "plays its build-aid tile only if the best chain with it beats the best without by more than "
                  "this (the tile is worth 2 points unused)",
    "aid_options": "take_down and move_tower: how many of the legal targets (drawn uniformly) it tries",
    "max_nodes": "chains searched at most per search (the standard board needs at most 7,664)",
    "take_first": "the pile it takes from when it holds no tile: 0 build-aid, 1 victory-point",
    "reach": "throw-back: 0 keeps every disc; r > 0 throws back the discs of each colour with no field within r "
             "steps of a lowest field of its most numerous colour",
}
_SEARCH_BOUNDS = {"aid_margin": (-100.0, 100.0), "aid_options": (1.0, 100.0), "max_nodes": (1.0, 1e7),
                  "take_first": (0.0, 1.0), "reach": (0.0, 12.0)}
# Whole numbers: points, targets, chains, a 0/1 pile and steps (the kernel reads them as integers or compares them
# with integers, so a fraction would play as a whole number under a run id of its own).
_SEARCH_INTEGERS = frozenset(_SEARCH)

POLICIES = {
    p.name: p
    for p in (
        PolicyInfo("random", RANDOM,
                   "Uniform over the legal next placements at every disc, stopping included once one disc is down; "
                   "plays a held tile (and picks its target) uniformly, takes a tile from a uniform pile, throws "
                   "nothing back (the reference)."),
        PolicyInfo("greedy", GREEDY,
                   "Plays this turn's highest-scoring chain (its victory-point tile's points included where met), "
                   "found by an exact search over every legal chain (max_nodes caps it); ties drawn uniformly.",
                   _SEARCH, _SEARCH_DOCS, _SEARCH_BOUNDS, integers=_SEARCH_INTEGERS),
        PolicyInfo("climber", CLIMBER,
                   "Builds towers toward 7: plays the chain with the highest sum of squared levels; holding no tile, "
                   "plays the best chain scoring below the tile threshold instead when it scores at least the "
                   "climb's score minus sacrifice, and takes a tile.",
                   {**_SEARCH, "sacrifice": 3.0},
                   {**_SEARCH_DOCS, "sacrifice": "points it gives up this turn to collect a tile"},
                   {**_SEARCH_BOUNDS, "sacrifice": (0.0, 49.0)}, integers=_SEARCH_INTEGERS | {"sacrifice"}),
        PolicyInfo("search", SEARCH,
                   "Scores turn plans by rollouts and plays the best: the base policy's own plan, the best few "
                   "chains by points with and without its build-aid tile, and the best chain scoring below the "
                   "tile threshold; before each rollout the other seats' hands and held tiles are re-dealt from "
                   "what it has not seen, then every seat plays the base policy (successive halving spends the "
                   "budget).",
                   {"budget": 256.0, "base": float(GREEDY), "horizon": 8.0, "chains": 4.0},
                   {"budget": "rollouts per decision",
                    "base": f"the rollouts' policy: {RANDOM} random, {GREEDY} greedy, {CLIMBER} climber",
                    "horizon": "turns a rollout plays (the planned one included) before it is scored by points, "
                               "held tiles counted (0: to the end)",
                    "chains": "the best chains by points taken as candidates, with and without the build-aid tile"},
                   {"budget": (1.0, 65536.0), "base": (0.0, float(CLIMBER)), "horizon": (0.0, 1000.0),
                    "chains": (1.0, 64.0)}, integers=frozenset({"budget", "base", "horizon", "chains"})),
    )
}

PARAMS = parameter_index(POLICIES)
# Greedy's five parameters, which climber has too, at one position in both: the blocks read them for either policy
# (and for a search's own turn, which plays greedy's defaults).
AID_MARGIN, AID_OPTIONS, MAX_NODES, TAKE_FIRST, REACH = (
    shared_position(POLICIES, name) for name in ("aid_margin", "aid_options", "max_nodes", "take_first", "reach"))
