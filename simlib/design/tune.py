"""`simlib tune`: rule values that bring metrics to their targets, found by a noisy optimiser, then confirmed.

1. Search. Optuna's TPE sampler (seeded, so a tune replays) proposes values in the box; each trial is a run of
   the trial's plays on the search seed, so that every candidate plays the same random numbers (common random
   numbers: two candidates differ by their rules, not by their luck). A trial's loss is each metric's distance
   from its target in a play's standard deviations, squared and summed.
2. Refine. The best few distinct candidates are played again on the same seed with more plays (the runs'
   first plays are the search's own: results depend only on seed, play index and configuration), and the
   smallest loss among them is the recommendation.
3. Confirm. The recommendation is played on a fresh seed that no choice was made on; the answer is each metric
   there with its 95% interval, and whether its target lies inside.

Every evaluation is a run in the lake (resumable, on any executor); the `tunes` table records which runs form a
tune and what each gave (simlib/design/record.py).

Optuna over a hand-written search: it is well kept, samples integers, reals and choices in one box, and its
ask-and-tell interface lets each evaluation be an ordinary run. TPE copes with noisy losses and needs no
gradient; with the refine and confirm stages on top, its noise costs plays, not a wrong answer.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any, ClassVar

from ..analysis.tunes import Dimension, Estimate, Evaluation
from ..core import __version__
from ..core.config import RunConfig, check_players
from ..core.errors import SimlibError
from ..core.game import Game
from ..core.limits import BUDGET, TRIALS, TUNE_SEED, Limit
from ..core.sweep import PROBE_PLAYS
from .metrics import canonical, check_metric, check_target

SEARCH_SHARE, REFINE_SHARE = 0.5, 0.25  # of the budget; the rest confirms
REFINE = 3  # candidates played again with more plays
MIN_TRIAL_PLAYS = 100
MIN_CONFIRM_PLAYS = 1000


def parse_box(game: Game, items: list[str]) -> list[Dimension]:
    """`NAME=LO..HI` (a number parameter) or `NAME=A,B,...` (any parameter's values) flags, checked against the
    game's parameters: a name it does not have, a derived one, or a range outside the allowed values is refused."""
    params, box = game.parameters(), []
    for item in items:
        name, eq, text = (part.strip() for part in item.partition("="))
        if not eq or not text:
            raise SimlibError(f"--vary needs NAME=LO..HI or NAME=A,B,..., got {item!r}")
        if name not in params or params[name].derived:
            settable = ", ".join(n for n, p in params.items() if not p.derived)
            raise SimlibError(f"{name!r} is not a rule parameter of {game.name} (parameters: {settable})")
        if name in (d.name for d in box):
            raise SimlibError(f"--vary {name} is given twice")
        if name in game.match_parameters:  # it sets how plays group into matches, not a rule of one play
            raise SimlibError(f"--vary {name}: a match parameter (how plays group into matches) cannot be varied; "
                              f"fix it with --option {name}=VALUE")
        p = params[name]
        if ".." in text:
            if type(p.default) not in (int, float):
                raise SimlibError(f"--vary {name}: a range LO..HI needs a number parameter; give its values A,B,...")
            low, high = (p.coerce(v) for v in text.split("..", 1))
            if not low < high:
                raise SimlibError(f"--vary {name}: the range {text} is empty (give LO..HI with LO < HI)")
            box.append(Dimension(name, low, high))
        else:
            choices = tuple(p.coerce(v) for v in text.split(","))
            if len(set(map(repr, choices))) != len(choices) or len(choices) < 2:
                raise SimlibError(f"--vary {name}: give two or more different values")
            box.append(Dimension(name, choices=choices))
    if not box:
        raise SimlibError("a tune needs at least one parameter to vary (--vary NAME=LO..HI)")
    return box


def parse_targets(game: Game, players: int, items: list[str]) -> dict[str, float]:
    """`METRIC=VALUE` flags, each a metric the game has and a value it can take."""
    check_players(game, players)  # before a metric is made per seat
    targets = {}
    for item in items:
        name, eq, text = (part.strip() for part in item.partition("="))
        if not eq:
            raise SimlibError(f"--target needs METRIC=VALUE, got {item!r}")
        metric = check_metric(game, players, name)
        try:
            value = float(text)
        except ValueError:
            raise SimlibError(f"--target {name}: {text!r} is not a number") from None
        check_target(canonical(game, metric), value, players)
        if canonical(game, metric) in map(partial(canonical, game), targets):
            raise SimlibError(f"--target {name} is given twice")
        targets[metric] = value
    if not targets:
        raise SimlibError("a tune needs at least one target (--target METRIC=VALUE)")
    return targets


@dataclass(frozen=True)
class Tune:
    game: Game
    box: list[Dimension]
    targets: dict[str, float]
    players: int
    lineup: str  # one policy for every seat, or one per seat ("a,b,c")
    budget: int  # plays in all three stages
    seed: int = 1
    trials: int = 20
    options: dict[str, Any] = field(default_factory=dict)
    SEEDS: ClassVar[Limit] = TUNE_SEED  # Optuna's sampler takes the seed (32 bits); the confirmation plays seed + 1

    def __post_init__(self):
        fixed = sorted({d.name for d in self.box} & set(self.options))
        if fixed:
            raise SimlibError(f"{', '.join(fixed)} is both varied and fixed (--option): give one")
        TRIALS.check("--trials", self.trials)
        BUDGET.check("--budget", self.budget)
        self.SEEDS.check("--seed", self.seed)
        self.config({})  # the line-up, player count and options checked once, before anything runs
        self.check_budget()

    def check_budget(self) -> None:
        """A budget that leaves a trial or the confirmation too few plays is refused, naming the least enough."""
        if not self.enough(self.budget):
            least = math.ceil(max(MIN_TRIAL_PLAYS * self.trials / SEARCH_SHARE,
                                  MIN_CONFIRM_PLAYS / (1 - SEARCH_SHARE - REFINE_SHARE)))
            while not self.enough(least):  # plays come in blocks: the least budget that holds them after rounding
                least += self.block
            raise SimlibError(f"--budget {self.budget:,} is too small to search and confirm: {self.trials} trials "
                              f"need at least {least:,} plays ({MIN_TRIAL_PLAYS} a trial, {MIN_CONFIRM_PLAYS:,} "
                              f"to confirm)")

    def config(self, values: dict[str, Any], plays: int | None = None, seed: int | None = None) -> RunConfig:
        return RunConfig.build(self.game, players=self.players, policies=self.lineup.split(","),
                               plays=plays or self.block, seed=self.seed if seed is None else seed,
                               options=self.options | values)

    @property
    def block(self) -> int:
        """Plays come in multiples of this (a Die Mauer match's Spielrunden)."""
        config = RunConfig.build(self.game, players=self.players, policies=self.lineup.split(","), plays=PROBE_PLAYS,
                                 seed=self.seed, options=self.options)
        return self.game.block_size(config)

    def stage_plays(self, budget: int | None = None) -> tuple[int, int, int]:
        """Plays of a search trial, of a refined candidate, and of the confirmation. A refined candidate plays at
        least twice a trial's plays (with few trials a trial's share would be larger: it is cut, not overspent)."""
        budget = self.budget if budget is None else budget

        def whole(plays: float) -> int:
            return int(plays // self.block) * self.block
        refine = whole(budget * REFINE_SHARE / REFINE)
        return (whole(min(budget * SEARCH_SHARE / self.trials, refine / 2)), refine,
                whole(budget * (1 - SEARCH_SHARE - REFINE_SHARE)))

    def enough(self, budget: int) -> bool:
        trial, _, confirm = self.stage_plays(budget)
        return trial >= MIN_TRIAL_PLAYS and confirm >= MIN_CONFIRM_PLAYS

    def spec(self) -> dict[str, Any]:
        """What the tune is (its id hashes it): a search that plays differently adds its own keys."""
        return {"game": self.game.name, "box": [str(d) for d in self.box], "targets": self.targets,
                "players": self.players, "lineup": self.lineup, "budget": self.budget, "seed": self.seed,
                "trials": self.trials, "options": self.options, "rules_versions": self.game.rules_versions(),
                "simlib": __version__}

    @property
    def tune_id(self) -> str:
        return hashlib.sha256(json.dumps(self.spec(), sort_keys=True, default=str).encode()).hexdigest()[:16]

    def loss(self, estimates: dict[str, Estimate]) -> float:
        """Each metric's distance from its target in a play's standard deviations, squared and summed."""
        return sum(((estimates[m].value - t) / (estimates[m].sd or 1.0)) ** 2 for m, t in self.targets.items())


Evaluate = Callable[[RunConfig], dict[str, Estimate]]


Step = Callable[[str, dict[str, Any], int, int], Evaluation]  # (stage, values, plays, seed) -> its evaluation


def _suggest(dim: Dimension, trial) -> Any:
    """The value Optuna's trial proposes for one parameter of the box."""
    if dim.choices:
        return trial.suggest_categorical(dim.name, list(dim.choices))
    if isinstance(dim.low, int):
        return trial.suggest_int(dim.name, dim.low, dim.high)
    return trial.suggest_float(dim.name, dim.low, dim.high)


def tpe_trials(tune: Tune, step: Step) -> None:
    """The search stage: Optuna's seeded TPE proposes `tune.trials` values, each played on the search seed."""
    import optuna

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    trial_plays = tune.stage_plays()[0]
    study = optuna.create_study(sampler=optuna.samplers.TPESampler(seed=tune.seed, multivariate=True))
    for _ in range(tune.trials):
        trial = study.ask()
        values = {d.name: _suggest(d, trial) for d in tune.box}
        study.tell(trial, step("search", values, trial_plays, tune.seed).loss)


EvaluateMany = Callable[[list[RunConfig]], list[dict[str, Estimate]]]


StepMany = Callable[[str, list[dict[str, Any]], int, int], list[Evaluation]]  # several values at once


def stepper_many(tune: Tune, evaluate_many: EvaluateMany, said: Callable[[Evaluation], None],
                 done: list[Evaluation]) -> StepMany:
    """A tune's step over several values at once (`evaluate_many` runs their configurations into the lake and
    reads them together), each evaluation appended to `done` in order and said."""
    versions = tune.game.rules_versions()

    def step_many(stage: str, many: list[dict[str, Any]], plays: int, seed: int) -> list[Evaluation]:
        configs = [tune.config(values, plays, seed) for values in many]
        out = []
        for values, config, estimates in zip(many, configs, evaluate_many(configs)):
            out.append(Evaluation(stage, len(done), values, config.run_id(versions), seed, plays, estimates,
                                  tune.loss(estimates)))
            done.append(out[-1])
            said(out[-1])
        return out
    return step_many


def stepper(tune: Tune, evaluate: Evaluate, said: Callable[[Evaluation], None], done: list[Evaluation]) -> Step:
    """A tune's step: the values played (`evaluate` runs the configuration into the lake), the evaluation
    appended to `done` in order and said."""
    step_many = stepper_many(tune, lambda configs: [evaluate(c) for c in configs], said, done)
    return lambda stage, values, plays, seed: step_many(stage, [values], plays, seed)[0]


def search(tune: Tune, evaluate: Evaluate, said: Callable[[Evaluation], None] = lambda e: None,
           trials: Callable[[Tune, Step], None] = tpe_trials) -> list[Evaluation]:
    """The three stages (the search stage by `trials`); `evaluate` runs a configuration into the lake and returns
    its metrics. Returns every evaluation in order, the confirmation last."""
    _, refine_plays, confirm_plays = tune.stage_plays()
    done: list[Evaluation] = []
    step = stepper(tune, evaluate, said, done)
    trials(tune, step)
    ranked, seen = [], set()
    for e in sorted(done, key=lambda e: e.loss):
        key = json.dumps(e.values, sort_keys=True, default=str)
        if key not in seen:
            seen.add(key)
            ranked.append(e.values)
    refined = [step("refine", values, refine_plays, tune.seed) for values in ranked[:REFINE]]
    best = min(refined, key=lambda e: e.loss)
    step("confirm", best.values, confirm_plays, tune.seed + 1)
    return done


def _values_words(values: dict[str, Any]) -> str:
    return ", ".join(f"{k}={v:g}" if isinstance(v, float) else f"{k}={v}" for k, v in values.items())


def answer_lines(tune: Tune, done: list[Evaluation]) -> list[str]:
    """The answer in words: the recommended values, each metric there with its interval and whether the target
    lies inside; where it does not and one parameter varies, the two evaluated values the target lies between."""
    final = done[-1]
    lines = [f"recommended: {_values_words(final.values)}, confirmed on {final.plays:,} fresh plays "
             f"(seed {final.seed}):"]
    for metric, target in tune.targets.items():
        x = final.estimates[metric]
        where = "inside" if x.contains(target) else "outside"
        lines.append(f"  {metric} {x.value:.4g} (95% interval {x.lo:.4g} to {x.hi:.4g}); target {target:g} is {where}")
        if not x.contains(target) and len(tune.box) == 1:
            lines += bracket(tune, done, metric, target)
    return lines


def bracket(tune: Tune, done: list[Evaluation], metric: str, target: float) -> list[str]:
    """The nearest evaluated values of the one varied parameter on either side of the target (the most plays
    each), or that no value in the box reaches it."""
    name, best = tune.box[0].name, {}
    for e in done[:-1]:
        v = e.values[name]
        if v not in best or e.plays > best[v].plays:
            best[v] = e
    below = [e for e in best.values() if e.estimates[metric].value < target]
    above = [e for e in best.values() if e.estimates[metric].value > target]
    if not below or not above:
        side = "below" if not below else "above"  # the side no value reached
        return [f"  no value of {name} tried gives {metric} {side} {target:g}: the target may be out of reach"]
    lo = min(below, key=lambda e: target - e.estimates[metric].value)
    hi = min(above, key=lambda e: e.estimates[metric].value - target)
    return [f"  the target lies between {name}={lo.values[name]} ({lo.estimates[metric].value:.4g}) and "
            f"{name}={hi.values[name]} ({hi.estimates[metric].value:.4g}) on the search seed"]
