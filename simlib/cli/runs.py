"""Runs into the lake: `simlib simulate` (one run), `batch` (a batch file's runs, sweeps and fix searches) and
`sweep` (what if? one run per rule variant, compared with a baseline)."""

from __future__ import annotations

import time
from pathlib import Path

from ..core import limits
from ..core.config import RunConfig
from ..core.errors import SimlibError
from ..core.lake import Lake
from ..core.registry import games, get_game
from . import flags
from .lake import cmd_pipeline, cmd_report


def add_commands(sub) -> None:
    p = sub.add_parser("simulate", help="simulate a batch of plays into the lake")
    flags.add_game(p)
    flags.add_plays(p, "number of plays")
    flags.add_players(p)
    flags.add_policies(p)
    flags.add_seed(p, "the run's seed; with the play index it fixes every draw")
    flags.add_options(p, "the run", own_flags=True)
    flags.add_events(p)
    flags.add_run_location(p)
    p.add_argument("--shard-size", type=flags.within("--shard-size", limits.SHARD_SIZE), default=50_000,
                   help="plays per part file")
    flags.add_quiet(p)
    p.set_defaults(func=_cmd_simulate)

    p = sub.add_parser("batch", help="simulate a batch of runs (default: each game's report batch)")
    flags.add_game(p, optional=True)
    p.add_argument("--file", help="a batch TOML file instead of the game's report batch")
    p.add_argument("--ladder", action="store_true", help="each game's full skill ladder (its ladder_batch.toml) "
                                                         "instead of its report batch")
    p.add_argument("--scale", type=flags.within("--scale", limits.SCALE), default=1.0,
                   help="multiply every run's plays")
    flags.add_run_location(p)
    flags.add_quiet(p)
    p.set_defaults(func=_cmd_batch)

    p = sub.add_parser("sweep", help="what if? one run per rule variant on one seed, compared with a baseline, "
                                     "then the marts and the report's What-if page")
    flags.add_game(p)
    p.add_argument("--vary", action="append", required=True, metavar="NAME=V1,V2,...",
                   help="a rule parameter and its values (repeat to cross several)")
    p.add_argument("--base", action="append", default=[], metavar="NAME=VALUE",
                   help="the baseline's value of a parameter (default: the game's default)")
    flags.add_players(p, several=True)
    flags.add_policies(p, several=True)
    flags.add_plays(p, "plays per variant")
    flags.add_seed(p, "the seed every run of the sweep shares")
    flags.add_options(p)
    flags.add_events(p)
    flags.add_run_location(p)
    p.add_argument("--no-report", action="store_true", help="only simulate (no pipeline, no report)")
    flags.add_marts(p)
    flags.add_db(p)
    flags.add_out(p)
    flags.add_quiet(p)
    p.set_defaults(func=_cmd_sweep)

    p = sub.add_parser("compile", help="compile every game's kernels now, scripted and search (once per machine; "
                                       "simulate and batch compile what they need anyway)")
    flags.add_game(p, optional=True)
    flags.add_workers(p)
    p.set_defaults(func=_cmd_compile)


def _cmd_simulate(args) -> None:
    from ..core.runner import compile_kernels, run
    from ..core.summary import run_summary

    game = get_game(args.game)
    config = RunConfig.build(game, players=args.players, policies=args.policies.split(","), plays=args.plays,
                             seed=args.seed, options=flags.options(args, game), events=args.events,
                             standings=args.standings)
    limits.check_parts(config.plays, args.shard_size)  # as run() does, but before minutes of compiling
    lake = Lake.at(args.lake)
    if args.executor == "local":  # Dask workers load their kernels where they run
        compile_kernels([config], args.workers)
    began = time.perf_counter()
    with flags.open_executor(args) as executor:
        result = run(config, lake, shard_size=args.shard_size, progress=not args.quiet, executor=executor)
    took = time.perf_counter() - began
    if result.already_complete:
        print(f"run {result.run_id} is already complete in {args.lake} (same configuration, same data)")
    else:
        parts = f"{result.shards_written} part{'s' if result.shards_written != 1 else ''}"
        print(f"wrote run {result.run_id} to {args.lake} ({parts}{', resumed' if result.resumed else ''}) "
              f"in {took:.1f} s")
    print(run_summary(lake, game, result.run_id, [str(p) for p in config.policies]))


def _cmd_compile(args) -> None:
    from ..core.runner import compile_kernels

    configs = []
    for name in [args.game] if args.game else list(games()):
        game = get_game(name)
        lineups = [["random"]] + ([["search"]] if "search" in game.policies() else [])
        # plays: any count the game accepts (a Die Mauer match is 5 Spielrunden); the compile plays one block
        configs += [RunConfig.build(game, players=game.min_players, policies=policies, plays=1000, seed=0)
                    for policies in lineups]
    compile_kernels(configs, args.workers)
    titles = sorted({get_game(c.game).title.split(" (")[0] for c in configs})
    print(f"compiled and cached: the kernels of {', '.join(titles)}")


def _run_all(configs: list[RunConfig], lake: Lake, args, executor, roles: list[str] | None = None) -> None:
    """Each configuration run into the lake, and a line that says its set-up in words."""
    from ..core.runner import run
    from ..core.summary import setup_words

    for i, config in enumerate(configs, 1):
        result = run(config, lake, progress=not args.quiet, executor=executor)
        state = "already complete" if result.already_complete else "written"
        role = f"{roles[i - 1]} " if roles else ""
        print(f"[{i}/{len(configs)}] {role}{config.game} run {result.run_id}: "
              f"{setup_words(get_game(config.game), config)}; {config.plays:,} plays ({state})", flush=True)


def _cmd_batch(args) -> None:
    from ..core.runner import compile_kernels
    from ..core.sweep import write_sweep
    from ..design.batch import ladder_batch, read_batch, report_batch
    from .design import batch_fixes

    if args.file and not args.game:  # a batch file's runs are one game's
        raise SimlibError("--file needs a game: simlib batch GAME --file FILE")
    if args.file and args.ladder:
        raise SimlibError("--file and --ladder: give one (--ladder reads each game's ladder_batch.toml)")
    names = [args.game] if args.game else list(games())
    todo, sweeps, fixes = [], [], []
    for name in names:
        game = get_game(name)
        path = Path(args.file) if args.file else ladder_batch(game) if args.ladder else report_batch(game)
        if path is not None:
            batch = read_batch(game, path, args.scale)
            todo, sweeps, fixes = todo + batch.configs, sweeps + batch.sweeps, fixes + batch.fixes
    began = time.perf_counter()
    lake = Lake.at(args.lake)
    if args.executor == "local":  # Dask workers load their kernels where they run
        compile_kernels(todo + [search.config({}) for search in fixes], args.workers)
    with flags.open_executor(args) as executor:
        _run_all(todo, lake, args, executor)
        batch_fixes(lake, fixes, executor)
    for sweep in sweeps:
        write_sweep(lake, sweep)
    print(f"batch of {len(todo)} runs ({len(sweeps)} sweeps, {len(fixes)} fix searches) done in "
          f"{time.perf_counter() - began:.1f} s; lake: {args.lake}")


def _cmd_sweep(args) -> int:
    from ..core.runner import compile_kernels
    from ..core.sweep import Sweep, parse_vary, write_sweep
    from ..design.batch import sweep_runs

    game = get_game(args.game)
    base = {}
    for item in args.base:
        key, eq, value = item.partition("=")
        if not eq:
            raise SimlibError(f"--base needs name=value, got {item!r}")
        base[key.strip()] = value.strip()
    sweep = Sweep(game, parse_vary(args.vary), args.players, args.policies, args.plays, args.seed, base,
                  flags.options(args, game), args.events)
    runs = sweep_runs(sweep)
    lake = Lake.at(args.lake)
    if args.executor == "local":
        compile_kernels([config for config, _ in runs], args.workers)
    with flags.open_executor(args) as executor:
        _run_all([config for config, _ in runs], lake, args, executor,
                 ["baseline" if row["is_baseline"] else "variant" for _, row in runs])
    write_sweep(lake, sweep)
    print(f"sweep {sweep.sweep_id}: {len(runs)} runs on seed {sweep.seed} in {lake}")
    if args.no_report:
        return 0
    status = cmd_pipeline(args)
    cmd_report(args)
    return status
