"""The game-agnostic half of the search policies: how a decision's rollouts are spent and keyed.

A game's search scores a decision's legal candidates by rollouts: copy the play's state, re-sample what the
deciding seat has not seen (determinization), apply the candidate, play on with a base policy, and take the
deciding seat's win share at the end. This module decides which candidate the next rollout goes to and which
candidate wins, with successive halving (Karnin, Koren and Somekh 2013): the budget is split over
ceil(log2 candidates) rounds, each round's share evenly over the candidates still in, and the better half goes
on. Against an even split it spends most rollouts where the choice is close.

The base policy's own choice, where the game gives it (the incumbent), is never halved away and is kept
unless another candidate's mean beats it by `z` standard errors: with a small budget, a noisy best mean
would otherwise replace a good heuristic's choice by a coin flip among near-equals (rollout-based policy
improvement: the search keeps what its base would do unless the rollouts say otherwise).

Rollouts draw from a stream of their own, keyed by (play key, decision, rollout): the play's own draws are
untouched, so a play replays alone and two searches at the same seed see the same rollouts.

The plan lives in two arrays the game allocates once per play (`plan_arrays`); the game's loop is:

    start_plan(n_candidates, budget, incumbent, plan, stats)
    while (c := next_rollout(plan, stats)) >= 0:
        record(plan, stats, c, value_of_a_rollout_of(c))
    best = best_candidate(plan, stats, tie_key, z)
"""

import numba as nb
import numpy as np

from .rng import below, draw, mix64

ROLLOUT_SALT = np.uint64(0x5EA4C4F00D5EED01)  # separates the rollouts' stream from the play's own draws
MAX_CANDIDATES = 512
PRIOR_VARIANCE, PRIOR_WEIGHT = 0.25, 4.0
# plan: the scalars of a decision's schedule
P_N, P_ALIVE, P_PER, P_GIVEN, P_NEXT, P_ROUNDS_LEFT, P_BUDGET_LEFT, P_SPENT, P_INCUMBENT = range(9)
V_SUM, V_COUNT, V_ALIVE, V_SQUARES = range(4)  # stats' rows, per candidate


@nb.njit(cache=True)
def plan_arrays():
    """The work space of one decision: the schedule's scalars and, per candidate, value sum, rollouts, alive."""
    return np.zeros(9, np.int64), np.zeros((4, MAX_CANDIDATES))


@nb.njit(cache=True)
def rollout_key(key, decision, rollout):
    """The key of one rollout: a pure function of the play's key, the decision's index in the play and the
    rollout's index in the decision, apart from every key the play's own draws use."""
    return mix64(mix64(key ^ ROLLOUT_SALT) + np.uint64(decision) * np.uint64(0x9E3779B97F4A7C15)
                 + np.uint64(rollout))


@nb.njit(cache=True)
def _rounds(n):
    r = 0
    while (1 << r) < n:
        r += 1
    return max(r, 1)


@nb.njit(cache=True)
def _begin_round(plan):
    """Split what is left of the budget over the rounds left, this round's share over the candidates in."""
    share = plan[P_BUDGET_LEFT] // plan[P_ROUNDS_LEFT]
    plan[P_PER] = max(1, share // plan[P_ALIVE])
    plan[P_GIVEN] = 0
    plan[P_NEXT] = 0


@nb.njit(cache=True)
def start_plan(n, budget, incumbent, plan, stats):
    """A new decision among n candidates (n <= MAX_CANDIDATES) with `budget` rollouts; `incumbent`: the base
    policy's choice (-1: none)."""
    plan[P_N] = n
    plan[P_INCUMBENT] = incumbent
    plan[P_ALIVE] = n
    plan[P_ROUNDS_LEFT] = _rounds(n)
    plan[P_BUDGET_LEFT] = max(budget, n)
    plan[P_SPENT] = 0
    stats[:, :n] = 0.0
    stats[V_ALIVE, :n] = 1.0
    _begin_round(plan)


@nb.njit(cache=True)
def _halve(plan, stats):
    """Keep the better half of the candidates still in (by mean value; ties by lower index), the incumbent
    always, beside the best other (which the last comparison needs)."""
    n, keep = plan[P_N], (plan[P_ALIVE] + 1) // 2
    if plan[P_INCUMBENT] >= 0:
        keep = max(keep, min(2, plan[P_ALIVE]))
    for _ in range(plan[P_ALIVE] - keep):
        worst, worst_mean = -1, np.inf
        for c in range(n):
            if stats[V_ALIVE, c] > 0 and c != plan[P_INCUMBENT]:
                mean = stats[V_SUM, c] / max(stats[V_COUNT, c], 1.0)
                if mean <= worst_mean:
                    worst, worst_mean = c, mean
        stats[V_ALIVE, worst] = 0.0
    plan[P_ALIVE] = keep


@nb.njit(cache=True)
def next_rollout(plan, stats):
    """The candidate the next rollout is for, or -1 when the decision's budget is spent (or one is left)."""
    while plan[P_ALIVE] > 1:
        if plan[P_NEXT] >= plan[P_N]:  # every candidate still in got this round's share
            plan[P_ROUNDS_LEFT] -= 1
            _halve(plan, stats)
            if plan[P_ALIVE] <= 1 or plan[P_ROUNDS_LEFT] <= 0 or plan[P_BUDGET_LEFT] <= 0:
                return -1
            _begin_round(plan)
            continue
        c = plan[P_NEXT]
        if stats[V_ALIVE, c] == 0:  # out
            plan[P_NEXT] = c + 1
            continue
        plan[P_GIVEN] += 1
        if plan[P_GIVEN] >= plan[P_PER]:
            plan[P_GIVEN] = 0
            plan[P_NEXT] = c + 1
        return c
    return -1


@nb.njit(cache=True)
def record(plan, stats, c, value):
    stats[V_SUM, c] += value
    stats[V_COUNT, c] += 1.0
    stats[V_SQUARES, c] += value * value
    plan[P_BUDGET_LEFT] -= 1
    plan[P_SPENT] += 1


@nb.njit(cache=True)
def _mean_var(stats, c):
    """The candidate's mean value and the variance of that mean; the values' variance is shrunk towards
    PRIOR_VARIANCE (a fair coin's) by PRIOR_WEIGHT rollouts, so that two or three equal values do not look
    certain."""
    n = max(stats[V_COUNT, c], 1.0)
    mean = stats[V_SUM, c] / n
    spread = max(stats[V_SQUARES, c] - n * mean * mean, 0.0)
    return mean, (spread + PRIOR_WEIGHT * PRIOR_VARIANCE) / (n - 1 + PRIOR_WEIGHT) / n


@nb.njit(cache=True)
def best_candidate(plan, stats, tie_key, z):
    """The candidate still in with the best mean value (among equals, one drawn by `tie_key`), unless the
    incumbent is within `z` standard errors of it."""
    best, best_mean, ties = -1, -np.inf, 0
    for c in range(plan[P_N]):
        if stats[V_ALIVE, c] == 0:
            continue
        mean = stats[V_SUM, c] / max(stats[V_COUNT, c], 1.0)
        if mean > best_mean + 1e-12:
            best, best_mean, ties = c, mean, 1
        elif abs(mean - best_mean) <= 1e-12:
            ties += 1
            if below(draw(tie_key, c), ties) == 0:
                best = c
    inc = plan[P_INCUMBENT]
    if inc < 0 or best == inc:
        return best
    m_best, v_best = _mean_var(stats, best)
    m_inc, v_inc = _mean_var(stats, inc)
    return best if m_best - m_inc > z * np.sqrt(v_best + v_inc) else inc


@nb.njit(cache=True)
def win_share(scores, seat):
    """The seat's share of the win: 1 alone on the top score, 1/k among k tied, else 0."""
    top, tied = scores[0], 0
    for s in scores:
        top = max(top, s)
    for s in scores:
        tied += s == top
    return 1.0 / tied if scores[seat] == top else 0.0

