"""The `simlib` command line."""

from __future__ import annotations

import argparse
import math
import os
import shutil
import sys
import textwrap
import time
from pathlib import Path

from .analysis import SQL_TIMEOUT
from .core import __version__, limits
from .core.config import RunConfig, check_players
from .core.errors import SimlibError
from .core.game import Game
from .core.lake import Lake
from .core.params import check_settable, read_overrides
from .core.registry import games, get_game


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # one clear line, exit status 2
        # argparse quotes arguments as typed: a line break or other control character in one is written escaped
        raise SimlibError("".join(c if c.isprintable() else repr(c)[1:-1] for c in message))


def _integer(text: str) -> int:
    """An integer flag's value; argparse's own message ("invalid int value") does not read well."""
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not (value >= 0 and math.isfinite(value)):
        raise argparse.ArgumentTypeError(f"{text!r}: give 0 or more seconds (0: no limit)")
    return value


def _within(flag: str, limit):
    """A number flag's type: its value parsed (an integer, or a number for a real limit) and checked against its
    range in simlib/core/limits.py, one line that says the range, before anything is allocated or written."""
    def parse(text: str):
        if limit.integer:
            return limit.check(flag, _integer(text))
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
        return limit.check(flag, value)
    return parse


def _lake_location(text: str) -> str:
    if not text.strip():  # an empty path is the current folder: a lake's tables would land among its files
        raise argparse.ArgumentTypeError("give a folder or an object-store URL, not an empty string")
    return text


def _columns(header: tuple[str, ...], rows: list[tuple]) -> str:
    """Rows under a header, every column as wide as its longest cell; on a terminal the last column (free text)
    wrapped to its width and indented under itself, elsewhere one line a row (for grep)."""
    cells = [tuple(map(str, row)) for row in [header, *rows]]
    widths = [max(len(row[i]) for row in cells) for i in range(len(header) - 1)]
    indent = sum(widths) + 2 * len(widths)
    room = max(40, shutil.get_terminal_size().columns - indent) if sys.stdout.isatty() else 10**6
    lines = []
    for row in cells:
        lead = "".join(f"{cell:{width}s}  " for cell, width in zip(row, widths))
        text = textwrap.wrap(row[-1], room) or [""]
        lines += [(lead + text[0]).rstrip()] + [" " * indent + more for more in text[1:]]
    return "\n".join(lines)


def _cmd_games(args) -> None:
    rows = [(g.name, f"{g.min_players}-{g.max_players}", g.rules_version, g.title) for g in games().values()]
    print(_columns(("game", "players", "rules_version", "title"), rows))


def _cmd_policies(args) -> None:
    rows = []
    for info in get_game(args.game).policies().values():
        rows.append((info.name, "", "", info.description))
        rows += [("", key, f"{default:g}", info.param_docs.get(key, "")) for key, default in info.params.items()]
    print(_columns(("policy", "parameter", "default", "description"), rows))


def _cmd_params(args) -> None:
    params = get_game(args.game).parameters().values()
    rows = [(p.name, _shown(p.default), "derived" if p.derived else p.provenance, p.doc) for p in params]
    print(_columns(("parameter", "default", "provenance", "description"), rows))
    if any(p.derived for p in params):
        print("derived parameters are filled in from the others when a run is configured: they cannot be set")


def _shown(value) -> str:
    """A default as a designer types it with --option (true, not True; "" for an empty text)."""
    if isinstance(value, bool):
        return str(value).lower()
    return '""' if value == "" else str(value)


def _option_flags() -> dict[str, list[str]]:
    """The parameters `simlib simulate` takes as flags of their own (`flag` in a game's parameters.toml), each with
    its help text per game: {"rounds": ["mauer: Spielrunden per match"]}."""
    flags: dict[str, list[str]] = {}
    for game in games().values():
        for name, p in game.parameters().items():
            if p.flag:
                flags.setdefault(name, []).append(f"{game.name}: {p.flag}")
    return flags


def _options(args, game: Game) -> dict:
    """The rule parameters a command sets with --params FILE, a parameter's own flag (--rounds) and --option
    NAME=VALUE, coerced. A parameter set twice to different values is an error, not a silent choice; a derived
    one is refused (it would be replaced when the run is configured)."""
    given = []  # (how the user said it, parameter, value)
    if args.params:
        given += [(f"{name} = {value!r} in {args.params}", name, value)
                  for name, value in read_overrides(args.params).items()]
    for name in _option_flags():  # every game's: another game's parameter is refused as any unknown one is
        value = getattr(args, f"option_{name}", None)
        if value is not None:
            given.append((f"--{name.replace('_', '-')} {value}", name, value))
    for item in args.option:
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            raise SimlibError(f"--option needs NAME=VALUE, got {item!r}")
        given.append((f"--option {item}", key.strip(), value.strip()))
    params = game.parameters()
    check_settable(game.name, params, [name for _, name, _ in given])
    options, said = {}, {}
    for how, name, value in given:
        value = params[name].coerce(value)
        if name in options and options[name] != value:
            raise SimlibError(f"{said[name]} and {how} set {name} differently: give it once")
        options[name], said[name] = value, how
    return options


def _add_lake_arg(p: argparse.ArgumentParser) -> None:
    p.add_argument("--lake", default="data/lake", type=_lake_location,
                   help="the lake: a folder, or an object-store URL such as s3://bucket/prefix (default data/lake)")


def _add_run_location_args(p: argparse.ArgumentParser) -> None:
    """Where a command's runs are simulated and written (simulate, batch, sweep); see docs/scaling.md."""
    _add_lake_arg(p)
    p.add_argument("--workers", type=_within("--workers", limits.WORKERS),
                   help="worker processes of the local executor (default: all cores)")
    p.add_argument("--executor", choices=("local", "dask"), default="local",
                   help="local: this machine's processes (default); dask: the workers of a Dask cluster")
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="the Dask scheduler, e.g. tcp://host:8786 (default: $SIMLIB_DASK_SCHEDULER)")


def _open_executor(args):
    from .core.executors import open_executor

    return open_executor(args.executor, args.scheduler, args.workers)


def _cmd_simulate(args) -> None:
    from .core.runner import compile_kernels, run
    from .core.summary import run_summary

    game = get_game(args.game)
    config = RunConfig.build(game, players=args.players, policies=args.policies.split(","), plays=args.plays,
                             seed=args.seed, options=_options(args, game), events=args.events)
    limits.check_parts(config.plays, args.shard_size)  # as run() does, but before minutes of compiling
    lake = Lake.at(args.lake)
    if args.executor == "local":  # Dask workers load their kernels where they run
        compile_kernels([config], args.workers)
    began = time.perf_counter()
    with _open_executor(args) as executor:
        result = run(config, lake, shard_size=args.shard_size, progress=not args.quiet, executor=executor)
    took = time.perf_counter() - began
    if result.already_complete:
        print(f"run {result.run_id} is already complete in {args.lake} (same configuration, same data)")
    else:
        parts = f"{result.shards_written} part{'s' if result.shards_written != 1 else ''}"
        print(f"wrote run {result.run_id} to {args.lake} ({parts}{', resumed' if result.resumed else ''}) "
              f"in {took:.1f} s")
    print(run_summary(lake, game, result.run_id, [str(p) for p in config.policies]))


def _cmd_batch(args) -> None:
    from .core.runner import compile_kernels, run
    from .core.summary import setup_words
    from .core.sweep import write_sweep
    from .design.batch import ladder_batch, read_batch, report_batch

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
    with _open_executor(args) as executor:
        for i, config in enumerate(todo, 1):
            result = run(config, lake, progress=not args.quiet, executor=executor)
            state = "already complete" if result.already_complete else "written"
            print(f"[{i}/{len(todo)}] {config.game} run {result.run_id}: "
                  f"{setup_words(get_game(config.game), config)}; {config.plays:,} plays "
                  f"({state})", flush=True)
        _batch_fixes(lake, fixes, executor)
    for sweep in sweeps:
        write_sweep(lake, sweep)
    print(f"batch of {len(todo)} runs ({len(sweeps)} sweeps, {len(fixes)} fix searches) done in "
          f"{time.perf_counter() - began:.1f} s; lake: {args.lake}")


def _cmd_sweep(args) -> int:
    from .core.runner import compile_kernels, run
    from .core.sweep import Sweep, parse_vary, write_sweep
    from .design.batch import sweep_runs

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
                  _options(args, game), args.events)
    runs = sweep_runs(sweep)
    lake = Lake.at(args.lake)
    if args.executor == "local":
        compile_kernels([config for config, _ in runs], args.workers)
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


def _cmd_tune(args) -> None:
    from .core.runner import compile_kernels, run
    from .design.metrics import canonical, estimate, play_values
    from .design.record import write_evaluation
    from .design.tune import Tune, answer_lines, parse_box, parse_targets, search

    game = get_game(args.game)
    tune = Tune(game, parse_box(game, args.vary), parse_targets(game, args.players, args.target), args.players,
                args.policies, args.budget, args.seed, args.trials, _options(args, game))
    lake = Lake.at(args.lake)
    trial, refine, confirm = tune.stage_plays()
    print(f"tune {tune.tune_id}: {tune.trials} trials of {trial:,} plays on seed {tune.seed}, the best 3 again with "
          f"{refine:,}, the best confirmed with {confirm:,} on seed {tune.seed + 1}", flush=True)
    if args.executor == "local":
        compile_kernels([tune.config({})], args.workers)

    with _open_executor(args) as executor:
        def evaluate(config):
            result = run(config, lake, progress=not args.quiet, executor=executor)
            values = play_values(lake, game, result.run_id)
            return {m: estimate(values, canonical(game, m)) for m in tune.targets}

        def said(e):
            write_evaluation(lake, tune, e)
            at = ", ".join(f"{k}={v:g}" if isinstance(v, float) else f"{k}={v}" for k, v in e.values.items())
            got = ", ".join(f"{m} {x.value:.4g} ({x.lo:.4g} to {x.hi:.4g})" for m, x in e.estimates.items())
            print(f"[{e.step + 1}] {e.stage} {at}: {got}; loss {e.loss:.3g}", flush=True)

        done = search(tune, evaluate, said)
    print("\n".join(answer_lines(tune, done)))
    simulated = {e.run_id: e.plays for e in done}
    print(f"{sum(simulated.values()):,} plays simulated in {len(simulated)} runs ({len(done)} evaluations: a value "
          f"proposed again reads its run back); lake: {args.lake}")


def _batch_fixes(lake: Lake, searches: list, executor) -> None:
    """A batch's fix searches (each game's, in order), each parameter's answer said when it is found."""
    from .design.fixes import find_fixes, lake_evaluator
    from .design.record import write_evaluation

    for i, search in enumerate(searches, 1):
        began, game = time.perf_counter(), search.game
        (metric,) = search.targets
        fixes = find_fixes([search], lake_evaluator(lake, game, metric, executor),
                           lambda search, e: write_evaluation(lake, search, e),
                           lambda dim, why: print(f"{dim.name}: skipped ({why})", flush=True))
        plays = sum(e.plays for fix in fixes for e in [*fix.searched, fix.confirmation] if e)
        print(f"[fixes {i}/{len(searches)}] {game.name} {search.dim}, {search.players} players "
              f"({search.lineup}): {plays:,} plays in {time.perf_counter() - began:.1f} s", flush=True)
        for fix in fixes:
            print("\n".join("  " + line for line in fix.lines()), flush=True)


def _cmd_fixes(args) -> None:
    from .analysis.tunes import candidate_ranges
    from .core.runner import compile_kernels
    from .design.fixes import find_fixes, fix_searches, lake_evaluator, unsearchable_words
    from .design.record import write_evaluation

    game = get_game(args.game)
    lake, options = Lake.at(args.lake), _options(args, game)
    check_settable(game.name, game.parameters(), args.skip)
    # Bad input refused before a kernel compiles or the lake is touched.
    searches = fix_searches(game, args.metric, args.players, args.policies, args.budget, args.seed, options,
                            args.only, set(args.skip), args.margin)
    if not searches and not candidate_ranges(game, set()):  # an answer, not bad input: Mauerbruch has only choices
        print(unsearchable_words(game) + "; nothing was run.")
        return
    if not searches:
        raise SimlibError(f"every number parameter of {game.name} is skipped or fixed: nothing to search")
    for search in searches:
        trial, _, left = search.stage_plays()
        print(f"{search.dim}: {search.trials} values of {trial:,} plays on seed {search.seed}, the nearest fair "
              f"confirmed on seed {search.seed + 1} with up to {left:,} (tune {search.tune_id})", flush=True)
    if args.executor == "local":
        compile_kernels([searches[0].config({})], args.workers)
    with _open_executor(args) as executor:
        def said(search, e):
            write_evaluation(lake, search, e)
            if not args.quiet:
                x = e.estimates[args.metric]
                print(f"  {e.stage} {', '.join(f'{k}={v}' for k, v in e.values.items())}: {args.metric} "
                      f"{x.value:+.4f} ({x.lo:+.4f} to {x.hi:+.4f}), {e.plays:,} plays", flush=True)

        def skipped(dim, why):
            print(f"{dim.name}: skipped ({why})", flush=True)

        fixes = find_fixes(searches, lake_evaluator(lake, game, args.metric, executor), said, skipped)
    print(f"fixes for {args.metric} at {args.players} players ({args.policies}), fair within "
          f"±{100 * args.margin:g} pp; fixes first, smallest change first:")
    for fix in fixes:
        print("\n".join("  " + line for line in fix.lines()))


def _cmd_sensitivity(args) -> None:
    from .core.runner import compile_kernels, run
    from .design import sensitivity as sa
    from .design.metrics import canonical, check_metric, estimate, play_values
    from .design.record import write_sensitivity
    from .design.tune import parse_box

    game = get_game(args.game)
    box, options = parse_box(game, args.vary), _options(args, game)
    check_players(game, args.players)  # before a metric is made per seat
    metrics = [check_metric(game, args.players, m) for m in args.metric]
    fixed = sorted({d.name for d in box} & set(options))
    if fixed:
        raise SimlibError(f"{', '.join(fixed)} is both varied and fixed (--option): give one")

    def build(values, seed=args.seed):
        return RunConfig.build(game, players=args.players, policies=args.policies.split(","), plays=args.plays,
                               seed=seed, options=options | values)

    points = sa.sample(box, args.method, args.size, args.seed)
    lake = Lake.at(args.lake)
    replays = f" and {len(box)} steps again on {sa.REPLICATES} fresh seeds (the noise floor)" \
        if args.method == "morris" else ""
    print(f"sensitivity ({args.method}): {len(points)} points of {args.plays:,} plays on seed {args.seed}{replays}",
          flush=True)
    if args.executor == "local":
        compile_kernels([build(sa.point_values(box, points[0]))], args.workers)
    with _open_executor(args) as executor:
        def evaluate(config):
            values = play_values(lake, game, run(config, lake, progress=False, executor=executor).run_id)
            return {m: estimate(values, canonical(game, m)) for m in metrics}

        results = sa.run_points(box, points, build, evaluate, metrics, args.seed)
        floors = sa.noise_floors(box, points, results, build, evaluate, args.seed) if args.method == "morris" else {}
    effects = sa.analyse(box, args.method, points, results, args.seed, floors)
    first = build(sa.point_values(box, points[0])).run_id(game.rules_versions())
    write_sensitivity(lake, game.name, first, sa.rows(effects, box, args, len(points), game, options))
    print(f"{'parameter':<16} {'metric':<18} {'index':<8} value ± half width of its 95% interval")
    for effect in effects:
        print(effect.words())


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


def _cmd_pipeline(args) -> int:
    from .analysis.pipeline import build

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
    from .analysis.sql import QueryError, run_query

    try:
        run_query(args.query, Lake.at(args.lake), Path(args.marts), args.format, args.output, args.max_rows,
                  args.timeout)
    except QueryError as exc:
        print(f"simlib: query error: {exc}", file=sys.stderr)
        return 1
    return 0


def _cmd_check(args) -> int:
    from .core.manifest import audit
    from .core.mend import mend

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


def _cmd_report(args) -> None:
    from .analysis.report import build_report

    steps = _Steps("report", every=0.0)  # a line a page
    try:
        pages = build_report(Lake.at(args.lake), Path(args.marts), Path(args.out), progress=steps)
    finally:
        steps.done()
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
    parser.add_argument("--version", action="version", version=f"simlib {__version__}",
                        help="print simlib's version and exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.add_parser("games", help="list the games").set_defaults(func=_cmd_games)
    p = sub.add_parser("policies", help="list a game's policies and their parameters")
    p.add_argument("game", help="a game (simlib games lists them)")
    p.set_defaults(func=_cmd_policies)
    p = sub.add_parser("params", help="list a game's rule parameters with provenance")
    p.add_argument("game", help="a game (simlib games lists them)")
    p.set_defaults(func=_cmd_params)

    p = sub.add_parser("simulate", help="simulate a batch of plays into the lake")
    p.add_argument("game", help="a game (simlib games lists them)")
    p.add_argument("--plays", type=_within("--plays", limits.PLAYS), required=True, help="number of plays")
    p.add_argument("--players", type=_integer, required=True, help="number of players")
    p.add_argument("--policies", required=True, help="one policy, or one per seat: a,b,c (name:param=value)")
    p.add_argument("--seed", type=_within("--seed", limits.SEED), default=0,
                   help="the run's seed (default 0); with the play index it fixes every draw")
    for name, helps in _option_flags().items():
        p.add_argument(f"--{name.replace('_', '-')}", dest=f"option_{name}", metavar="VALUE",
                       help=f"same as --option {name}=VALUE ({'; '.join(helps)})")
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE", help="override a rule parameter")
    p.add_argument("--params", metavar="FILE", help="TOML file of rule parameter overrides")
    p.add_argument("--events", action="store_true", help="also write the events table (much larger)")
    _add_run_location_args(p)
    p.add_argument("--shard-size", type=_within("--shard-size", limits.SHARD_SIZE), default=50_000,
                   help="plays per part file")
    p.add_argument("--quiet", action="store_true", help="no progress bar (on a terminal) or progress lines (in a log)")
    p.set_defaults(func=_cmd_simulate)

    p = sub.add_parser("batch", help="simulate a batch of runs (default: each game's report batch)")
    p.add_argument("game", nargs="?", help="only this game (default: all)")
    p.add_argument("--file", help="a batch TOML file instead of the game's report batch")
    p.add_argument("--ladder", action="store_true", help="each game's full skill ladder (its ladder_batch.toml) "
                                                         "instead of its report batch")
    p.add_argument("--scale", type=_within("--scale", limits.SCALE), default=1.0, help="multiply every run's plays")
    _add_run_location_args(p)
    p.add_argument("--quiet", action="store_true", help="no progress bar (on a terminal) or progress lines (in a log)")
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
    p.add_argument("--plays", type=_within("--plays", limits.PLAYS), required=True, help="plays per variant")
    p.add_argument("--seed", type=_within("--seed", limits.SEED), default=1,
                   help="the seed every run of the sweep shares (default 1)")
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                   help="a rule parameter fixed for every run")
    p.add_argument("--params", metavar="FILE", help="TOML file of rule parameters fixed for every run")
    p.add_argument("--events", action="store_true", help="also write the events table")
    _add_run_location_args(p)
    p.add_argument("--no-report", action="store_true", help="only simulate (no pipeline, no report)")
    p.add_argument("--marts", default="data/marts", help="where the marts go (default data/marts)")
    p.add_argument("--db", default="data/simlib.duckdb", help="the DuckDB file (default data/simlib.duckdb)")
    p.add_argument("--out", default="reports", help="where the report goes (default reports)")
    p.add_argument("--quiet", action="store_true", help="no progress bar (on a terminal) or progress lines (in a log)")
    p.set_defaults(func=_cmd_sweep)

    p = sub.add_parser("tune", help="search rule values that bring metrics to their targets, then confirm them "
                                    "on fresh plays")
    p.add_argument("game", help="a game (simlib games lists them)")
    p.add_argument("--vary", action="append", required=True, metavar="NAME=LO..HI",
                   help="a rule parameter and its range (NAME=LO..HI) or values (NAME=A,B,...); repeat for several")
    p.add_argument("--target", action="append", required=True, metavar="METRIC=VALUE",
                   help="a metric and its target (seat0_advantage, balance, mean_length, mean_score, seatK_score, "
                        "the game's headline); repeat for several")
    p.add_argument("--players", type=_integer, required=True, help="number of players")
    p.add_argument("--policies", required=True, help="the line-up: one policy, or one per seat (a,b,c)")
    p.add_argument("--budget", type=_within("--budget", limits.BUDGET), required=True,
                   help="plays in all: half for the search, a quarter to refine, a quarter to confirm")
    p.add_argument("--trials", type=_within("--trials", limits.TRIALS), default=20,
                   help="the optimiser's trials (default 20)")
    p.add_argument("--seed", type=_within("--seed", limits.TUNE_SEED), default=1,
                   help="the search's seed; the confirmation plays seed + 1")
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                   help="a rule parameter fixed for every run")
    p.add_argument("--params", metavar="FILE", help="TOML file of rule parameters fixed for every run")
    _add_run_location_args(p)
    p.add_argument("--quiet", action="store_true", help="no progress bar (on a terminal) or progress lines (in a log)")
    p.set_defaults(func=_cmd_tune)

    p = sub.add_parser("fixes", help="each rule parameter alone: the values where seat 0's advantage changes sign, "
                                     "and the nearest fair confirmed within a margin on fresh plays")
    p.add_argument("game", help="a game (simlib games lists them)")
    p.add_argument("--metric", default="seat0_advantage", help="the metric to make fair: seat0_advantage (fair: 0)")
    p.add_argument("--players", type=_integer, required=True, help="number of players")
    p.add_argument("--policies", required=True, help="the line-up: one policy, or one per seat (a,b,c)")
    p.add_argument("--budget", type=_within("--budget", limits.BUDGET), default=100_000,
                   help="plays per parameter (default 100,000): half for the search (every value of a range of at "
                        "most 64), the confirmation what it needs of the rest")
    p.add_argument("--margin", type=_within("--margin", limits.MARGIN), default=0.01,
                   help="fair means within this of the fair value, shown by TOST on fresh plays (default 0.01: "
                        "seat 0's advantage within ±1 percentage point)")
    p.add_argument("--seed", type=_within("--seed", limits.seeds(1)), default=1,
                   help="the search's seed; the confirmation plays seed + 1")
    p.add_argument("--only", action="append", default=[], metavar="NAME[=LO..HI]",
                   help="search this parameter (over this range of its allowed values); repeat for several")
    p.add_argument("--skip", action="append", default=[], metavar="NAME", help="a parameter left out")
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                   help="a rule parameter fixed for every run (and so not searched)")
    p.add_argument("--params", metavar="FILE", help="TOML file of rule parameters fixed for every run")
    _add_run_location_args(p)
    p.add_argument("--quiet", action="store_true", help="only the answer")
    p.set_defaults(func=_cmd_fixes)

    p = sub.add_parser("sensitivity", help="which parameters move which metrics: Morris screening or Sobol "
                                           "indices (SALib) over a box of rule parameters")
    p.add_argument("game", help="a game (simlib games lists them)")
    p.add_argument("--vary", action="append", required=True, metavar="NAME=LO..HI",
                   help="a rule parameter and its range, or its values A,B,... (a choice); repeat for several")
    p.add_argument("--metric", action="append", required=True, help="a metric (as simlib tune's); repeat for several")
    p.add_argument("--method", default="morris", help="morris (screening, mu* and sigma) or sobol (S1 and ST)")
    p.add_argument("--size", type=_within("--size", limits.SIZE), default=10,
                   help="Morris trajectories (default 10), or Sobol base points (a power of 2)")
    p.add_argument("--players", type=_integer, required=True, help="number of players")
    p.add_argument("--policies", required=True, help="the line-up: one policy, or one per seat (a,b,c)")
    p.add_argument("--plays", type=_within("--plays", limits.PLAYS), required=True, help="plays at each point")
    p.add_argument("--seed", type=_within("--seed", limits.SEED), default=1,
                   help="the seed every point plays (default 1)")
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                   help="a rule parameter fixed for every run")
    p.add_argument("--params", metavar="FILE", help="TOML file of rule parameters fixed for every run")
    _add_run_location_args(p)
    p.set_defaults(func=_cmd_sensitivity)

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
    p.add_argument("--max-rows", type=_integer, default=40, help="rows shown in table format (default 40)")
    p.add_argument("--timeout", type=_seconds, default=SQL_TIMEOUT,
                   help=f"stop a query after this many seconds (default {SQL_TIMEOUT:g}; 0: no limit)")
    _add_lake_arg(p)
    p.add_argument("--marts", default="data/marts", help="the marts folder (default data/marts)")
    p.set_defaults(func=_cmd_sql)

    p = sub.add_parser("check", help="audit the lake: every complete run's part files against its manifest")
    _add_lake_arg(p)
    p.add_argument("--quick", action="store_true", help="compare sizes only (as every query does), not checksums")
    p.add_argument("--mend", action="store_true",
                   help="re-simulate the parts of damaged and incomplete runs (identical to the lost ones)")
    p.add_argument("--quiet", action="store_true", help="no progress bar (on a terminal) or progress lines (in a log)")
    p.set_defaults(func=_cmd_check)

    p = sub.add_parser("report", help="write the HTML report from the marts")
    _add_lake_arg(p)
    p.add_argument("--marts", default="data/marts", help="the marts folder (default data/marts)")
    p.add_argument("--out", default="reports", help="where index.html and the game pages go (default reports)")
    p.set_defaults(func=_cmd_report)

    p = sub.add_parser("replay", help="re-simulate one play of a run and print it step by step")
    p.add_argument("game", help="a game (simlib games lists them)")
    p.add_argument("--run", required=True, help="the run id (see the runs table)")
    p.add_argument("--play", type=_integer, required=True, help="the play index within the run")
    _add_lake_arg(p)
    p.set_defaults(func=_cmd_replay)

    p = sub.add_parser("schema", help="print the lake's documented columns and views (Markdown; docs/lake.md)")
    p.set_defaults(func=_cmd_schema)
    return parser


def main(argv: list[str] | None = None) -> int:
    try:
        parser = build_parser()
        try:
            args = parser.parse_args(argv)
        except SystemExit as done:  # --help and --version print and exit: a status, here as for any command
            return done.code or 0
        if args.command is None:  # bare `simlib`: what it can do, on stdout (asked for, not an error)
            parser.print_help()
            return 0
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
