"""Catan's policies: names, kernel codes and parameters; the scripted decisions are in decisions.py, the search's
in search.py."""

import numpy as np

from ...core.config import PolicyInfo
from ...core.lineup import parameter_index
from . import constants as C

RANDOM, WEIGHTED, BUILDER, SEARCH = 0, 1, 2, 3
# The weight groups of a weighted policy (its parameters, in this order), and which group each action family
# of the rules (constants.FAMILIES) falls in; a scenario's own families fall in "other" unless it says more.
WEIGHT_GROUPS = ("end_turn", "road", "ship", "settlement", "city", "dev_card", "other")
WEIGHT_OF_FAMILY = {"end_turn": "end_turn", "road": "road", "ship": "ship", "settlement": "settlement",
                    "city": "city", "buy_dev": "dev_card"}


def family_weights(families=C.FAMILIES) -> np.ndarray:
    """For each action family, the weight group (column of a weighted policy's parameters) that weighs it."""
    return np.array([WEIGHT_GROUPS.index(WEIGHT_OF_FAMILY.get(f, "other")) for f in families], np.int64)

POLICIES = {
    "random": PolicyInfo("random", RANDOM,
                         "Uniform over all legal actions at every decision, ending the turn included (the usual "
                         "reference bot); uniform placements, discards, robber hexes and victims."),
    "weighted": PolicyInfo(
        "weighted", WEIGHTED,
        "Random with weights by action type: each legal action weighs its family's weight (build city >> "
        "settlement >> development card >> road ...), the common second baseline.",
        {"end_turn": 1.0, "road": 1.0, "ship": 1.0, "settlement": 1000.0, "city": 10000.0, "dev_card": 100.0,
         "other": 1.0},
        {f: f"weight of each {f.replace('_', ' ')} action" for f in WEIGHT_GROUPS[:-1]}
        | {"other": "weight of every other action (trades, playing cards, moving a ship)"},
        {f: (0.0, 1e9) for f in WEIGHT_GROUPS}),
    "builder": PolicyInfo(
        "builder", BUILDER,
        "A production-aware heuristic: opening placement by pips and resource variety; builds city > "
        "settlement > development card > road toward its best free site; bank or harbour trades that complete "
        "a build; robber on the leader's best hex.",
        {"variety": 2.0}, {"variety": "opening placement: points per distinct resource, added to the pips"},
        {"variety": (0.0, 100.0)}),
    "search": PolicyInfo(
        "search", SEARCH,
        "Scores each legal action after its roll by rollouts: what it has not seen dealt again (the others' "
        "development cards and the deck, the cards robbed between two others), then every seat plays the base "
        "policy for `horizon` turns, scored by victory points and production; takes the action with the best win "
        "share (successive halving spends the budget). Its other choices are the base policy's.",
        {"budget": 32.0, "base": float(BUILDER), "horizon": 8.0},
        {"budget": "rollouts per decision",
         "base": f"the rollouts' policy: {RANDOM} random, {WEIGHTED} weighted, {BUILDER} builder",
         "horizon": "turns a rollout plays after the decision's turn before it is scored (0: to the end)"},
        {"budget": (1.0, 65536.0), "base": (0.0, float(BUILDER)), "horizon": (0.0, 10000.0)},
        integers=frozenset({"budget", "base", "horizon"})),
}
PARAMS = parameter_index(POLICIES)  # where the kernels read a parameter: PARAMS.search.budget
