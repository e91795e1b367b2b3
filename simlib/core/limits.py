"""The ranges of the numbers a user gives: plays, seeds, scales, budgets, trials, sizes, shard sizes, workers and
margins. One place, used where a value arrives (a command-line flag, a batch file's key) and again where the core
takes it (RunConfig.build, read_batch, Tune, the sensitivity sample), so that a request too large to run is refused
in one line that says the range, before anything is allocated or written. (Player counts are each game's own range,
checked by RunConfig.build; rule parameters have theirs in the game's parameters.toml.)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from .errors import SimlibError

# Plays a run may hold. docs/scaling.md sizes a billion plays (Die Mauer: 22 GB of Parquet and 2 core-hours; Catan
# 188 core-hours); ten times that is still a run a cluster can finish and a lake can hold. It is the most the runner
# handles as a run: it lists a run's shards and keeps one manifest entry per part in memory and in the runs row, and
# at the default shard size (50,000) 10**10 plays are MAX_PARTS parts. (A run of 10**15 plays ran 20 s into a
# MemoryError while listing its shards.)
MAX_PLAYS = 10**10
# Parts (shards) of one run: a file per table each, listed whenever the run resumes or is checked, and an entry each
# in the run's manifest (about 200 bytes: 40 MB at most).
MAX_PARTS = 200_000
# A shard is simulated and held whole in a worker's memory before it is written: about 340 bytes a play for Die
# Mauer and 500-1,000 for Catan, 7 Steps and Burgenland (measured), so a million plays is up to 1 GB a worker
# (events take ten to a hundred times that: a run with --events wants small shards).
MAX_SHARD_SIZE = 10**6
# Local worker processes: each holds the compiled kernels and its shard (175-450 MB measured). More processes than
# cores only share the cores; 256 is more than the largest machine a local run is sized for.
MAX_WORKERS = 256
MAX_SEED = 2**63 - 1  # the runs table's int64; the draws mix it as an unsigned 64-bit key
# A design search's trials: each is a run, and Optuna's TPE sampler reads every earlier trial for each proposal.
MAX_TRIALS = 10_000
# Sensitivity: Morris trajectories or Sobol base points; each makes (parameters + 1 or 2) points, each a run.
MAX_SIZE = 10_000
# Optuna's sampler takes a 32-bit seed (NumPy's RandomState): a tune's search seed must fit.
MAX_TUNE_SEED = 2**32 - 1


@dataclass(frozen=True)
class Limit:
    """A range of values and the words that say it ("{name} must {words}, not {value}")."""

    low: float
    high: float
    words: str
    integer: bool = True
    low_open: bool = False  # the ends themselves are outside (0 < scale)
    high_open: bool = False

    def holds(self, value: Any) -> bool:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return False
        if self.integer and not isinstance(value, int):
            return False
        if isinstance(value, float) and not math.isfinite(value):
            return False
        above = value > self.low if self.low_open else value >= self.low
        below = value < self.high if self.high_open else value <= self.high
        return above and below

    def check(self, name: str, value: Any) -> Any:
        """`value` if it lies in the range; otherwise one line naming `name`, the range and the value."""
        if not self.holds(value):
            raise SimlibError(f"{name} must {self.words}, not {shown(value)}")
        return value


def shown(value: Any) -> str:
    """A value as a refusal quotes it: integers with thousands separators (a very long one by its length),
    floats as %g, anything else as its repr (a string in quotes)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, int):
        text = f"{value:,}"
        if len(text) <= 32:
            return text
        try:
            return f"{float(value):.6g}"
        except OverflowError:
            return f"an integer of {len(str(abs(value)))} digits"
    return f"{value:g}"


def _upto(high: int) -> str:
    return "2**63-1" if high == MAX_SEED else f"2**63-{MAX_SEED - high + 1}" if high > 2**62 else f"{high:,}"


def seeds(extra: int = 0) -> Limit:
    """Seeds of a command that also plays seed + 1 .. seed + extra (a confirmation, replicates)."""
    also = f" (it also plays seed + {extra})" if extra == 1 else f" (it also plays seed + 1..{extra})" if extra else ""
    return Limit(0, MAX_SEED - extra, f"be an integer in 0..{_upto(MAX_SEED - extra)}{also}")


PLAYS = Limit(1, MAX_PLAYS, f"be a positive integer, at most {MAX_PLAYS:,} (the most plays a run holds)")
BUDGET = Limit(1, MAX_PLAYS, f"be a positive integer, at most {MAX_PLAYS:,} plays")
SHARD_SIZE = Limit(1, MAX_SHARD_SIZE, f"be a positive integer, at most {MAX_SHARD_SIZE:,} plays a part")
WORKERS = Limit(1, MAX_WORKERS, f"be a positive integer, at most {MAX_WORKERS} processes")
TRIALS = Limit(2, MAX_TRIALS, f"be an integer in 2..{MAX_TRIALS:,}")
SIZE = Limit(2, MAX_SIZE, f"be an integer in 2..{MAX_SIZE:,}")
SEED = seeds()
PORT = Limit(1, 65535, "be a TCP port, an integer in 1..65535")
DEFAULT_PORT = 8765  # simlib serve's, and the report's links to the workbench
TUNE_SEED = Limit(0, MAX_TUNE_SEED, f"be an integer in 0..{MAX_TUNE_SEED:,} (Optuna's sampler takes a 32-bit seed)")
SCALE = Limit(0, math.inf, "be a finite number above 0", integer=False, low_open=True)  # and the plays it scales: PLAYS
MARGIN = Limit(0, 1, "lie between 0 and 1 (a share: 0.01 is ±1 percentage point)", integer=False, low_open=True,
               high_open=True)


def check_parts(plays: int, shard_size: int) -> None:
    """A run of `plays` in parts of `shard_size` has at most MAX_PARTS parts."""
    parts = -(-plays // shard_size)
    if parts > MAX_PARTS:
        least = -(-plays // MAX_PARTS)
        raise SimlibError(f"--shard-size {shard_size:,} cuts {plays:,} plays into {parts:,} parts, more than a run "
                          f"holds ({MAX_PARTS:,}): give --shard-size {least:,} or more")
