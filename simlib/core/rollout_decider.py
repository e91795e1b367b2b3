"""The search policies' decision loop, once for every game: a game supplies small blocks, this module decides.

A search seat's decision: list the candidates, take the base policy's own choice as the incumbent, then
rollouts (copy the play, re-deal what the seat has not seen, play the candidate and play on, value the end)
spent by successive halving (search.py), and the best candidate. A game builds its decider once, at import:

    decide = rollout_decider(candidates, incumbent, copy, determinize, play_on, value)

and calls it in its search kernel where a search seat is to decide:

    c = decide(at, schedule, key, decision, budget)  # the candidate to play; -1: there is none

`at` is one NamedTuple of the game's own: the real play where the seat decides (read only), what the rollouts
play (the base policy's line-up, a horizon) and the work space the blocks share (the rollouts' copy of the
play, the list of candidates). `schedule` is search.plan_arrays(), made once per kernel call; `key` the play's
key; `decision` an index of the decision unique in the play (the take, the turn); `budget` the rollouts to
spend. The game's blocks, each declared with `@block()`:

- `candidates(at) -> k`: lists the decision's candidates (where in `at` is the game's affair) and counts them;
- `incumbent(at, k) -> c`: the candidate the base policy would choose, -1 for none of them; with the play's own
  draws, read and not used up (draws are keyed);
- `copy(at)`: the real play into the rollouts' copy;
- `determinize(at, key)`: in the copy, re-deals what the deciding seat has not seen, from `key`;
- `play_on(at, c, key)`: in the copy, plays candidate c, then plays on with the base policy (to the end or a
  horizon), its draws from `key`;
- `value(at) -> float`: the copy's worth to the deciding seat (its win share, and whatever the game adds).

With one candidate, it is played without a rollout. The j-th rollout of every candidate has the same key
(common random numbers, rollout_key(key, decision, j)), apart from the play's own draws: a play replays alone.

How it compiles:
- `decide` is a closure, and Numba reads a closure's variables as constants: it calls the game's blocks
  directly, as a loop written in the game's module did. Numba caches a closure under the pickle of its
  variables; a block pickles by name (blocks.py), so the next process finds `decide` in the cache. (Passing the
  blocks as arguments was not cacheable, docs/search.md; first-class function types need the C entry point
  that no block has.)
- Numba links a callee's code into each caller and optimizes it there again, so every layer of calls over the
  rollouts' play costs its compile once more: a block of a line or two (copy, play_on, value for Mauerbruch)
  is best declared `@block(inline="always")`, which puts its body in `decide`.
- `decide` allocates nothing and is compiled without Numba's reference counts (`_nrt=False`: a count on every
  array taken out of `at` in every rollout cost Mauerbruch's rollouts 5%). A block compiled from it inherits
  that unless it says `@block(_nrt=True)`, which one that allocates must.
"""

from __future__ import annotations

from collections.abc import Callable

from .blocks import block, closable
from .search import V_COUNT, best_candidate, next_rollout, record, rollout_key, start_plan

TIE_ROLLOUT = 1 << 40  # the rollout index whose key breaks ties among equally good candidates
SWITCH_Z = 1.0  # standard errors by which a candidate must beat the base policy's own to replace it


def rollout_decider(candidates: Callable, incumbent: Callable, copy: Callable, determinize: Callable,
                    play_on: Callable, value: Callable) -> Callable:
    """The decision loop over a game's blocks (see the module)."""
    for function in (candidates, incumbent, copy, determinize, play_on, value):
        if not closable(function):
            raise TypeError(f"{function}: a rollout decider's blocks are declared with @block()")

    @block(_nrt=False)
    def decide(at, schedule, key, decision, budget):
        k = candidates(at)
        if k <= 1:
            return k - 1
        plan, stats = schedule
        start_plan(k, budget, incumbent(at, k), plan, stats)
        while True:
            c = next_rollout(plan, stats)
            if c < 0:
                break
            rollout = rollout_key(key, decision, int(stats[V_COUNT, c]))  # the j-th rollout: one deal for all
            copy(at)
            determinize(at, rollout)
            play_on(at, c, rollout)
            record(plan, stats, c, value(at))
        return best_candidate(plan, stats, rollout_key(key, decision, TIE_ROLLOUT), SWITCH_Z)

    return decide
