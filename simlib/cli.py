"""The `simlib` command line."""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

from .core.config import RunConfig
from .core.errors import SimlibError
from .core.lake import Lake
from .core.params import read_overrides
from .core.registry import games, get_game


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # one clear line, exit status 2
        raise SimlibError(message)


def _cmd_games(args) -> None:
    for game in games().values():
        print(f"{game.name:10s} {game.title} ({game.min_players}-{game.max_players} players, "
              f"rules version {game.rules_version})")


def _cmd_policies(args) -> None:
    for info in get_game(args.game).policies().values():
        print(f"{info.name:8s} {info.description}")
        for key, default in info.params.items():
            print(f"{'':8s}   {key}={default:g}: {info.param_docs.get(key, '')}")


def _cmd_params(args) -> None:
    for p in get_game(args.game).parameters().values():
        provenance = "derived" if p.derived else p.provenance
        print(f"{p.name:16s} {p.default!s:10s} {provenance:9s} {p.doc}")


def _options(args) -> dict:
    options = dict(read_overrides(args.params)) if args.params else {}
    for item in args.option:
        key, eq, value = item.partition("=")
        if not eq:
            raise SimlibError(f"--option needs name=value, got {item!r}")
        options[key.strip()] = value.strip()
    for game in games().values():
        for name in game.option_flags:
            value = getattr(args, f"option_{name}", None)
            if value is not None:
                options[name] = value
    return options


def _add_lake_arg(p: argparse.ArgumentParser) -> None:
    p.add_argument("--lake", default="data/lake",
                   help="the lake: a folder, or an object-store URL such as s3://bucket/prefix (default data/lake)")


def _add_run_location_args(p: argparse.ArgumentParser) -> None:
    """Where a command's runs are simulated and written (simulate, batch, sweep); see docs/scaling.md."""
    _add_lake_arg(p)
    p.add_argument("--workers", type=int, help="worker processes of the local executor (default: all cores)")
    p.add_argument("--executor", choices=("local", "dask"), default="local",
                   help="local: this machine's processes (default); dask: the workers of a Dask cluster")
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="the Dask scheduler, e.g. tcp://host:8786 (default: $SIMLIB_DASK_SCHEDULER)")


def _open_executor(args):
    from .core.executors import open_executor

    return open_executor(args.executor, args.scheduler, args.workers)


def _cmd_simulate(args) -> None:
    from .core.runner import run
    from .core.summary import run_summary

    game = get_game(args.game)
    config = RunConfig.build(game, players=args.players, policies=args.policies.split(","), plays=args.plays,
                             seed=args.seed, options=_options(args), events=args.events)
    lake = Lake.at(args.lake)
    began = time.perf_counter()
    with _open_executor(args) as executor:
        result = run(config, lake, shard_size=args.shard_size, progress=not args.quiet, executor=executor)
    took = time.perf_counter() - began
    if result.already_complete:
        print(f"run {result.run_id} is already complete in {args.lake} (same configuration, same data)")
    else:
        print(f"wrote run {result.run_id} to {args.lake} ({result.shards_written} parts"
              f"{', resumed' if result.resumed else ''}) in {took:.1f} s")
    print(run_summary(lake, game.name, result.run_id))


def _cmd_batch(args) -> None:
    from .core.batch import read_batch
    from .core.runner import compile_kernels, run
    from .core.sweep import write_sweep

    names = [args.game] if args.game else list(games())
    todo, sweeps = [], []
    for name in names:
        game = get_game(name)
        path = Path(args.file) if args.file else game.report_batch()
        if path is not None:
            batch = read_batch(game, path, args.scale)
            todo, sweeps = todo + batch.configs, sweeps + batch.sweeps
    began = time.perf_counter()
    lake = Lake.at(args.lake)
    if args.executor == "local":  # Dask workers load their kernels where they run
        compile_kernels(todo, args.workers)
    with _open_executor(args) as executor:
        for i, config in enumerate(todo, 1):
            result = run(config, lake, progress=not args.quiet, executor=executor)
            state = "already complete" if result.already_complete else "written"
            print(f"[{i}/{len(todo)}] {config.game} run {result.run_id}: {config.players} players, "
                  f"{','.join(p.name for p in config.policies)}, {config.plays:,} plays ({state})", flush=True)
    for sweep in sweeps:
        write_sweep(lake, sweep)
    print(f"batch of {len(todo)} runs ({len(sweeps)} sweeps) done in {time.perf_counter() - began:.1f} s; "
          f"lake: {args.lake}")


def _cmd_sweep(args) -> int:
    from .core.runner import run
    from .core.sweep import Sweep, parse_vary, write_sweep

    game = get_game(args.game)
    try:
        players = [int(n) for n in args.players.split(",")]
    except ValueError:
        raise SimlibError(f"--players takes numbers, comma-separated, not {args.players!r}") from None
    base = {}
    for item in args.base:
        key, eq, value = item.partition("=")
        if not eq:
            raise SimlibError(f"--base needs name=value, got {item!r}")
        base[key.strip()] = value.strip()
    sweep = Sweep(game, parse_vary(args.vary), players, args.policies, args.plays, args.seed, base,
                  _options(args), args.events)
    runs = sweep.runs()
    lake = Lake.at(args.lake)
    with _open_executor(args) as executor:
        for i, (config, row) in enumerate(runs, 1):
            result = run(config, lake, progress=not args.quiet, executor=executor)
            state = "already complete" if result.already_complete else "written"
            role = "baseline" if row["is_baseline"] else "variant"
            print(f"[{i}/{len(runs)}] {role} {row['variant']}, {config.players} players, {row['policies']}: "
                  f"run {result.run_id} ({state})", flush=True)
    write_sweep(lake, sweep)
    print(f"sweep {sweep.sweep_id}: {len(runs)} runs on seed {sweep.seed} in {lake}")
    if args.no_report:
        return 0
    status = _cmd_pipeline(args)
    _cmd_report(args)
    return status


def _cmd_pipeline(args) -> int:
    from .analysis.pipeline import build

    result = build(Lake.at(args.lake), Path(args.marts), Path(args.db))
    print(f"built {len(result.marts)} marts over {result.runs} runs ({result.runs_computed} new) into {args.marts} "
          f"and {args.db} in {result.seconds:.1f} s; {result.tests_run} data tests, "
          f"{len(result.test_failures)} failed")
    for failure in result.test_failures:
        print(f"  FAIL {failure}", file=sys.stderr)
    return 1 if result.test_failures else 0


def _cmd_sql(args) -> int:
    from .analysis.sql import QueryError, run_query

    try:
        run_query(args.query, Lake.at(args.lake), Path(args.marts), args.format, args.output, args.max_rows)
    except QueryError as exc:
        print(f"simlib: query error: {exc}", file=sys.stderr)
        return 1
    return 0


def _cmd_report(args) -> None:
    from .analysis.report import build_report

    pages = build_report(Lake.at(args.lake), Path(args.marts), Path(args.out))
    print(f"wrote {Path(args.out) / 'index.html'} with {len(pages)} game page(s)")


def _cmd_replay(args) -> int:
    from .core.lake import find_run
    from .core.replay import compare_with_lake

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


def _cmd_schema(args) -> None:
    from .analysis.duck import views_markdown
    from .core.docs import lake_markdown

    print(lake_markdown())
    print(views_markdown())


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="simlib", description="Simulate board games in batches and analyse their balance.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    sub.add_parser("games", help="list the games").set_defaults(func=_cmd_games)
    p = sub.add_parser("policies", help="list a game's policies and their parameters")
    p.add_argument("game", help="a game (simlib games lists them)")
    p.set_defaults(func=_cmd_policies)
    p = sub.add_parser("params", help="list a game's rule parameters with provenance")
    p.add_argument("game", help="a game (simlib games lists them)")
    p.set_defaults(func=_cmd_params)

    p = sub.add_parser("simulate", help="simulate a batch of plays into the lake")
    p.add_argument("game", help="a game (simlib games lists them)")
    p.add_argument("--plays", type=int, required=True, help="number of plays")
    p.add_argument("--players", type=int, required=True, help="number of players")
    p.add_argument("--policies", required=True, help="one policy, or one per seat: a,b,c (name:param=value)")
    p.add_argument("--seed", type=int, default=0,
                   help="the run's seed (default 0); with the play index it fixes every draw")
    flags = {}
    for game in games().values():
        for name, help_text in game.option_flags.items():
            flags.setdefault(name, []).append(f"{game.name}: {help_text}")
    for name, helps in flags.items():
        p.add_argument(f"--{name.replace('_', '-')}", dest=f"option_{name}", metavar="VALUE",
                       help=f"same as --option {name}=VALUE ({'; '.join(helps)})")
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE", help="override a rule parameter")
    p.add_argument("--params", metavar="FILE", help="TOML file of rule parameter overrides")
    p.add_argument("--events", action="store_true", help="also write the events table (much larger)")
    _add_run_location_args(p)
    p.add_argument("--shard-size", type=int, default=50_000, help="plays per part file")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=_cmd_simulate)

    p = sub.add_parser("batch", help="simulate a batch of runs (default: each game's report batch)")
    p.add_argument("game", nargs="?", help="only this game (default: all)")
    p.add_argument("--file", help="a batch TOML file instead of the game's report batch")
    p.add_argument("--scale", type=float, default=1.0, help="multiply every run's plays")
    _add_run_location_args(p)
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=_cmd_batch)

    p = sub.add_parser("sweep", help="what if? one run per rule variant on one seed, compared with a baseline, "
                                     "then the marts and the report's What-if page")
    p.add_argument("game", help="a game (simlib games lists them)")
    p.add_argument("--vary", action="append", required=True, metavar="NAME=V1,V2,...",
                   help="a rule parameter and its values (repeat to cross several)")
    p.add_argument("--base", action="append", default=[], metavar="NAME=VALUE",
                   help="the baseline's value of a parameter (default: the game's default)")
    p.add_argument("--players", required=True, help="number of players, or several: 3,4")
    p.add_argument("--policies", action="append", required=True,
                   help="a line-up: one policy, or one per seat (a,b,c); repeat for several")
    p.add_argument("--plays", type=int, required=True, help="plays per variant")
    p.add_argument("--seed", type=int, default=1, help="the seed every run of the sweep shares (default 1)")
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                   help="a rule parameter fixed for every run")
    p.add_argument("--params", metavar="FILE", help="TOML file of rule parameters fixed for every run")
    p.add_argument("--events", action="store_true", help="also write the events table")
    _add_run_location_args(p)
    p.add_argument("--no-report", action="store_true", help="only simulate (no pipeline, no report)")
    p.add_argument("--marts", default="data/marts", help="where the marts go (default data/marts)")
    p.add_argument("--db", default="data/simlib.duckdb", help="the DuckDB file (default data/simlib.duckdb)")
    p.add_argument("--out", default="reports", help="where the report goes (default reports)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=_cmd_sweep)

    p = sub.add_parser("pipeline", help="build the marts over the lake and run their data tests")
    _add_lake_arg(p)
    p.add_argument("--marts", default="data/marts", help="where the marts go (default data/marts)")
    p.add_argument("--db", default="data/simlib.duckdb",
                   help="the DuckDB file with views and marts (default data/simlib.duckdb)")
    p.set_defaults(func=_cmd_pipeline)

    p = sub.add_parser("sql", help="run a read-only SQL query over the lake and the marts (views: docs/lake.md)")
    p.add_argument("query", help="one SELECT (or EXPLAIN) statement; views: runs, games, seats, events, ..., "
                                 "<game>_<table> such as mauer_seats, and every mart")
    p.add_argument("--format", choices=("table", "csv", "json", "parquet"), default="table",
                   help="table (readable, on the terminal), csv, json or parquet (needs --output)")
    p.add_argument("--output", metavar="FILE", help="write the result to this file instead of the terminal")
    p.add_argument("--max-rows", type=int, default=40, help="rows shown in table format (default 40)")
    _add_lake_arg(p)
    p.add_argument("--marts", default="data/marts", help="the marts folder (default data/marts)")
    p.set_defaults(func=_cmd_sql)

    p = sub.add_parser("report", help="write the HTML report from the marts")
    _add_lake_arg(p)
    p.add_argument("--marts", default="data/marts", help="the marts folder (default data/marts)")
    p.add_argument("--out", default="reports", help="where index.html and the game pages go (default reports)")
    p.set_defaults(func=_cmd_report)

    p = sub.add_parser("replay", help="re-simulate one play of a run and print it step by step")
    p.add_argument("game", help="a game (simlib games lists them)")
    p.add_argument("--run", required=True, help="the run id (see the runs table)")
    p.add_argument("--play", type=int, required=True, help="the play index within the run")
    _add_lake_arg(p)
    p.set_defaults(func=_cmd_replay)

    p = sub.add_parser("schema", help="print the lake's documented columns and views (Markdown; docs/lake.md)")
    p.set_defaults(func=_cmd_schema)
    return parser


def main(argv: list[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
        status = args.func(args)
        sys.stdout.flush()  # a closed pipe shows here, not at exit
    except SimlibError as exc:
        print(f"simlib: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("simlib: interrupted; finished parts are kept, rerun the same command to resume", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader of our output went away (`simlib replay ... | head`): stop quietly, as Unix tools do.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
    return status or 0


if __name__ == "__main__":
    sys.exit(main())
