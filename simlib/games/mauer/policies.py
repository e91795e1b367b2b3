"""Die Mauer's policies: the catalogue of names, kernel codes and parameters, chosen per seat. What the
scripted policies decide is compiled in decisions.py, the search's in search.py."""

from ...core.config import PolicyInfo
from ...core.lineup import parameter_index, shared_position

RANDOM, HEAVY, READER, HOLLOW_TACTICIAN, SEARCH = 0, 1, 2, 3, 4


def _probabilities(*names: str) -> dict[str, tuple[float, float]]:
    return {name: (0.0, 1.0) for name in names}


_EPSILON_DOC = "probability of planning like `random` instead (real players are not fully predictable)"
_READER_DOCS = {"heavy_belief": "weight on 'the builder sheds his heaviest buildable piece' vs. uniform",
                "guess_rate": "assumed chance that a competitor who may hold a piece guesses it"}

POLICIES = {
    p.name: p
    for p in (
        PolicyInfo("random", RANDOM,
                   "Uniform over held piece types plus the hollow hand; uniform choices everywhere (the reference)."),
        PolicyInfo("heavy", HEAVY,
                   "Sheds its heaviest piece: plans (and guesses) its heaviest buildable piece, "
                   "gives its heaviest away.",
                   {"epsilon": 0.1}, {"epsilon": _EPSILON_DOC}, _probabilities("epsilon")),
        PolicyInfo("reader", READER,
                   "Reads the builder: guesses the piece the builder most likely sheds (kit minus built, buildable), "
                   "and as builder plans the heavy piece competitors are least able to guess.",
                   {"epsilon": 0.1, "heavy_belief": 0.7, "guess_rate": 0.5},
                   {"epsilon": _EPSILON_DOC} | _READER_DOCS,
                   _probabilities("epsilon", "heavy_belief", "guess_rate")),
        PolicyInfo("hollow", HOLLOW_TACTICIAN,
                   "Plays the hollow hand on purpose: as builder to build freely, as competitor to give its heaviest "
                   "piece away; otherwise plays like `reader`.",
                   {"epsilon": 0.1, "heavy_belief": 0.7, "guess_rate": 0.5, "builder_hollow": 0.3,
                    "competitor_hollow": 0.25},
                   {"epsilon": _EPSILON_DOC} | _READER_DOCS | {
                       "builder_hollow": "probability of planning the hollow hand as builder",
                       "competitor_hollow": "probability of planning the hollow hand as competitor"},
                   _probabilities("epsilon", "heavy_belief", "guess_rate", "builder_hollow", "competitor_hollow")),
        PolicyInfo("search", SEARCH,
                   "Scores each plan it may hold (a piece it has, or the hollow hand) by rollouts: the others plan "
                   "with the base policy from draws of its own (a best response to sampled plans), gifts it has not "
                   "seen are dealt again, then every seat plays the base policy to the end; holds the plan with "
                   "the best win share (successive halving spends the budget).",
                   {"budget": 64.0, "base": float(READER), "horizon": 0.0},
                   {"budget": "rollouts per Baurunde",
                    "base": f"the rollouts' policy, assumed for the others: {RANDOM} random, {HEAVY} heavy, "
                            f"{READER} reader, {HOLLOW_TACTICIAN} hollow",
                    "horizon": "Baurunden a rollout plays before it is scored by the pieces held (0: to the end)"},
                   {"budget": (1.0, 65536.0), "base": (0.0, float(HOLLOW_TACTICIAN)), "horizon": (0.0, 1000.0)},
                   integers=frozenset({"budget", "base", "horizon"})),
    )
}


PARAMS = parameter_index(POLICIES)  # where the kernels read a parameter: PARAMS.search.budget
# Read by one kernel line for every policy that has them (heavy, reader and hollow; reader and hollow).
EPSILON = shared_position(POLICIES, "epsilon")
HEAVY_BELIEF = shared_position(POLICIES, "heavy_belief")
GUESS_RATE = shared_position(POLICIES, "guess_rate")
