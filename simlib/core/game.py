"""What every game package provides to the core."""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import replace
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

import pyarrow as pa

from .config import PolicyInfo, RunConfig, parse_policy
from .params import Parameter, load_parameters

if TYPE_CHECKING:
    from .feel import Standing
from .resources import pipelines_root


class Game(ABC):
    """A game plugs into the core by subclassing this and registering under `simlib.games`.

    The core never looks inside a game: it asks for blocks of plays as Arrow tables and writes them.
    """

    name: str
    title: str
    rules_version: int  # bumped when behaviour changes, not for speed-ups; written on every row
    # Other games whose rules this game's kernel runs (a scenario on a base game's engine): their versions are
    # part of every run id, so that a rule fix there gives new runs here instead of stale "complete" ones.
    engines: tuple[Game, ...] = ()
    min_players: int
    max_players: int
    # Parameters that shape a match but not a single play (the report pools runs that differ only in these).
    match_parameters: tuple[str, ...] = ()
    # The options the game's analysis compares, and how a set-up's label says a value: a text with {} for the
    # value, or a dict from value to text ("*": any other value). Every option that differs from its default
    # makes a set-up of its own (pipelines/shared/mart_run_setups.py); one without a phrase is labelled by name.
    setup_options: dict[str, str | dict[str, str]] = {}
    # The game's headline (its part of int_play_headline) as a design search's metric, by the game's own name
    # (`simlib tune mauer --target mean_penalty=12`); empty: the game has no headline.
    headline_metric: str = ""
    # The rungs of the game's skill ladder, weakest first, as policy specs ("search:budget=16"): what `[[ladder]]`
    # batch entries play and the ladder marts order by (empty: every policy at its defaults, catalogue order).
    skill_ladder: tuple[str, ...] = ()
    # The game's best heuristic, a rung of the ladder: every stronger rung also plays against it, one player at a
    # table of it (does search beat the best scripted play?). Empty: no such tables.
    best_heuristic: str = ""
    # The game's standing, read for how a play feels (core/feel.py): its unit and step in words, for the games
    # table's columns, `simlib replay` and the report. None: its games table has no feel columns.
    standing: Standing | None = None
    # Tables written only for runs with --events (they are large).
    event_tables: tuple[str, ...] = ("events",)

    # The game's package folder, holding parameters.toml and, optionally, report_batch.toml and ladder_batch.toml
    # (simlib/design/batch.py) and report.py, its plug-in to the report (GameReport, simlib/analysis/page.py): the
    # report finds it by name; nothing in the game's rules imports it.
    package: Path
    # The policy catalogue and the lake tables (`games`, `seats`, event tables), columns documented.
    policy_catalogue: dict[str, PolicyInfo]
    table_schemas: dict[str, pa.Schema]

    @cache
    def parameters(self) -> dict[str, Parameter]:
        """Rule parameters with provenance, from the package's parameters.toml."""
        return load_parameters(self.package / "parameters.toml")

    def policies(self) -> dict[str, PolicyInfo]:
        return self.policy_catalogue

    def schemas(self) -> dict[str, pa.Schema]:
        return self.table_schemas

    def block_size(self, config: RunConfig) -> int:
        """How many consecutive plays must be simulated together (e.g. the rounds of a match)."""
        return 1

    def rollout_speed(self, config: RunConfig, plays: int) -> tuple[float, float] | None:
        """For `make bench`: the game's steps a second in the kernel's plays of `config` and in a search's
        rollouts of the same plays (copy, determinize, play on), single thread; None for a game without a
        search."""
        return None

    def ladder_rungs(self) -> list[str]:
        """The skill ladder's rungs, weakest first, each a full policy spec (its parameters spelled out)."""
        return [str(parse_policy(rung, self)) for rung in self.skill_ladder or self.policy_catalogue]

    def best_heuristic_spec(self) -> str | None:
        """The best heuristic as a full policy spec (a rung of ladder_rungs), or None."""
        return str(parse_policy(self.best_heuristic, self)) if self.best_heuristic else None

    def kernel_of(self, config: RunConfig) -> str:
        """Which of the game's compiled kernels plays `config`: every game compiles line-ups with a search seat
        as a kernel of its own (so that scripted runs never compile the search)."""
        return "search" if any(p.name == "search" for p in config.policies) else "scripted"

    def pipeline_folder(self) -> Path | None:
        """The folder of the game's own pipeline models (SQL or Polars files and the schema.toml that
        documents and tests them; see pipelines/README.md), or None. By default the project's
        `pipelines/<name>/`; a game shipped elsewhere returns a folder of its own."""
        folder = pipelines_root() / self.name
        return folder if folder.is_dir() else None

    def rules_versions(self) -> dict[str, int]:
        """The rules version of this game and of every engine its kernel runs, by game name."""
        versions = {self.name: self.rules_version}
        for engine in self.engines:
            versions |= engine.rules_versions()
        return dict(sorted(versions.items()))

    def resolve_options(self, options: dict) -> dict:
        """Derive dependent options (e.g. a deck file's cards and hash) once, when a run is configured."""
        return options

    def validate(self, config: RunConfig) -> None:
        """Raise SimlibError for a configuration the game cannot play (beyond the core's checks)."""

    def fixed_opening(self, options: dict, policies: list[str]) -> bool:
        """Whether every play of a table opens the same way before the first die (a fixed map and policies whose
        openings follow from it): its seats' results then describe that one opening, not the game, and the report
        draws no verdict from it (pipelines/shared/mart_run_setups.py). `options` are the run's, `policies` its
        policy names by seat."""
        return False

    @abstractmethod
    def simulate(self, config: RunConfig, start: int, stop: int, events: bool) -> dict[str, pa.Table]:
        """Plays [start, stop) as Arrow tables; start and stop are multiples of block_size."""

    def replayed(self, config: RunConfig, start: int, stop: int) -> dict[str, pa.Table]:
        """Plays [start, stop) re-simulated as `simlib replay` tells them: every table, with the events and the
        standings whatever the run kept."""
        return self.simulate(replace(config, standings=self.standing is not None), start, stop, events=True)

    @abstractmethod
    def describe_play(self, config: RunConfig, play: int) -> str:
        """A readable account of one play, re-simulated alone."""

    def drawing(self, config: RunConfig, play: int) -> dict | None:
        """One play's board as the workbench draws it, re-simulated alone; None for a game without a board. A dict
        of JSON values: `shapes`, each a `kind` (polygon, settlement, city, road, ship, ...) with `points` ([x, y]
        pairs, y downwards, in the board's own units), optional `fill`, `label`, `title`, `seat`, and `from` and
        `until`, the turns between which it stands (-1: the set-up; no `until`: to the end); `turns`, the play's
        turns; `legend`, what the shapes are in words; optionally `background`, a colour."""
        return None


def steps_per_second(*calls: Callable[[], int]) -> tuple[float, ...]:
    """For `Game.rollout_speed`: each call's steps a second (a call returns the steps it played), timed after
    a first call that compiles and warms it."""
    rates = []
    for call in calls:
        call()
        began = time.perf_counter()
        steps = call()
        rates.append(steps / (time.perf_counter() - began))
    return tuple(rates)
