"""A workbench job as the page sends it, checked field by field, and its schedule: how many plays each chunk runs
and when the job has run enough.

Chunk k of a job is its sweep on seed seed + k (chunk.py). The first chunk is small, for a first verdict within
seconds (smaller still for a slow line-up, down to MIN_FIRST_PLAYS); each next one doubles while a chunk takes under
CHUNK_SECONDS, so the page is updated every few seconds however fast the game plays; the last is cut to the budget
(never below one block: a Die Mauer match's rounds are played together). The sizes depend on this machine's speed,
which is why every chunk's command (its seed and plays) is listed with its runs.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from ..core import limits
from ..core.config import parse_policy
from ..core.errors import SimlibError
from ..core.registry import games, get_game
from ..core.sweep import PROBE_PLAYS
from .chunk import ChunkRequest

FIRST_PLAYS = 1000  # the first chunk's plays per run: a verdict within seconds at random players
MIN_FIRST_PLAYS = 100  # and at the least, however slow the line-up
CHUNK_SECONDS = 4.0  # a chunk that took longer than this is not doubled
DEFAULT_BUDGET = 200_000  # plays per run
DEFAULT_WIDTH = 2.0  # percentage points (a share) or percent of the baseline's mean (any other figure)
UNCHANGED_PLAYS = 10_000  # paired plays after which a job whose variants never differ from the baseline stops


class FieldErrors(SimlibError):
    """Bad values in a job's form: a message per field, shown beside it; nothing runs."""

    def __init__(self, errors: dict[str, str]):
        super().__init__("; ".join(f"{k}: {v}" for k, v in errors.items()))
        self.errors = errors


@dataclass(frozen=True)
class JobSpec:
    """A job as the page sends it, checked: one table (players, one line-up), the values tried per rule parameter,
    the budget (plays per run), the width at which it stops, and its first seed."""

    game: str
    players: int
    lineup: str
    vary: dict[str, list[Any]]
    budget: int = DEFAULT_BUDGET
    width: float = DEFAULT_WIDTH
    seed: int = 1

    @classmethod
    def parse(cls, data: dict) -> JobSpec:
        """The form's values: every bad field named with its own message (FieldErrors)."""
        name = data.get("game")
        if not isinstance(name, str) or name not in games():
            raise FieldErrors({"game": f"unknown game {name!r}"})
        game, errors = get_game(name), {}
        players = _whole(data.get("players"), "players", errors)
        if players is not None and not game.min_players <= players <= game.max_players:
            errors["players"] = f"{game.title} takes {game.min_players} to {game.max_players} players"
        lineup = _lineup(game, data.get("lineup"), errors)
        vary = _vary(game, data.get("vary"), errors)
        budget = _whole(data.get("budget", DEFAULT_BUDGET), "budget", errors, limits.BUDGET)
        width = _positive(data.get("width", DEFAULT_WIDTH), "width", errors)
        # chunk k plays seed + k: at most one chunk per MIN_FIRST_PLAYS plays of the budget
        chunks = math.ceil((budget or 1) / MIN_FIRST_PLAYS)
        seed = _whole(data.get("seed", 1), "seed", errors, limits.seeds(extra=chunks))
        if errors:
            raise FieldErrors(errors)
        spec = cls(name, players, lineup, vary, budget, width, seed)
        try:
            spec.block()  # every run configured, as the command line configures them
        except SimlibError as exc:
            raise FieldErrors({"vary": str(exc)}) from None
        return spec

    def request(self, chunk: int, plays: int, lake: str) -> ChunkRequest:
        return ChunkRequest(self.game, self.players, self.lineup, self.vary, plays, self.seed + chunk, lake)

    def block(self) -> int:
        """The plays of every chunk are a multiple of this: every run's block (a Die Mauer match's rounds)."""
        sweep = self.request(0, PROBE_PLAYS, "lake").sweep()
        return math.lcm(*(sweep.game.block_size(config) for config, _ in sweep.runs()))

    def runs(self) -> int:
        """Runs a chunk plays: the baseline and every variant."""
        return len(self.request(0, PROBE_PLAYS, "lake").sweep().runs())

    def seats(self) -> list[str]:
        """The line-up by seat."""
        specs = self.lineup.split(",")
        return specs * self.players if len(specs) == 1 else specs


def _whole(value: Any, name: str, errors: dict, limit: limits.Limit | None = None) -> int | None:
    try:
        number = int(str(value).strip().replace(",", "").replace("_", ""))
    except ValueError:
        errors[name] = f"{value!r} is not a whole number"
        return None
    if limit is not None:
        try:
            limit.check(name, number)
        except SimlibError as exc:
            errors[name] = str(exc)
            return None
    return number


def _positive(value: Any, name: str, errors: dict) -> float | None:
    try:
        number = float(str(value).strip())
    except ValueError:
        number = math.nan
    if not number > 0 or math.isinf(number):
        errors[name] = f"{value!r} is not a number above 0"
        return None
    return number


def _lineup(game, value: Any, errors: dict) -> str:
    lineup = value.strip() if isinstance(value, str) else ""
    if not lineup:
        errors["lineup"] = "choose who plays"
        return ""
    try:
        specs = [str(parse_policy(spec, game)) for spec in lineup.split(",")]
    except SimlibError as exc:
        errors["lineup"] = str(exc)
        return lineup
    # In full, as the lake writes them: "heavy,heavy:epsilon=0.1" is one policy, a table of one policy.
    return specs[0] if len(set(specs)) == 1 else ",".join(specs)


def _vary(game, value: Any, errors: dict) -> dict[str, list[Any]]:
    if not isinstance(value, dict):
        errors["vary"] = "the values to try, per rule parameter"
        return {}
    vary, params = {}, game.parameters()
    for key, text in value.items():
        if key not in params or params[key].derived:
            errors[f"vary:{key}"] = "not a rule parameter you can set"
            continue
        values = [v.strip() for v in str(text).split(",") if v.strip()]
        try:
            if values:
                vary[key] = [params[key].coerce(v) for v in values]
        except SimlibError as exc:
            errors[f"vary:{key}"] = str(exc).removeprefix(f"option {key}: ")
    if not vary and not any(k.startswith("vary:") for k in errors):
        errors["vary"] = "change at least one rule parameter: type its new value (or several, with commas)"
    return vary


def first_plays(speed: float, processes: int, runs: int, block: int) -> int:
    """The first chunk's plays per run: FIRST_PLAYS, or fewer (down to MIN_FIRST_PLAYS) where this line-up is so slow
    (a search) that they would take more than CHUNK_SECONDS on this machine; a multiple of the block."""
    fit = int(speed * processes * CHUNK_SECONDS / runs)
    return max(block, min(FIRST_PLAYS, max(MIN_FIRST_PLAYS, fit)) // block * block)


def next_plays(budget: int, done: list[dict], block: int, first: int) -> int:
    """The next chunk's plays per run: `first`, then double while a chunk takes under CHUNK_SECONDS; cut to what is
    left of the budget, but never below one block."""
    if not done:
        plays = first
    else:
        last = done[-1]
        plays = last["plays"] * 2 if last["seconds"] < CHUNK_SECONDS else last["plays"]
    plays = min(plays, budget - sum(c["plays"] for c in done))
    return max(block, plays // block * block)


def why_done(spec: JobSpec, played: int, widest: float | None, measured: bool) -> str:
    """Why a job has run enough, in words ("" while it has not): its budget spent, every interval narrower than its
    width, or its variants never once differing from the baseline in UNCHANGED_PLAYS paired plays. `widest` is the
    widest interval on the width's scale (tally.relative_width; None where no figure differs); `measured`, whether
    any chunk has run."""
    if played >= spec.budget:
        return f"the budget of {spec.budget:,} plays per run is spent"
    if not measured:
        return ""
    if widest is not None and widest < spec.width:
        return (f"every variant's paired difference from the baseline has a 95% interval narrower than {spec.width:g} "
                f"(percentage points for a share, percent of the baseline for any other figure)")
    if widest is None and played >= UNCHANGED_PLAYS:
        return (f"in {played:,} paired plays no figure the workbench reads ever differed between a variant and the "
                f"baseline")
    return ""
