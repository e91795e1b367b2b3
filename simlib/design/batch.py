"""Batches of runs described in TOML: the report's default batch, a designer's own (`simlib batch GAME --file F`).

A batch file has five kinds of entries, each repeatable, all optional; the README shows an example. It sits in the
design layer because its [[fixes]] entries plan fix searches (simlib/design/fixes.py); the rest it reads from the
core. A game's own batches are files of its package: report_batch.toml and ladder_batch.toml.

    [[run]]                      # one run per (players, policies) pair
    players = [3, 4]             # a number or a list
    policies = ["random", "heavy,random,random"]   # line-ups: one name for every seat, or one per seat
    plays = 100_000              # times --scale, rounded to a multiple of the game's block (a match)
    options = { penalty_tower = 12 }               # optional rule parameters (settable ones: simlib params)
    events = false               # optional: also the events table
    standings = false            # optional: also the standings table (each seat's standing after each turn)
    seed = 1                     # optional, default 1

    [[tournament]]               # one `policy` at each seat of a table of `field`, for every ordered pair,
    players = 4                  # plus a table of each policy alone (same keys as [[run]])
    policies = ["random", "heavy"]
    plays = 20_000               # per seating

    [[ladder]]                   # the skill ladder: a table of each rung alone, and each rung in every seat of a
    players = 4                  # table of the rung below (the game's `skill_ladder`, weakest first) and of the
                                 # game's `best_heuristic`
    plays = 2_000                # per table (same keys as [[run]], but policies)
    rungs = ["random", "search:budget=16"]         # optional: some of the ladder's rungs, not all

    [[sweep]]                    # what if? one run per value (crossed with players and policies), all on one
    vary = { penalty_tower = [10, 12, 15] }        # seed, compared with the baseline: the game's defaults
    players = 4                                    # with `base` applied (simlib/core/sweep.py)
    policies = ["random"]
    plays = 50_000
    base = { }                                     # optional: the baseline's values, if not the defaults
    options = { }                                  # optional: rule parameters every run of the sweep shares

    [[fixes]]                    # which single rule number makes the start player fair? (simlib fixes, run after
    players = 4                  # the runs): each number parameter alone, every value on one seed, the value
    budget = 20_000              # nearest fair confirmed by TOST on fresh plays; budget: plays per parameter
    policies = "reader"          # optional: one line-up (default: the game's best heuristic)
    only = ["penalty_tower"]     # optional: these parameters (NAME or NAME=LO..HI), not every one
    seed = 1                     # optional, default 1; options = { } as [[run]]'s
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from itertools import permutations
from pathlib import Path
from typing import Any

from ..core.config import RunConfig, check_players, parse_policy
from ..core.errors import SimlibError
from ..core.game import Game
from ..core.limits import BUDGET, MAX_PLAYS, PLAYS, SCALE, SEED, seeds
from ..core.params import check_settable, read_toml
from ..core.sweep import PROBE_PLAYS, Sweep
from .fixes import FixSearch, fix_searches

_RUN_KEYS = {"players", "policies", "plays", "options", "events", "standings", "seed"}
_LADDER_KEYS = (_RUN_KEYS - {"policies"}) | {"rungs"}
_SWEEP_KEYS = (_RUN_KEYS - {"standings"}) | {"vary", "base"}
_FIXES_KEYS = {"players", "policies", "budget", "only", "options", "seed"}


def _plays(value: Any, scale: float, block: int) -> int:
    """An entry's plays (checked) times --scale, a multiple of the block, within a run's limit."""
    PLAYS.check("plays", value)
    scaled = value * scale
    if not scaled <= MAX_PLAYS:  # inf too
        raise SimlibError(f"plays = {value:,} at --scale {scale:g} is {scaled:.3g} plays, more than a run holds "
                          f"({MAX_PLAYS:,})")
    return max(block, round(scaled / block) * block)


# Each key's type, checked before a value is used (a string is not a boolean, 1.5 is not a seed): one line that
# names the key; read_batch adds the file and the entry.
def _players(game: Game, value: Any) -> list[int]:
    """`players`: a number of players or a list of them, each one the game takes (checked before a line-up is made
    per seat: a count of 8796093022207 once filled the memory)."""
    counts = value if isinstance(value, list) else [value]
    if not counts or any(isinstance(n, bool) or not isinstance(n, int) for n in counts):
        raise SimlibError(f"players are numbers: a number of players or a list of them (4, or [3, 4]), not {value!r}")
    return [check_players(game, n) for n in counts]


def _lineups(value: Any) -> list[str]:
    """`policies` of a run, tournament or sweep: a list of line-ups, each a text."""
    if not isinstance(value, list) or not value or not all(isinstance(p, str) for p in value):
        raise SimlibError(f'policies must be a list of line-ups such as ["random", "heavy,random,random"], '
                          f"not {value!r}")
    return value


def _table(key: str, value: Any) -> dict:
    if not isinstance(value, dict):
        raise SimlibError(f"{key} must be a dict: a table such as {key} = {{ penalty_tower = 12 }}, not {value!r}")
    return value


def _flag(key: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise SimlibError(f"{key} is true or false (no quotes), not {value!r}")
    return value


def _texts(key: str, value: Any) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise SimlibError(f'{key} must be a list of texts such as ["penalty_tower"], not {value!r}')
    return value


def _ladder_rungs(game: Game, entry: dict) -> list[str]:
    """The rungs a [[ladder]] entry plays, weakest first: the game's ladder, or those of it the entry names."""
    unknown = set(entry) - _LADDER_KEYS
    if unknown:
        raise SimlibError(f"batch ladder: unknown key(s) {', '.join(sorted(unknown))}")
    ladder = game.ladder_rungs()
    named = entry.get("rungs", ladder)
    if not isinstance(named, list) or not all(isinstance(r, str) for r in named) or len(named) < 2:
        raise SimlibError("batch ladder: rungs must be a list of at least two policies, e.g. [\"random\", \"search\"]")
    rungs = [str(parse_policy(r, game)) for r in named]
    off = [named[i] for i, r in enumerate(rungs) if r not in ladder]
    if off:
        raise SimlibError(f"batch ladder: {', '.join(off)} not on {game.name}'s skill ladder "
                          f"({', '.join(game.skill_ladder or game.policy_catalogue)})")
    return sorted(set(rungs), key=ladder.index)


def _configs(game: Game, entry: dict, kind: str, scale: float) -> list[RunConfig]:
    if kind == "ladder":
        rungs = _ladder_rungs(game, entry)
        entry = {k: v for k, v in entry.items() if k != "rungs"} | {"policies": rungs}
    unknown = set(entry) - _RUN_KEYS
    if unknown:
        raise SimlibError(f"batch {kind}: unknown key(s) {', '.join(sorted(unknown))}")
    try:
        players = entry["players"]
        policies = entry["policies"]
        plays = entry["plays"]
    except KeyError as missing:
        raise SimlibError(f"batch {kind}: missing key {missing}") from None
    players, policies = _players(game, players), _lineups(policies)
    PLAYS.check("plays", plays)
    options = _table("options", entry.get("options", {}))
    check_settable(game.name, game.parameters(), options)
    seed = SEED.check("seed", entry.get("seed", 1))
    events = _flag("events", entry.get("events", False))
    standings = _flag("standings", entry.get("standings", False))
    if kind == "run":
        tables = [(n, p.split(",")) for n in players for p in policies]
    elif kind == "ladder":
        tables = [(n, [p]) for n in players for p in policies]
        best = game.best_heuristic_spec()
        fields = [(below, focal) for below, focal in zip(policies, policies[1:])]
        if best in policies:
            fields += [(best, focal) for focal in policies[policies.index(best) + 2:]]
        for n in players:
            for below, focal in fields:
                tables += [(n, [below] * seat + [focal] + [below] * (n - seat - 1)) for seat in range(n)]
    else:
        tables = []
        for n in players:
            tables += [(n, [p]) for p in policies]
            for focal, field in permutations(policies, 2):
                tables += [(n, [field] * seat + [focal] + [field] * (n - seat - 1)) for seat in range(n)]
    configs = []
    for n, seats in tables:
        probe = RunConfig.build(game, players=n, policies=seats, plays=PROBE_PLAYS, seed=seed, options=options)
        configs.append(RunConfig.build(game, players=n, policies=seats, seed=seed, options=options,
                                       plays=_plays(plays, scale, game.block_size(probe)), events=events,
                                       standings=standings))
    return configs


def _sweep(game: Game, entry: dict, scale: float) -> Sweep:
    unknown = set(entry) - _SWEEP_KEYS
    missing = sorted({"vary", "players", "policies", "plays"} - set(entry))
    if unknown or missing:
        raise SimlibError(f"batch sweep: unknown key(s) {', '.join(sorted(unknown))}" if unknown else
                          f"batch sweep: missing key(s) {', '.join(missing)}")
    players = entry["players"] if isinstance(entry["players"], list) else [entry["players"]]
    if not isinstance(entry["vary"], dict) or not all(isinstance(v, list) for v in entry["vary"].values()):
        raise SimlibError("batch sweep: vary must be a table of lists, e.g. vary = { penalty_tower = [10, 12] }")
    kinds = {"players": (players, list), "policies": (entry["policies"], list), "plays": (entry["plays"], int),
             "base": (entry.get("base", {}), dict), "options": (entry.get("options", {}), dict),
             "seed": (entry.get("seed", 1), int)}
    for key, (value, kind) in kinds.items():
        if not isinstance(value, kind) or isinstance(value, bool):
            raise SimlibError(f"batch sweep: {key} must be a {kind.__name__}, not {value!r}")
    if not all(isinstance(n, int) for n in players) or not all(isinstance(p, str) for p in entry["policies"]):
        raise SimlibError("batch sweep: players are numbers and policies a list of line-ups such as \"random\"")
    _players(game, players)
    _lineups(entry["policies"])
    PLAYS.check("plays", entry["plays"])
    SEED.check("seed", entry.get("seed", 1))
    _flag("events", entry.get("events", False))
    # Every variant plays as many plays, a multiple of each one's block (a variant may change the block).
    probe = Sweep(game, dict(entry["vary"]), players, list(entry["policies"]), PROBE_PLAYS, entry.get("seed", 1),
                  entry.get("base", {}), entry.get("options", {}), entry.get("events", False))
    block = math.lcm(*(game.block_size(config) for config, _ in sweep_runs(probe)))
    return replace(probe, plays=_plays(entry["plays"], scale, block))


def _fixes(game: Game, entry: dict, scale: float) -> list[FixSearch]:
    """A [[fixes]] entry's searches, one per parameter, each checked before anything runs. The budget scales with
    --scale but not below the least a parameter's search needs (a value's plays)."""
    unknown = set(entry) - _FIXES_KEYS
    missing = sorted({"players", "budget"} - set(entry))
    if unknown or missing:
        raise SimlibError(f"batch fixes: unknown key(s) {', '.join(sorted(unknown))}" if unknown else
                          f"batch fixes: missing key(s) {', '.join(missing)}")
    lineup = entry.get("policies", game.best_heuristic or None)
    if lineup is None:
        raise SimlibError(f"batch fixes: {game.name} has no best heuristic: name the line-up (policies = \"...\")")
    if not isinstance(lineup, str):
        raise SimlibError(f'policies is one line-up, a text such as "random" or "heavy,random,random", not {lineup!r}')
    players = entry["players"]
    if isinstance(players, bool) or not isinstance(players, int):
        raise SimlibError(f"players is one number of players (a fix is searched at one table size), not {players!r}")
    budget, seed = BUDGET.check("budget", entry["budget"]), seeds(1).check("seed", entry.get("seed", 1))
    options, only = _table("options", entry.get("options", {})), _texts("only", entry.get("only", []))
    check_settable(game.name, game.parameters(), options)
    if not budget * scale <= MAX_PLAYS:
        raise SimlibError(f"budget = {budget:,} at --scale {scale:g} is {budget * scale:.3g} plays, more than a "
                          f"search takes ({MAX_PLAYS:,})")
    return fix_searches(game, "seat0_advantage", players, lineup, round(budget * scale), seed, options,
                        only=only, lift=True)


def sweep_runs(sweep: Sweep) -> list[tuple[RunConfig, dict]]:
    """A sweep's runs. One whose every value is the baseline's would write a run, marts and an empty What-if
    entry: an error instead."""
    runs = sweep.runs()
    if all(row["is_baseline"] for _, row in runs):
        values = " ".join(f"{name}={','.join(map(str, v))}" for name, v in sweep.vary.items())
        raise SimlibError(f"nothing to compare: {values} is the baseline's own value; give another value, or "
                          f"another baseline (--base, or base in a batch file)")
    return runs


@dataclass(frozen=True)
class Batch:
    configs: list[RunConfig]  # every run, the sweeps' runs included
    sweeps: list[Sweep]
    fixes: list[FixSearch] = field(default_factory=list)  # one per parameter, run after the runs


def read_batch(game: Game, path: Path, scale: float = 1.0) -> Batch:
    """A batch file's runs, sweeps and fix searches, every entry checked (types, ranges, the game's rules) before
    anything runs; a bad one is one line naming the file, the entry ([[run]] 2) and the key."""
    SCALE.check("--scale", scale)
    spec = read_toml(path, "batch file")
    unknown = set(spec) - {"run", "tournament", "ladder", "sweep", "fixes"}
    if unknown:
        raise SimlibError(f"batch file {path}: unknown section(s) {', '.join(sorted(unknown))}")
    for kind, entries in spec.items():
        if not isinstance(entries, list) or not all(isinstance(entry, dict) for entry in entries):
            raise SimlibError(f"batch file {path}: {kind} must be [[{kind}]] tables, one per entry, not {entries!r}")
    configs, sweeps, fixes = [], [], []
    for kind in ("run", "tournament", "ladder", "sweep", "fixes"):
        for n, entry in enumerate(spec.get(kind, []), 1):
            with _entry(path, kind, n):
                if kind == "sweep":
                    sweeps.append(_sweep(game, entry, scale))
                    configs += [config for config, _ in sweeps[-1].runs()]
                elif kind == "fixes":
                    fixes += _fixes(game, entry, scale)
                else:
                    configs += _configs(game, entry, kind, scale)
    return Batch(configs, sweeps, fixes)


@contextmanager
def _entry(path: Path, kind: str, n: int) -> Iterator[None]:
    """An entry's error as one line that names it: `batch run: <what> (in FILE, [[run]] 2)`."""
    try:
        yield
    except SimlibError as exc:
        head, text = f"batch {kind}: ", str(exc)
        raise SimlibError(f"{text if text.startswith(head) else head + text} (in {path}, [[{kind}]] {n})") from None


def load_batch(game: Game, path: Path, scale: float = 1.0) -> list[RunConfig]:
    """Every run of a batch file."""
    return read_batch(game, path, scale).configs


def report_batch(game: Game) -> Path | None:
    """The runs behind the game's report page (`make report`): report_batch.toml in its package, if it has one."""
    path = game.package / "report_batch.toml"
    return path if path.exists() else None


def ladder_batch(game: Game) -> Path | None:
    """The runs of the game's full skill ladder (`make ladder`): ladder_batch.toml in its package, if it has one."""
    path = game.package / "ladder_batch.toml"
    return path if path.exists() else None
