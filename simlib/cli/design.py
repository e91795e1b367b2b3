"""Design searches: `simlib tune` (values that bring metrics to targets), `fixes` (each parameter alone: where is
seat 0 fair?) and `sensitivity` (which parameters move which metrics), all evaluated by design/evaluate.py."""

from __future__ import annotations

import time

from ..core import limits
from ..core.errors import SimlibError
from ..core.lake import Lake
from ..core.params import check_settable
from ..core.registry import get_game
from . import flags


def add_commands(sub) -> None:
    for add in (_add_tune, _add_fixes, _add_sensitivity):
        add(sub)


def _add_tune(sub) -> None:
    p = sub.add_parser("tune", help="search rule values that bring metrics to their targets, then confirm them "
                                    "on fresh plays")
    flags.add_game(p)
    p.add_argument("--vary", action="append", required=True, metavar="NAME=LO..HI",
                   help="a rule parameter and its range (NAME=LO..HI) or values (NAME=A,B,...); repeat for several")
    p.add_argument("--target", action="append", required=True, metavar="METRIC=VALUE",
                   help="a metric and its target (seat0_advantage, balance, mean_length, mean_score, seatK_score, "
                        "the game's headline); repeat for several")
    flags.add_players(p)
    flags.add_policies(p)
    p.add_argument("--budget", type=flags.within("--budget", limits.BUDGET), required=True,
                   help="plays in all: half for the search, a quarter to refine, a quarter to confirm")
    p.add_argument("--trials", type=flags.within("--trials", limits.TRIALS), default=20,
                   help="the optimiser's trials (default 20)")
    flags.add_seed(p, "the search's seed; the confirmation plays seed + 1", limits.TUNE_SEED)
    flags.add_options(p)
    flags.add_run_location(p)
    flags.add_quiet(p)
    p.set_defaults(func=_cmd_tune)


def _add_fixes(sub) -> None:
    p = sub.add_parser("fixes", help="each rule parameter alone: the values where seat 0's advantage changes sign, "
                                     "and the nearest fair confirmed within a margin on fresh plays")
    flags.add_game(p)
    p.add_argument("--metric", default="seat0_advantage", help="the metric to make fair: seat0_advantage (fair: 0)")
    flags.add_players(p)
    flags.add_policies(p)
    p.add_argument("--budget", type=flags.within("--budget", limits.BUDGET), default=100_000,
                   help="plays per parameter (default 100,000): half for the search (every value of a range of at "
                        "most 64), the confirmation what it needs of the rest")
    p.add_argument("--margin", type=flags.within("--margin", limits.MARGIN), default=0.01,
                   help="fair means within this of the fair value, shown by TOST on fresh plays (default 0.01: "
                        "seat 0's advantage within ±1 percentage point)")
    flags.add_seed(p, "the search's seed; the confirmation plays seed + 1", limits.seeds(1))
    p.add_argument("--only", action="append", default=[], metavar="NAME[=LO..HI]",
                   help="search this parameter (over this range of its allowed values); repeat for several")
    p.add_argument("--skip", action="append", default=[], metavar="NAME", help="a parameter left out")
    flags.add_options(p, "every run (and so not searched)")
    flags.add_run_location(p)
    flags.add_quiet(p, "only the answer")
    p.set_defaults(func=_cmd_fixes)


def _add_sensitivity(sub) -> None:
    p = sub.add_parser("sensitivity", help="which parameters move which metrics: Morris screening or Sobol "
                                           "indices (SALib) over a box of rule parameters")
    flags.add_game(p)
    p.add_argument("--vary", action="append", required=True, metavar="NAME=LO..HI",
                   help="a rule parameter and its range, or its values A,B,... (a choice); repeat for several")
    p.add_argument("--metric", action="append", required=True, help="a metric (as simlib tune's); repeat for several")
    p.add_argument("--method", default="morris", help="morris (screening, mu* and sigma) or sobol (S1 and ST)")
    p.add_argument("--size", type=flags.within("--size", limits.SIZE), default=10,
                   help="Morris trajectories (default 10), or Sobol base points (a power of 2)")
    flags.add_players(p)
    flags.add_policies(p)
    flags.add_plays(p, "plays at each point")
    flags.add_seed(p, "the seed every point plays")
    flags.add_options(p)
    flags.add_run_location(p)
    p.set_defaults(func=_cmd_sensitivity)


def _cmd_tune(args) -> None:
    from ..core.runner import compile_kernels
    from ..design.evaluate import lake_evaluator, one_at_a_time
    from ..design.record import write_evaluation
    from ..design.tune import Tune, answer_lines, parse_box, parse_targets, search

    game = get_game(args.game)
    tune = Tune(game, parse_box(game, args.vary), parse_targets(game, args.players, args.target), args.players,
                args.policies, args.budget, args.seed, args.trials, flags.options(args, game))
    lake = Lake.at(args.lake)
    trial, refine, confirm = tune.stage_plays()
    print(f"tune {tune.tune_id}: {tune.trials} trials of {trial:,} plays on seed {tune.seed}, the best 3 again with "
          f"{refine:,}, the best confirmed with {confirm:,} on seed {tune.seed + 1}", flush=True)
    if args.executor == "local":
        compile_kernels([tune.config({})], args.workers)

    def said(e):
        write_evaluation(lake, tune, e)
        at = ", ".join(f"{k}={v:g}" if isinstance(v, float) else f"{k}={v}" for k, v in e.values.items())
        got = ", ".join(f"{m} {x.value:.4g} ({x.lo:.4g} to {x.hi:.4g})" for m, x in e.estimates.items())
        print(f"[{e.step + 1}] {e.stage} {at}: {got}; loss {e.loss:.3g}", flush=True)

    with flags.open_executor(args) as executor:
        evaluate = lake_evaluator(lake, game, list(tune.targets), executor, progress=not args.quiet)
        done = search(tune, one_at_a_time(evaluate), said)
    print("\n".join(answer_lines(tune, done)))
    simulated = {e.run_id: e.plays for e in done}
    print(f"{sum(simulated.values()):,} plays simulated in {len(simulated)} runs ({len(done)} evaluations: a value "
          f"proposed again reads its run back); lake: {args.lake}")


def batch_fixes(lake: Lake, searches: list, executor) -> None:
    """A batch's fix searches (each game's, in order), each parameter's answer said when it is found."""
    from ..design.evaluate import lake_evaluator
    from ..design.fixes import find_fixes
    from ..design.record import write_evaluation

    for i, search in enumerate(searches, 1):
        began, game = time.perf_counter(), search.game
        fixes = find_fixes([search], lake_evaluator(lake, game, list(search.targets), executor),
                           lambda search, e: write_evaluation(lake, search, e), _say_skipped)
        plays = sum(e.plays for fix in fixes for e in [*fix.searched, fix.confirmation] if e)
        print(f"[fixes {i}/{len(searches)}] {game.name} {search.dim}, {search.players} players "
              f"({search.lineup}): {plays:,} plays in {time.perf_counter() - began:.1f} s", flush=True)
        for fix in fixes:
            print("\n".join("  " + line for line in fix.lines()), flush=True)


def _say_skipped(dim, why: str) -> None:
    print(f"{dim.name}: skipped ({why})", flush=True)


def _cmd_fixes(args) -> None:
    from ..analysis.tunes import candidate_ranges
    from ..core.runner import compile_kernels
    from ..design.evaluate import lake_evaluator
    from ..design.fixes import find_fixes, fix_searches, unsearchable_words
    from ..design.record import write_evaluation

    game = get_game(args.game)
    lake, fixed = Lake.at(args.lake), flags.options(args, game)
    check_settable(game.name, game.parameters(), args.skip)
    # Bad input refused before a kernel compiles or the lake is touched.
    searches = fix_searches(game, args.metric, args.players, args.policies, args.budget, args.seed, fixed,
                            only=args.only, skip=set(args.skip), margin=args.margin)
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

    def said(search, e):
        write_evaluation(lake, search, e)
        if not args.quiet:
            x = e.estimates[args.metric]
            print(f"  {e.stage} {', '.join(f'{k}={v}' for k, v in e.values.items())}: {args.metric} "
                  f"{x.value:+.4f} ({x.lo:+.4f} to {x.hi:+.4f}), {e.plays:,} plays", flush=True)

    with flags.open_executor(args) as executor:
        fixes = find_fixes(searches, lake_evaluator(lake, game, [args.metric], executor), said, _say_skipped)
    print(f"fixes for {args.metric} at {args.players} players ({args.policies}), fair within "
          f"±{100 * args.margin:g} pp; fixes first, smallest change first:")
    for fix in fixes:
        print("\n".join("  " + line for line in fix.lines()))


def _cmd_sensitivity(args) -> None:
    from ..core.runner import compile_kernels
    from ..design import sensitivity as sa
    from ..design.evaluate import lake_evaluator, one_at_a_time
    from ..design.record import write_sensitivity
    from ..design.tune import parse_box

    game = get_game(args.game)
    analysis = sa.Analysis(game, parse_box(game, args.vary), args.method, args.metric, args.players, args.policies,
                           args.plays, args.seed, args.size, flags.options(args, game))
    box = analysis.box
    points = sa.sample(box, args.method, args.size, args.seed)
    lake = Lake.at(args.lake)
    replays = f" and {len(box)} steps again on {sa.REPLICATES} fresh seeds (the noise floor)" \
        if args.method == "morris" else ""
    print(f"sensitivity ({args.method}): {len(points)} points of {args.plays:,} plays on seed {args.seed}{replays}",
          flush=True)
    if args.executor == "local":
        compile_kernels([analysis.config(sa.point_values(box, points[0]))], args.workers)
    with flags.open_executor(args) as executor:
        evaluate = one_at_a_time(lake_evaluator(lake, game, analysis.metrics, executor))
        results = sa.run_points(box, points, analysis.config, evaluate, analysis.metrics, args.seed)
        floors = sa.noise_floors(box, points, results, analysis.config, evaluate, args.seed) \
            if args.method == "morris" else {}
    effects = sa.analyse(box, args.method, points, results, args.seed, floors)
    first = analysis.config(sa.point_values(box, points[0])).run_id(game.rules_versions())
    write_sensitivity(lake, game.name, first, sa.rows(effects, analysis, len(points)))
    print(f"{'parameter':<16} {'metric':<18} {'index':<8} value ± half width of its 95% interval")
    for effect in effects:
        print(effect.words())
