"""The evaluator behind every design search (tune, fixes, sensitivity): a configuration run into the lake, then
the searched metrics of its plays, each with its 95% interval."""

from __future__ import annotations

import time

from ..analysis.tunes import Estimate
from ..core.config import RunConfig
from ..core.executors import Executor, LocalExecutor
from ..core.game import Game
from ..core.lake import Lake
from ..core.runner import run
from .metrics import canonical, estimate, play_values_of_runs
from .tune import Evaluate, EvaluateMany

SPREAD_SECONDS = 0.5  # a run expected to take longer is spread over the executor's workers


def lake_evaluator(lake: Lake, game: Game, metrics: list[str], executor: Executor | None = None,
                   progress: bool = False) -> EvaluateMany:
    """Runs configurations into the lake on `executor`, then the metrics of each from one pass of the models. On
    local workers a short run plays in this process: forking them costs about 0.15 s a run, more than a search
    value's few hundred plays take (the last run's speed says which runs are short)."""
    here = LocalExecutor(1) if isinstance(executor, LocalExecutor) else executor
    seconds_a_play = [0.0]

    def one(config: RunConfig) -> str:
        short = config.plays * seconds_a_play[0] < SPREAD_SECONDS
        began = time.perf_counter()
        result = run(config, lake, progress=progress, executor=here if short else executor)
        if not result.already_complete:
            seconds_a_play[0] = (time.perf_counter() - began) / config.plays
        return result.run_id

    def evaluate_many(configs: list[RunConfig]) -> list[dict[str, Estimate]]:
        run_ids = [one(config) for config in configs]
        values = play_values_of_runs(lake, game, run_ids)
        return [{m: estimate(values[r], canonical(game, m)) for m in metrics} for r in run_ids]
    return evaluate_many


def one_at_a_time(evaluate_many: EvaluateMany) -> Evaluate:
    """An evaluator of one configuration (tune's search, sensitivity's points) from one of several."""
    return lambda config: evaluate_many([config])[0]
