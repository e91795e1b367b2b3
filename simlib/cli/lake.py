"""The lake and what is built over it: `simlib pipeline`, `sql`, `check`, `report` and `replay`."""

from __future__ import annotations

import shutil
import sys
import time
from pathlib import Path

from ..analysis import SQL_TIMEOUT
from ..core.config import RunConfig
from ..core.errors import SimlibError
from ..core.lake import Lake
from ..core.registry import get_game
from . import flags


def add_commands(sub) -> None:
    p = sub.add_parser("pipeline", help="build the marts over the lake and run their data tests")
    flags.add_lake(p)
    flags.add_marts(p)
    flags.add_db(p)
    p.set_defaults(func=cmd_pipeline)

    p = sub.add_parser("sql", help="run a read-only SQL query over the lake and the marts (views: docs/lake.md)")
    p.add_argument("query", help="one SELECT (or EXPLAIN) statement; views: runs, games, seats, events, ..., "
                                 "<game>_<table> such as mauer_seats, and every mart")
    p.add_argument("--format", choices=("table", "csv", "json", "parquet"), default="table",
                   help="table (readable, on the terminal), csv, json or parquet (needs --output)")
    p.add_argument("--output", metavar="FILE", help="write the result to this file instead of the terminal")
    p.add_argument("--max-rows", type=flags.integer, default=40,
                   help="rows shown in table format, 1 to 1,000,000 (default 40)")
    p.add_argument("--timeout", type=flags.seconds, default=SQL_TIMEOUT,
                   help=f"stop a query after this many seconds (default {SQL_TIMEOUT:g}; 0: no limit)")
    flags.add_lake(p)
    flags.add_marts(p)
    p.set_defaults(func=_cmd_sql)

    p = sub.add_parser("check", help="audit the lake: every complete run's part files against its manifest")
    flags.add_lake(p)
    p.add_argument("--quick", action="store_true", help="compare sizes only (as every query does), not checksums")
    p.add_argument("--mend", action="store_true",
                   help="re-simulate the parts of damaged and incomplete runs (identical to the lost ones)")
    flags.add_quiet(p)
    p.set_defaults(func=_cmd_check)

    p = sub.add_parser("report", help="write the HTML report from the marts")
    flags.add_lake(p)
    flags.add_marts(p)
    flags.add_out(p)
    p.set_defaults(func=cmd_report)

    p = sub.add_parser("replay", help="re-simulate one play of a run and print it step by step")
    flags.add_game(p)
    p.add_argument("--run", required=True, help="the run id (see the runs table)")
    p.add_argument("--play", type=flags.integer, required=True, help="the play index within the run")
    flags.add_lake(p)
    p.set_defaults(func=_cmd_replay)


class _Steps:
    """What a long command is doing, on stderr: on a terminal one line rewritten in place, in a log a line at
    most every `every` seconds (the last step is always said by the command's own summary)."""

    def __init__(self, what: str, every: float = 5.0):
        self.what, self.every, self.said = what, every, 0.0
        self.terminal = sys.stderr.isatty()

    def __call__(self, text: str) -> None:
        if self.terminal:
            width = shutil.get_terminal_size().columns - 1
            print(f"\r\033[K{self.what}: {text}"[:width + 4], end="", file=sys.stderr, flush=True)
        elif time.monotonic() - self.said >= self.every:
            self.said = time.monotonic()
            print(f"{self.what}: {text}", file=sys.stderr, flush=True)

    def done(self) -> None:
        if self.terminal:
            print("\r\033[K", end="", file=sys.stderr, flush=True)


def cmd_pipeline(args) -> int:
    from ..analysis.pipeline import build

    steps = _Steps("pipeline")
    try:
        result = build(Lake.at(args.lake), Path(args.marts), Path(args.db), progress=steps)
    finally:
        steps.done()
    print(f"built {len(result.marts)} marts over {result.runs} runs ({result.runs_computed} new) into {args.marts} "
          f"and {args.db} in {result.seconds:.1f} s; {result.tests_run} data tests, "
          f"{len(result.test_failures)} failed")
    for failure in result.test_failures:
        print(f"  FAIL {failure}", file=sys.stderr)
    for line in result.left_out:
        print(f"simlib: {line}", file=sys.stderr)
    return 1 if result.test_failures or result.left_out else 0


def _cmd_sql(args) -> int:
    from ..analysis.sql import QueryError, run_query

    try:
        run_query(args.query, Lake.at(args.lake), Path(args.marts), args.format, args.output, args.max_rows,
                  args.timeout)
    except QueryError as exc:
        print(f"simlib: query error: {exc}", file=sys.stderr)
        return 1
    return 0


def _cmd_check(args) -> int:
    from ..core.manifest import audit
    from ..core.mend import mend

    lake = Lake.at(args.lake)
    if not lake.fs.isdir(lake.root):
        raise SimlibError(f"no lake at {lake.url(lake.root)}: no such folder")
    found = audit(lake, deep=not args.quick)
    how = "sizes" if args.quick else "sizes, rows and checksums"
    print(f"lake {lake}: {len(found.verified)} complete runs match their manifests ({how}); "
          f"{len(found.damaged)} damaged, {len(found.incomplete)} incomplete, {len(found.orphans)} orphaned")
    for line in [*found.damaged.values(), *found.incomplete.values(), *found.orphans.values()]:
        print(f"  {line}")
    if args.mend:
        return mend(lake, found, progress=not args.quiet)
    if found.damaged or found.incomplete:
        print("mend with: simlib check --mend (re-simulates what is missing or wrong; the keyed draws make it "
              "identical)")
    return 1 if found.problems else 0


def cmd_report(args) -> None:
    from ..analysis.report import build_report

    steps = _Steps("report", every=0.0)  # a line a page
    try:
        pages = build_report(Lake.at(args.lake), Path(args.marts), Path(args.out), progress=steps)
    finally:
        steps.done()
    print(f"wrote {Path(args.out) / 'index.html'} with {len(pages)} game page(s)")


def _cmd_replay(args) -> int:
    from ..core.lake import find_run
    from ..core.replay import compare_with_lake

    game = get_game(args.game)
    lake = Lake.at(args.lake)
    row = find_run(lake, game.name, args.run)
    config = RunConfig.from_json(row["config"], game)
    if not 0 <= args.play < config.plays:
        raise SimlibError(f"run {args.run} has plays 0..{config.plays - 1}, not {args.play}")
    print(game.describe_play(config, args.play))
    mismatch = compare_with_lake(game, config, lake, args.run, args.play)
    if mismatch:
        print(f"simlib: replay differs from the lake in {mismatch}", file=sys.stderr)
        return 1
    print("replay matches the lake's rows for this play")
    return 0
