"""Die Mauerspechte's scripted policies: names, kernel codes and parameters; the decisions are in decisions.py
(the scenario's own choices) and the Catan engine's decisions.py (the base game's, by the base code)."""

import numpy as np

from ...core.config import PolicyInfo
from ...core.lineup import parameter_index, shared_position
from ..catan import policies as base
from .constants import FAMILIES

RANDOM, WEIGHTED, BUILDER, SPECHT, HOTELIER, SEARCH = 0, 1, 2, 3, 4, 5
# The weighted policy's weight groups: the engine's, then the scenario's families; then its top bid.
WEIGHT_GROUPS = base.WEIGHT_GROUPS + ("wall_piece", "hotel")


def family_weights() -> np.ndarray:
    """For each action family (constants.FAMILIES), the weight group that weighs it."""
    own = {"wall_piece": "wall_piece", "hotel": "hotel"}
    return np.array([WEIGHT_GROUPS.index(own.get(f) or base.WEIGHT_OF_FAMILY.get(f, "other")) for f in FAMILIES],
                    np.int64)


_BID = {"max_bid": "Love Parade: the most cards it bids for a chip (raising by one while the bid is below it)"}
_VARIETY = {"variety": "opening placement: points per distinct resource, added to the pips"}
_weighted = base.POLICIES["weighted"]
SCRIPTED_OPENINGS = (BUILDER, SPECHT, HOTELIER)  # place their openings by the map alone: on a fixed map, always alike

_CARDS = frozenset({"max_bid"})  # a bid is whole cards

POLICIES = {
    "random": PolicyInfo("random", RANDOM,
                         "Uniform over every legal action at every decision (wall pieces, hotels, bids and passes "
                         "included): the reference bot."),
    "weighted": PolicyInfo(
        "weighted", WEIGHTED,
        "Catan's weighted random policy taught the scenario: each legal action weighs its family's weight, wall "
        "pieces and hotels with their own; bids up to max_bid.",
        {**_weighted.params, "wall_piece": 1000.0, "hotel": 1000.0, "max_bid": 2.0},
        {**_weighted.param_docs, "wall_piece": "weight of each wall-piece purchase",
         "hotel": "weight of each hotel purchase (a hotel and a chip)", **_BID},
        {**_weighted.bounds, "wall_piece": (0.0, 1e9), "hotel": (0.0, 1e9), "max_bid": (0.0, 100.0)},
        integers=_CARDS),
    "builder": PolicyInfo(
        "builder", BUILDER,
        "Catan's builder taught the scenario: city > settlement > wall piece > hotel (where the opponents' buildings "
        "on the field do not outnumber its own; the chip with the most pips) > development card > road toward its "
        "best site, trades that complete one of the base builds; bids up to max_bid.",
        {"variety": 2.0, "max_bid": 2.0}, {**_VARIETY, **_BID}, {"variety": (0.0, 100.0), "max_bid": (0.0, 100.0)},
        integers=_CARDS),
    "specht": PolicyInfo(
        "specht", SPECHT,
        "Goes for the wall: buys a wall piece whenever it can, trades toward the cheapest released piece, puts "
        "threshold chips under the section it can pay soonest; otherwise the builder; bids up to max_bid.",
        {"variety": 2.0, "max_bid": 3.0}, {**_VARIETY, **_BID}, {"variety": (0.0, 100.0), "max_bid": (0.0, 100.0)},
        integers=_CARDS),
    "hotelier": PolicyInfo(
        "hotelier", HOTELIER,
        "Goes for hotels: opens beside hotel fields (hotel_site points per hotel field beside a site, added to the "
        "builder's value), releases and buys hotels only on fields of its own (most of its buildings first, then "
        "the chip of most pips it can pay), trades toward one; otherwise the builder; bids up to max_bid.",
        {"variety": 2.0, "max_bid": 2.0, "hotel_site": 4.0},
        {**_VARIETY, **_BID, "hotel_site": "opening placement: points per hotel field beside a site"},
        {"variety": (0.0, 100.0), "max_bid": (0.0, 100.0), "hotel_site": (0.0, 100.0)}, integers=_CARDS),
    "search": PolicyInfo(
        "search", SEARCH,
        "Catan's search on the scenario's turn: scores each legal action after its roll (wall pieces and hotels "
        "included) by rollouts, what it has not seen dealt again as in Catan, every seat then playing the base "
        "policy for `horizon` turns, scored by the scenario's points and production; its other choices (the "
        "opening, the robber, bids) are the base policy's.",
        {"budget": 32.0, "base": float(SPECHT), "horizon": 8.0},
        {"budget": "rollouts per decision",
         "base": f"the rollouts' policy: {RANDOM} random, {WEIGHTED} weighted, {BUILDER} builder, {SPECHT} specht, "
                 f"{HOTELIER} hotelier",
         "horizon": "turns a rollout plays after the decision's turn before it is scored (0: to the end)"},
        {"budget": (1.0, 65536.0), "base": (0.0, float(HOTELIER)), "horizon": (0.0, 10000.0)},
        integers=frozenset({"budget", "base", "horizon"})),
}
PARAMS = parameter_index(POLICIES)  # where the kernels read a parameter: PARAMS.search.budget
# Positions a kernel line reads for whichever of several policies plays: the opening's variety and the top bid of
# builder, specht and hotelier (the weighted policy's top bid sits after its weights).
VARIETY = shared_position(POLICIES, "variety")
MAX_BID = shared_position({name: POLICIES[name] for name in ("builder", "specht", "hotelier")}, "max_bid")
WEIGHTED_MAX_BID, HOTEL_SITE = PARAMS.weighted.max_bid, PARAMS.hotelier.hotel_site
MAX_PARAMS = max(len(info.params) for info in POLICIES.values())  # a line-up's row width (core/lineup.py)
