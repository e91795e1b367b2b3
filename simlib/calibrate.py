"""`make calibrate`: every interval's coverage and every test's size, measured on lakes whose truth is known by
construction, printed as a table (docs/statistics.md quotes it).

    python -m simlib.calibrate [--quick] [--replicates N]

Known-truth lakes, three kinds:
- **Relabelled real plays.** Plays of a real run, each play's seats relabelled at random: every seat is then
  exchangeable, so its true win share is the fair share, balance is 100% and the seat test's hypothesis holds,
  whatever the game (ties and plays without a winner included). A replicate draws its plays from the run's (with
  replacement) and relabels each.
- **Paired variants that change nothing.** The same relabelled plays as a baseline and, as a variant, each play's
  seats relabelled once more: seat 0's share in the variant has the baseline's distribution, paired play by play,
  so every paired difference is 0 in truth. A figure of several such variants tests Holm's family-wise error.
- **Bernoulli seats with set rates.** Plays drawn from set win probabilities per seat, with a set chance that the
  winner ties with another seat: every seat's true share, balance and seat-0 advantage are known in closed form.
  The skill ladder's rungs are drawn the same way, their seat-0 advantage on a set line (the trend's coverage) or
  flat (its size), and steps up the ladder exactly at the least effect that counts (skill depth's size).

Each row says the estimator, the truth, the nominal rate, the measured rate with its 95% interval (Wilson, over the
replicates) and the replicates. The estimators are the Python twins of the marts' SQL (simlib/analysis/estimators.py,
tested equal in tests/analysis/test_estimators.py). `--quick` is the short version `make test` runs
(tests/analysis/test_calibration.py): every 95% interval must cover at least 93% and every 5% test reject at most 7%.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .analysis import estimators as E

COVERAGE_FLOOR = 0.93  # the short version's bar for a 95% interval
SIZE_CEILING = 0.07  # and for a 5% test


@dataclass(frozen=True)
class Check:
    estimator: str
    truth: str
    kind: str  # "coverage" (of a 95% interval) or "size" (the false-positive rate of a 5% test)
    hits: int
    replicates: int
    plays: int

    @property
    def nominal(self) -> float:
        return 0.95 if self.kind == "coverage" else 0.05

    @property
    def rate(self) -> float:
        return self.hits / self.replicates

    @property
    def passes(self) -> bool:
        return self.rate >= COVERAGE_FLOOR if self.kind == "coverage" else self.rate <= SIZE_CEILING

    def row(self) -> str:
        lo, hi = E.wilson(self.hits, self.replicates)
        return (f"| {self.estimator} | {self.truth} | {self.kind} | {self.nominal:.0%} | {self.rate:.1%} "
                f"({lo:.1%} to {hi:.1%}) | {self.replicates:,} x {self.plays:,} plays |")


# Known-truth plays -------------------------------------------------------------------------------------------------


def real_shares(game: str, players: int, policy: str, plays: int, seed: int) -> np.ndarray:
    """Each play's win shares by seat (plays x seats) of a real run, simulated here."""
    from .core.config import RunConfig
    from .core.registry import get_game

    g = get_game(game)
    config = RunConfig.build(g, players=players, policies=[policy], plays=plays, seed=seed)
    winners = g.simulate(config, 0, plays, events=False)["games"].column("winners").to_pylist()
    shares = np.zeros((plays, players))
    for i, won in enumerate(winners):
        for seat in won:
            shares[i, seat] = 1 / len(won)
    return shares


def relabelled(pool: np.ndarray, n: int, rng: np.random.Generator) -> np.ndarray:
    """n plays drawn from the pool, each play's seats in a random order: every seat exchangeable."""
    plays = pool[rng.integers(0, len(pool), n)]
    order = np.argsort(rng.random(plays.shape), axis=1)
    return np.take_along_axis(plays, order, axis=1)


def bernoulli(p: np.ndarray, tie: float, n: int, rng: np.random.Generator) -> np.ndarray:
    """n plays in which seat i wins with probability p[i]; with probability `tie` it shares the win with another
    seat drawn at random."""
    k = len(p)
    winner = rng.choice(k, size=n, p=p)
    shares = np.zeros((n, k))
    shares[np.arange(n), winner] = 1.0
    tied = np.flatnonzero(rng.random(n) < tie)
    other = (winner[tied] + 1 + rng.integers(0, k - 1, len(tied))) % k
    shares[tied, winner[tied]] = 0.5
    shares[tied, other] = 0.5
    return shares


def bernoulli_truth(p: np.ndarray, tie: float) -> np.ndarray:
    """The true win shares of `bernoulli`: alone (1 - tie) p_i, tied as the winner drawn 0.5 tie p_i, tied as the
    other seat 0.5 tie (1 - p_i) / (k - 1)."""
    k = len(p)
    return (1 - tie) * p + 0.5 * tie * p + 0.5 * tie * (1 - p) / (k - 1)


# Checks ------------------------------------------------------------------------------------------------------------


def _count(replicates: int, seed: int, hit: Callable[[np.random.Generator], bool]) -> int:
    rng = np.random.default_rng(seed)
    return sum(bool(hit(rng)) for _ in range(replicates))


def share_checks(name: str, draw: Callable, truth: np.ndarray, n: int, reps: int, seed: int) -> list[Check]:
    """Seat 0's win share interval, the seat test and balance on plays from `draw(n, rng)`."""
    fair = bool(np.allclose(truth, 1 / len(truth)))
    share, test, bal = [], [], []

    def one(rng):
        sums = E.seat_sums(draw(n, rng))
        lo, hi = E.share_interval(sums.n, sums.s[0], sums.cross[0, 0])
        share.append(lo <= truth[0] <= hi)
        test.append(E.seat_test(sums).p_value < 0.05)
        b = E.balance(sums)
        true_balance = 1 - (truth.max() - truth.min())
        bal.append(b.lo - 1e-12 <= true_balance <= b.hi + 1e-12)
        return True

    _count(reps, seed, one)
    checks = [Check("win share of seat 0 (share_lo, share_hi)", f"{name}: {truth[0]:.3f}", "coverage", sum(share),
                    reps, n),
              Check("balance (balance_lo, balance_hi)", f"{name}: {1 - (truth.max() - truth.min()):.3f}",
                    "coverage", sum(bal), reps, n)]
    if fair:
        checks.append(Check("seat test (seat_test_p < 0.05)", f"{name}: every seat fair", "size", sum(test), reps, n))
    return checks


FEEL_MEANS = ("lead_changes", "decided_at", "decisive_at", "drama", "winner_lead_share", "max_deficit")


QUARTERS = ("q1", "half", "q3")  # mart_setup_feel's leaders at 1/4, 1/2 and 3/4 of the play
# Wilson's intervals of mart_setup_feel and mart_setup_feel_tenths, per play 1 (yes), 0 (no) or -1 (not counted).
FEEL_SHARES = (*(f"{q}_leader_won" for q in QUARTERS), "won_from_last", "winner_leads_at_half")


def real_feel(game: str, players: int, policy: str, plays: int, seed: int) -> dict[str, np.ndarray]:
    """A real run's plays with a single winner: each feel feature (mart_setup_feel's means), and per play whether the
    single leader at each quarter won (1 won, 0 lost, -1 no single leader), whether the winner was last at
    half-time, and whether he led alone at the fifth tenth (mart_setup_feel_tenths)."""
    from .core.config import RunConfig
    from .core.registry import get_game

    g = get_game(game)
    config = RunConfig.build(g, players=players, policies=[policy], plays=plays, seed=seed)
    games = g.simulate(config, 0, plays, events=False)["games"].to_pylist()
    rows = [r for r in games if r["worst_rank"] is not None]
    pool = {name: np.array([r[name] for r in rows], float) for name in FEEL_MEANS}
    for q, name in enumerate(QUARTERS):
        leader = [r["leader_at_quarter"][q] for r in rows]
        pool[f"{name}_leader_won"] = np.array([-1 if h is None else int(h == r["winners"][0])
                                               for h, r in zip(leader, rows)])
    pool["won_from_last"] = np.array([r["winner_last_at_half"] for r in rows], int)
    pool["winner_leads_at_half"] = np.array([r["winner_leads_at"][4] for r in rows], int)
    return pool


def feel_checks(name: str, pool: dict[str, np.ndarray], n: int, reps: int, seed: int) -> list[Check]:
    """mart_setup_feel's intervals on n plays drawn from a real run's (with replacement: the run's plays are the
    population, their mean the truth): each feature's mean interval, Wilson's for each share (over the plays it
    counts), and the report's Newcombe interval of the difference between two such draws of the half-time leader's
    win rate (truth 0)."""
    hits = dict.fromkeys([*FEEL_MEANS, *FEEL_SHARES, "newcombe"], 0)
    truth = {k: pool[k].mean() for k in FEEL_MEANS}
    truth |= {k: pool[k][pool[k] >= 0].mean() for k in FEEL_SHARES}

    def one(rng):
        rows = rng.integers(0, len(pool["decided_at"]), n)
        for k in FEEL_MEANS:
            x = pool[k][rows]
            lo, hi = E.mean_interval(n, x.sum(), (x * x).sum())
            hits[k] += lo <= truth[k] <= hi
        for k in FEEL_SHARES:
            x = pool[k][rows]
            lo, hi = E.wilson((x == 1).sum(), (x >= 0).sum())
            hits[k] += lo <= truth[k] <= hi
        other = pool["half_leader_won"][rng.integers(0, len(pool["decided_at"]), n)]
        x = pool["half_leader_won"][rows]
        _, lo, hi = E.newcombe((x == 1).sum(), (x >= 0).sum(), (other == 1).sum(), (other >= 0).sum())
        hits["newcombe"] += lo <= 0 <= hi
        return True

    _count(reps, seed, one)
    words = {"half_leader_won": "half-time leader's win rate (Wilson)", "won_from_last": "share won from last (Wilson)",
             "q1_leader_won": "leader at 1/4's win rate (Wilson)", "q3_leader_won": "leader at 3/4's win rate (Wilson)",
             "winner_leads_at_half": "winner leads alone at 5/10 (Wilson)",
             "newcombe": "two draws' half-time leader win rates, difference (Newcombe)"}
    return [Check(f"feel: {words.get(k, 'mean ' + k)}", f"{name}: {truth.get(k, 0.0):.3f}", "coverage", hits[k], reps,
                  n) for k in hits]


def paired_checks(name: str, pool: np.ndarray, n: int, reps: int, seed: int, variants: int = 4) -> list[Check]:
    """Variants that change nothing: each a fresh relabelling of the baseline's plays, seat 0's share paired play by
    play; per replicate one figure of `variants` tests, Holm-adjusted."""
    covered, family = [], []

    def one(rng):
        base = relabelled(pool, n, rng)
        ps = []
        for _ in range(variants):
            order = np.argsort(rng.random(base.shape), axis=1)
            d = np.take_along_axis(base, order, axis=1)[:, 0] - base[:, 0]
            lo, hi = E.mean_interval(n, d.sum(), (d * d).sum())
            covered.append(lo <= 0 <= hi)
            ps.append(E.mean_p_value(n, d.sum(), (d * d).sum()))
        family.append((E.holm(ps) < 0.05).any())
        return True

    _count(reps, seed, one)
    return [Check("paired difference of seat 0's share (difference_lo, _hi)", f"{name}: 0", "coverage",
                  sum(covered), len(covered), n),
            Check(f"What-if figure of {variants} variants, Holm (p_holm < 0.05 anywhere)", f"{name}: no change",
                  "size", sum(family), reps, n)]


def tost_check(n: int, reps: int, seed: int) -> Check:
    """"No change larger than the margin" said where the true change is the margin itself: at most 5%."""
    margin = E.MARGIN_SHARE

    def one(rng):
        d = rng.normal(margin, 0.1, n)  # a paired difference whose true mean sits on the margin, narrow enough to say
        half = E.Z90 * d.std(ddof=1) / math.sqrt(n)
        return E.equivalent(d.mean() - half, d.mean() + half, margin)

    return Check("no change larger than the margin (equivalent, TOST)", "true change = the margin (1 pp)", "size",
                 _count(reps, seed, one), reps, n)


def workbench_checks(reps: int, seed: int, width: float = 2.0, budget: int = 64_000) -> list[Check]:
    """The workbench's own schedule and stop (simlib/serve/spec.py: next_plays, why_done), every chunk taken as
    fast (so each doubles: 1,000, 2,000, 4,000, ... plays), until seat 0's paired difference has an interval narrower
    than `width` percentage points (2, the default) or the budget is spent; the interval and the test read at that
    stop. Seat 0 wins 31% in the baseline (ties 25%) and 3 points more, or the same, in the variant."""
    from .serve.spec import FIRST_PLAYS, JobSpec, next_plays, why_done

    base_p = np.array([0.31, 0.23, 0.23, 0.23])
    spec = JobSpec("calibration", 4, "bernoulli", {}, budget=budget, width=width)

    def stopped(shift: float, rng) -> tuple[float, float, float]:
        variant_p = base_p + np.array([shift] + [-shift / 3] * 3)
        d, done = np.empty(0), []
        while True:
            plays = next_plays(budget, done, 1, FIRST_PLAYS)
            base, variant = bernoulli(base_p, 0.25, plays, rng), bernoulli(variant_p, 0.25, plays, rng)
            d = np.concatenate([d, variant[:, 0] - base[:, 0]])
            done.append({"plays": plays, "seconds": 0.0})
            lo, hi = E.mean_interval(len(d), d.sum(), (d * d).sum())
            if why_done(spec, len(d), 100 * (hi - lo), True):
                return lo, hi, E.mean_p_value(len(d), d.sum(), (d * d).sum())

    shift = 0.03
    truth = bernoulli_truth(base_p + np.array([shift] + [-shift / 3] * 3), 0.25)[0] - bernoulli_truth(base_p, 0.25)[0]
    covered = _count(reps, seed, lambda rng: (c := stopped(shift, rng))[0] <= truth <= c[1])
    false = _count(reps, seed + 1, lambda rng: stopped(0.0, rng)[2] < 0.05)
    return [Check("workbench: paired difference at the stop by width (difference_lo, _hi)",
                  f"seat 0's share +{truth * 100:.2f} pp, stop at a 2 pp wide interval", "coverage", covered, reps,
                  budget),
            Check("workbench: a change said at the stop by width (p < 0.05)", "no change, stop at a 2 pp wide interval",
                  "size", false, reps, budget)]


def ladder_checks(n: int, reps: int, seed: int, rungs: int = 4) -> list[Check]:
    """The trend of seat 0's advantage over the rungs (edge_slope): its coverage where the advantage rises by 1 pp a
    rung, its size where it is flat at +3 pp; and skill depth's size where every step sits exactly at the least
    effect that counts."""
    def trend(slope: float, rng) -> E.Trend:
        adv, se = [], []
        for r in range(rungs):
            p0 = 0.25 + 0.03 + slope * r
            shares = bernoulli(np.array([p0] + [(1 - p0) / 3] * 3), 0.0, n, rng)
            lo, hi = E.share_interval(n, shares[:, 0].sum(), (shares[:, 0] ** 2).sum())
            adv.append(shares[:, 0].mean() - 0.25)
            se.append((hi - lo) / (2 * E.Z95))
        return E.weighted_trend(np.arange(rungs), adv, se)

    rising = _count(reps, seed, lambda rng: (t := trend(0.01, rng)).lo <= 0.01 <= t.hi)
    flat = _count(reps, seed + 1, lambda rng: trend(0.0, rng).p_value < 0.05)

    def depth(rng) -> bool:
        fair = 0.25
        ps = []
        for _ in range(rungs - 1):
            shares = bernoulli(np.array([fair + 0.01] + [(1 - fair - 0.01) / 3] * 3), 0.0, n, rng)[:, 0]
            m = E.effective_n(n, shares.sum(), (shares ** 2).sum())
            p0 = fair + 0.01
            z = (shares.mean() - p0) / math.sqrt(p0 * (1 - p0) / m)
            ps.append(0.5 * math.erfc(z / math.sqrt(2)))
        return (E.holm(ps) < 0.05).any()

    return [Check("trend of seat 0's advantage up the ladder (edge_slope_lo, _hi)", "+1 pp a rung over 4 rungs",
                  "coverage", rising, reps, n),
            Check("trend test (edge_slope_p < 0.05)", "flat at +3 pp over 4 rungs", "size", flat, reps, n),
            Check("skill depth >= 1 (beats_below, Holm)", "3 steps exactly at the least effect (+1 pp)", "size",
                  _count(reps, seed + 2, depth), reps, n)]


def run_checks(quick: bool, replicates: int | None = None) -> list[Check]:
    reps = replicates or (400 if quick else 2000)
    n = 1000 if quick else 2000
    pool_plays = 2000 if quick else 20000
    checks = []
    for game, title, players, policy in (("mauerbruch", "Mauerbruch", 2, "random"), ("mauer", "Die Mauer", 3, "random"),
                                         ("mauer", "Die Mauer", 4, "reader")):
        pool = real_shares(game, players, policy, pool_plays, seed=7 + players)
        name = f"{title}, {players} {policy} players, seats relabelled (ties {np.mean((pool > 0).sum(1) > 1):.0%})"
        fair = np.full(players, pool.sum(axis=1).mean() / players)  # 1 / players where every play has a winner
        checks += share_checks(name, lambda m, rng, pool=pool: relabelled(pool, m, rng), fair, n, reps, seed=players)
        if players == 4:
            checks += paired_checks(name, pool, n, reps, seed=40)
    for p, tie in ((np.array([0.31, 0.23, 0.23, 0.23]), 0.25), (np.array([0.5, 0.3, 0.2]), 0.0)):
        name = f"Bernoulli seats {', '.join(f'{x:.0%}' for x in p)}, ties {tie:.0%}"
        checks += share_checks(name, lambda m, rng, p=p, tie=tie: bernoulli(p, tie, m, rng), bernoulli_truth(p, tie),
                               n, reps, seed=len(p) + 10)
    cheap = 4 * reps  # these draw no balance: more replicates for the same time, a finer measured rate
    for game, title, players, policy in (("mauerbruch", "Mauerbruch", 4, "random"),
                                         ("sevensteps", "7 Steps", 3, "random")):
        pool = real_feel(game, players, policy, pool_plays, seed=38)
        for m in (n,) if quick else (n, 100):  # a set-up's usual plays, and few
            checks += feel_checks(f"{title}, {players} {policy} players", pool, m, cheap, seed=m)
    checks.append(tost_check(n, cheap, seed=50))
    checks += ladder_checks(n, cheap, seed=60)
    checks += workbench_checks(cheap, seed=70)
    return checks


def table(checks: list[Check]) -> str:
    head = ("| estimator | truth by construction | kind | nominal | measured (95% interval) | replicates |\n"
            "|---|---|---|---|---|---|")
    return "\n".join([head, *(c.row() for c in checks)])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m simlib.calibrate", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="the short version make test runs")
    parser.add_argument("--replicates", type=int, help="replicates per check (default 2000; quick 400)")
    args = parser.parse_args(argv)
    checks = run_checks(args.quick, args.replicates)
    print(table(checks))
    failing = [c for c in checks if not c.passes]
    for c in failing:
        bar = f">= {COVERAGE_FLOOR:.0%}" if c.kind == "coverage" else f"<= {SIZE_CEILING:.0%}"
        print(f"calibrate: {c.estimator} at {c.truth}: {c.kind} {c.rate:.1%} (bar: {bar})")
    return 1 if failing else 0


if __name__ == "__main__":
    raise SystemExit(main())
