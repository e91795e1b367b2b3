"""`simlib check --mend`: re-simulate what a lake's audit found missing, damaged or unfinished.

A play's rows depend only on the seed, its index and the configuration, so a mended part is the part that was
lost, byte for byte; a run keeps every part that still matches its manifest.
"""

from __future__ import annotations

import sys

from .config import RunConfig
from .errors import SimlibError
from .lake import Lake
from .manifest import Audit, audit, describe_file, expected_files
from .registry import games
from .runner import run


def mend(lake: Lake, found: Audit, progress: bool = True) -> int:
    """Mend every damaged and incomplete run of a registered game, then audit the lake again; 0 when every run
    is verified."""
    todo = [*found.damaged, *found.incomplete]
    for game, run_id in todo:
        try:
            config = _config_of(found.runs[(game, run_id)])
            _remove_wrong_files(lake, found.runs[(game, run_id)])
            result = run(config, lake, progress=progress)
            print(f"mended run {run_id} of {game}: {result.shards_written} parts simulated")
        except SimlibError as exc:
            print(f"simlib: cannot mend run {run_id} of {game}: {exc}", file=sys.stderr)
    again = audit(lake, deep=True)
    for line in [*again.damaged.values(), *again.incomplete.values(), *again.orphans.values()]:
        print(f"simlib: still {line}", file=sys.stderr)
    if again.orphans:
        print("orphaned runs have no configuration to mend them from: remove their folders", file=sys.stderr)
    return 1 if again.problems or again.incomplete else 0


def _config_of(record) -> RunConfig:
    """The configuration a run was simulated with, if this simlib simulates that very run (its id, from the same
    rules and simlib versions): mending it under other rules would write another run, not this one."""
    if record.game not in games():
        raise SimlibError(f"game {record.game!r} is not registered here")
    game = games()[record.game]
    config = RunConfig.from_json(record.row["config"], game)
    if config.run_id(game.rules_versions()) != record.run_id:
        raise SimlibError(f"it was simulated by simlib {record.row['simlib_version']} under rules "
                          f"{record.row['rules_versions']}; this simlib would write another run: simulate again "
                          f"with that version, or remove its folders")
    return config


def _remove_wrong_files(lake: Lake, record) -> None:
    """Part files of the right size whose contents differ from the manifest: the runner takes a run whose sizes
    match for complete, so these go first, to be simulated again."""
    manifest = (record.row or {}).get("manifest")
    wanted = expected_files(manifest) if manifest else {}
    for name, path in record.paths.items():
        if name in wanted and describe_file(lake, path) != wanted[name]:
            lake.remove(path)
