"""The metrics a design search aims at, read per play from a run in the lake.

The per-play values come from the pipeline's own models (pipelines/shared/int_play_outcomes.sql and the game's
part of int_play_headline), so that a tuned value means what the report's marts mean by it, and the estimators are
the marts' own twins (simlib/analysis/estimators.py): seat 0's advantage with the win share's interval, balance
median-unbiased with its simultaneous interval, any other metric a 95% normal interval over the plays (each play
is independent).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..analysis.estimators import Z95, balance, seat_sums, share_interval
from ..analysis.tunes import Estimate
from ..core.errors import SimlibError
from ..core.game import Game
from ..core.lake import Lake

# name: (what it is, its fair value or None)
METRICS = {
    "seat0_advantage": ("seat 0's win share minus the fair share 1/players (a shared win split among the winners)",
                        0.0),
    "balance": ("1 - (the highest seat's win share - the lowest's), median-unbiased; 1 when every seat wins an equal "
                "share", 1.0),
    "mean_length": ("mean turns a play (the game's `turns` column)", None),
    "mean_score": ("mean score of a seat (every seat's score averaged)", None),
    "headline": ("the game's headline figure a play (int_play_headline), averaged over the plays that have it",
                 None),
}
SEAT_SCORE = "seat{}_score"  # seat k's mean score: seat0_score, seat1_score, ...


def metric_names(game: Game, players: int) -> list[str]:
    """Every metric `game` can be aimed at with `players` players (the headline also by the game's own name)."""
    names = [m for m in METRICS if m != "headline" or game.headline_metric]
    if game.headline_metric:
        names.append(game.headline_metric)
    return names + [SEAT_SCORE.format(k) for k in range(players)]


def check_metric(game: Game, players: int, name: str) -> str:
    """The metric's name as given, or one clear error."""
    known = metric_names(game, players)
    if name not in known:
        raise SimlibError(f"unknown metric {name!r} for {game.name} at {players} players (metrics: {', '.join(known)})")
    return name


def canonical(game: Game, name: str) -> str:
    """The game's own name for its headline is `headline`; every other metric is its own name."""
    return "headline" if name and name == game.headline_metric else name


def check_target(name: str, value: float, players: int) -> None:
    """A target the metric can take, or one clear error."""
    if players < 1:
        raise SimlibError(f"--players must be 1 or more, not {players}")
    if not math.isfinite(value):
        raise SimlibError(f"target {name}={value}: give a finite number")
    low, high = {"seat0_advantage": (-1 / players, 1 - 1 / players), "balance": (0.0, 1.0),
                 "mean_length": (0.0, float("inf"))}.get(name, (float("-inf"), float("inf")))
    if not low <= value <= high:
        raise SimlibError(f"target {name}={value:g} cannot be reached: {name} lies in {low:g}..{high:g}")


@dataclass(frozen=True)
class PlayValues:
    """One run's plays: turns a play, each seat's win share (1/winners where it won, else 0) and score (plays x
    seats), and the headline (NaN where a play has none) with its name in the marts ("" where no play has one)."""

    players: int
    turns: np.ndarray
    shares: np.ndarray
    scores: np.ndarray
    headline: np.ndarray
    headline_name: str = ""


def play_values(lake: Lake, game: Game, run_id: str) -> PlayValues:
    """A complete run's per-play values, computed by the pipeline's models over that run alone."""
    return play_values_of_runs(lake, game, [run_id])[run_id]


def play_values_of_runs(lake: Lake, game: Game, run_ids: list[str]) -> dict[str, PlayValues]:
    """play_values for several runs in one pass of the pipeline's models: a pass costs about 0.2 s however few its
    plays, most of a short search's time when paid run by run (the same models and query, split by run)."""
    from ..analysis.pipeline import models_for_runs  # DuckDB and the models: only when a search reads its runs

    runs = [(game.name, r) for r in run_ids]
    with models_for_runs(lake, runs, {"int_play_outcomes", "int_play_headline"}) as con:
        rows = con.execute("select o.run_id, o.players, o.turns, o.shares, o.scores, h.value as headline, "
                           "h.headline as headline_name "
                           "from int_play_outcomes as o left join int_play_headline as h "
                           "using (game, run_id, play_index) order by o.run_id, o.play_index").fetchnumpy()
    out = {}
    for run_id in run_ids:
        mine = rows["run_id"] == run_id
        if not mine.any():
            raise SimlibError(f"run {run_id} of {game.name} has no plays in the lake")
        players = int(rows["players"][mine][0])

        def matrix(column: str) -> np.ndarray:
            return np.array([np.asarray(v, float) for v in rows[column][mine]]).reshape(-1, players)
        names = [n for n in np.ma.compressed(rows["headline_name"][mine])[:1]]
        out[run_id] = PlayValues(players, np.asarray(rows["turns"][mine], float), matrix("shares"), matrix("scores"),
                                 np.asarray(np.ma.filled(rows["headline"][mine], np.nan), float),
                                 str(names[0]) if names else "")
    return out


def _per_play(values: PlayValues, name: str) -> np.ndarray:
    if name == "seat0_advantage":
        return values.shares[:, 0] - 1 / values.players
    if name == "mean_length":
        return values.turns
    if name == "mean_score":
        return values.scores.mean(axis=1)
    if name == "headline":
        return values.headline[~np.isnan(values.headline)]
    seat = int(name.removeprefix("seat").removesuffix("_score"))
    return values.scores[:, seat]


def estimate(values: PlayValues, name: str) -> Estimate:
    """The metric over the run's plays with its 95% interval, by the marts' estimators."""
    n = len(values.turns)
    if name == "balance":
        b = balance(seat_sums(values.shares))
        return Estimate(b.value, b.lo, b.hi, (b.hi - b.lo) / (2 * Z95) * np.sqrt(n), n)
    if name == "seat0_advantage":  # the win share's interval (share_lo, share_hi), shifted by the fair share
        x, fair = values.shares[:, 0], 1 / values.players
        lo, hi = share_interval(n, x.sum(), (x * x).sum())
        return Estimate(float(x.mean() - fair), lo - fair, hi - fair, float(x.std(ddof=1)) if n > 1 else 0.0, n)
    x = _per_play(values, name)
    if len(x) == 0:
        raise SimlibError(f"no play of the run has a value of {name}")
    mean, sd = float(x.mean()), float(x.std(ddof=1)) if len(x) > 1 else 0.0
    half = Z95 * sd / np.sqrt(len(x))
    return Estimate(mean, mean - half, mean + half, sd, len(x))
