"""`make bench`: the speed figures the issues ask for, printed (never asserted in a unit test).

    python -m simlib.bench [--plays N] [--quick]
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

from .core.config import RunConfig
from .core.registry import games, get_game

_E2E = """
import json, resource, sys, time
from pathlib import Path
from simlib.core.config import RunConfig
from simlib.core.registry import get_game
from simlib.core.runner import run
game = get_game(sys.argv[4])
plays, lake, events = int(sys.argv[1]), Path(sys.argv[2]), sys.argv[3] == "1"
config = RunConfig.build(game, players=4, policies=[sys.argv[5]], plays=plays, seed=2026, events=events)
game.simulate(config, 0, 5, events=events)  # load the compiled kernel (cached on disk after the first build)
workers = int(sys.argv[6]) if sys.argv[6] != "all" else None
t = time.perf_counter()
run(config, lake, workers=workers, progress=False)
took = time.perf_counter() - t
me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps({"seconds": took, "parent_mb": me.ru_maxrss / 1024, "worker_mb": kids.ru_maxrss / 1024}))
"""


def end_to_end(plays: int, events: bool, game: str = "mauer", policy: str = "random",
               workers: int | None = None) -> dict:
    with tempfile.TemporaryDirectory() as lake:
        out = subprocess.run([sys.executable, "-c", _E2E, str(plays), lake, "1" if events else "0", game, policy,
                              str(workers or "all")], check=True, capture_output=True, text=True).stdout
        size = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(lake) for f in fs)
    result = json.loads(out)
    result["lake_mb"] = size / 2**20
    return result


def _timed(args: list[str]) -> tuple[float, float, str]:
    """Seconds, peak memory (MB) and output of a command, via GNU time where present."""
    timer = ["/usr/bin/time", "-f", "%M"] if os.path.exists("/usr/bin/time") else []
    began = time.perf_counter()
    done = subprocess.run(timer + args, check=True, capture_output=True, text=True)
    took = time.perf_counter() - began
    peak = float(done.stderr.strip().splitlines()[-1]) / 1024 if timer else float("nan")
    return took, peak, done.stdout


def pipeline_and_sql(plays: int, targets: str, with_sql: bool = True) -> None:
    """Marts over one run of `plays` four-player plays (4 seats rows each), again with nothing new, then
    one ad-hoc aggregate."""
    simlib = [sys.executable, "-m", "simlib.cli"]
    with tempfile.TemporaryDirectory() as root:
        lake, marts = f"{root}/lake", f"{root}/marts"
        subprocess.run(simlib + ["simulate", "mauer", "--plays", str(plays), "--players", "4", "--policies",
                                 "random", "--seed", "11", "--lake", lake, "--quiet"], check=True,
                       capture_output=True)
        took, peak, out = _timed(simlib + ["pipeline", "--lake", lake, "--marts", marts, "--db",
                                           f"{root}/simlib.duckdb"])
        print(f"simlib pipeline over one run of {plays:,} plays ({4 * plays:,} seats rows): {took:.1f} s wall, "
              f"peak memory {peak:,.0f} MB ({targets}); {out.strip()}")
        took, peak, _ = _timed(simlib + ["pipeline", "--lake", lake, "--marts", marts, "--db",
                                         f"{root}/simlib.duckdb"])
        print(f"again with nothing new: {took:.1f} s, peak memory {peak:,.0f} MB (cached per run; target <= 2 s)")
        if with_sql:
            query = "select seat, avg(winner::int) as win_rate, count(*) as n from seats group by seat order by seat"
            took, peak, _ = _timed(simlib + ["sql", query, "--lake", lake, "--marts", marts])
            print(f"simlib sql '{query}': {took:.2f} s wall, process start included (target <= 2 s)")


_CATANATRON = """
import sys, time
from catanatron import Color, Game, RandomPlayer
n = int(sys.argv[1])
players = [RandomPlayer(c) for c in (Color.RED, Color.BLUE, Color.WHITE, Color.ORANGE)]
began = time.perf_counter()
turns = actions = 0
for i in range(n):
    game = Game(players, seed=i)
    game.play()
    turns += game.state.num_turns
    actions += len(game.state.actions)
took = time.perf_counter() - began
print(n / took, actions / took, turns / n)
"""


def catanatron(games: int) -> tuple[float, float, float] | str:
    """Catanatron's RandomPlayers in a throwaway virtual environment: (games/s, actions/s, mean turns)."""
    with tempfile.TemporaryDirectory() as env:
        try:
            subprocess.run([sys.executable, "-m", "venv", env], check=True, capture_output=True)
            subprocess.run([f"{env}/bin/pip", "install", "-q", "catanatron"], check=True, capture_output=True,
                           timeout=600)
            out = subprocess.run([f"{env}/bin/python", "-c", _CATANATRON, str(games)], check=True,
                                 capture_output=True, text=True).stdout
        except (subprocess.SubprocessError, OSError) as exc:
            return f"unavailable ({type(exc).__name__})"
    rate, actions, turns = map(float, out.split())
    return rate, actions, turns


def catan_versus_catanatron(games: int) -> float:
    """Prints the comparison; returns simlib's end-to-end games/s (all cores, tables written)."""
    from .games.catan import GAME as CATAN

    r = end_to_end(games, events=False, game="catan")
    ours = games / r["seconds"]
    config = RunConfig.build(CATAN, players=4, policies=["random"], plays=200, seed=5)
    sample = CATAN.run_kernel(config, 0, 200)
    turns, actions = float(sample.turns.mean()), float(sample.actions.mean())
    print(f"simlib catan, 4 random players, {games:,} games with games+seats+production written, all cores: "
          f"{r['seconds']:.1f} s = {ours:,.0f} games/s, {ours * actions:,.0f} actions/s; "
          f"mean game length {turns:.0f} turns ({actions:.0f} actions)")
    theirs = catanatron(max(20, games // 100))  # about as many seconds as ours take
    if isinstance(theirs, str):
        print(f"Catanatron: {theirs}")
        return ours
    rate, actions, their_turns = theirs
    print(f"Catanatron {', '.join(['RandomPlayer'] * 4)}: {rate:,.1f} games/s, {actions:,.0f} actions/s, "
          f"mean game length {their_turns:.0f} turns (one process)")
    print(f"ratio: simlib is {ours / rate:,.1f}x Catanatron's games per second (target >= 120x)")
    # The same kernel on one core, nothing written: the ratio per core, for a like-for-like reading.
    config = RunConfig.build(CATAN, players=4, policies=["random"], plays=2_000, seed=7)
    began = time.process_time()
    CATAN.run_kernel(config, 0, 2_000)
    single = 2_000 / (time.process_time() - began)
    print(f"simlib catan kernel on one core (nothing written): {single:,.0f} games/s = {single / rate:,.1f}x "
          f"Catanatron's one process")
    return ours


def mauerspechte_versus_catan(games: int, catan_rate: float) -> float:
    """The scenario beside its base game, same machine and run: 4 random players, every table written."""
    from .games.mauerspechte import GAME as SPECHTE

    r = end_to_end(games, events=False, game="mauerspechte")
    ours = games / r["seconds"]
    config = RunConfig.build(SPECHTE, players=4, policies=["random"], plays=200, seed=5)
    sample = SPECHTE.run_kernel(config, 0, 200).base
    print(f"simlib mauerspechte, 4 random players, {games:,} games with games+seats+production+hotels+wall_pieces+"
          f"love_parades written, all cores: {r['seconds']:.1f} s = {ours:,.0f} games/s; mean game length "
          f"{float(sample.turns.mean()):.0f} turns ({float(sample.actions.mean()):.0f} actions)")
    print(f"ratio: {ours / catan_rate:.2f}x the base game's games/s above (target >= 0.3x)")
    return ours


def kernel_designs(plays: int) -> dict[str, float]:
    """Single-thread plays/s of the Numba kernel and the lockstep NumPy version (4 players, random)."""
    from .core.lineup import Lineup
    from .core.tables import no_standings
    from .games.mauer.constants import EV_COLS
    from .games.mauer.kernel import simulate_matches
    from .games.mauer.lockstep import simulate_random
    from .games.mauer.state import Setup

    pen = np.array([1, 2, 3, 4, 6, 10, 15], np.int64)
    setup = Setup(pen, 500, 1, 0)
    args = (setup, Lineup(np.zeros(4, np.int64), np.zeros((4, 5)), np.zeros((1, 5))), *no_standings(4),
            np.zeros((0, EV_COLS), np.int32), np.zeros(0, np.int64))
    simulate_matches(1, 0, 10, *args)
    t = time.perf_counter()
    simulate_matches(1, 0, plays, *args)
    numba_rate = plays / (time.perf_counter() - t)
    t = time.perf_counter()
    simulate_random(1, 0, plays, 4, pen, 500)
    numpy_rate = plays / (time.perf_counter() - t)
    return {"numba": numba_rate, "numpy": numpy_rate}


def _wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def policy_table(plays_per_seat: int) -> list[str]:
    """Each policy in one seat against three `random` players, rotated through all four seats."""
    game = get_game("mauer")
    lines = ["| policy | plays | win rate (95% CI) | mean penalty (95% CI) | random opponents' mean penalty |",
             "|---|---|---|---|---|"]
    for name in game.policies():
        wins, pens, opp = 0, [], []
        for seat in range(4):
            policies = ["random"] * 4
            policies[seat] = name
            config = RunConfig.build(game, players=4, policies=policies, plays=plays_per_seat, seed=100 + seat,
                                     options={"rounds": 1})
            seats = game.simulate(config, 0, plays_per_seat, events=False)["seats"]
            player = seats.column("player").to_numpy()
            penalty = seats.column("penalty").to_numpy()
            mine = player == seat
            wins += int(seats.column("winner").to_numpy()[mine].sum())
            pens.append(penalty[mine])
            opp.append(penalty[~mine])
        pen, opp_pen = np.concatenate(pens), np.concatenate(opp)
        n = len(pen)
        lo, hi = _wilson(wins, n)
        half = 1.96 * pen.std(ddof=1) / math.sqrt(n)
        lines.append(f"| {name} | {n:,} | {wins / n:.1%} ({lo:.1%}-{hi:.1%}) | {pen.mean():.2f} "
                     f"({pen.mean() - half:.2f}-{pen.mean() + half:.2f}) | {opp_pen.mean():.2f} |")
    return lines


def sizing(rates: dict[tuple[str, str], float], plays: int) -> list[str]:
    """docs/scaling.md's table: plays per core-second (the end-to-end rates above, over this machine's cores)
    and the core-hours a billion plays cost; then one against two local workers, the speed-up a core adds."""
    cores = os.cpu_count() or 1
    lines = [f"{'game':12s} {'policy':8s} {'plays per core-second':>22s} {'core-hours per 10^9 plays':>26s}"]
    for (game, policy), rate in rates.items():
        lines.append(f"{game:12s} {policy:8s} {rate / cores:>22,.0f} {1e9 / (rate / cores) / 3600:>26,.1f}")
    one = end_to_end(plays, events=False, game="mauerbruch", workers=1)["seconds"]
    two = end_to_end(plays, events=False, game="mauerbruch", workers=2)["seconds"]
    lines.append(f"Mauerbruch, {plays:,} plays, local executor: 1 worker {one:.1f} s ({plays / one:,.0f} plays/s), "
                 f"2 workers {two:.1f} s ({plays / two:,.0f} plays/s): speed-up {one / two:.2f}x")
    return lines


def rollout_lines(plays: int) -> list[str]:
    """Per game with a search: steps a second in random plays and in rollouts of the same plays."""
    lines = []
    for game in games().values():
        config = RunConfig.build(game, players=4, policies=["random"], plays=plays, seed=2026)
        if (speed := game.rollout_speed(config, plays)) is not None:
            kernel, rollout = speed
            lines.append(f"{game.name:>12}: kernel {kernel:>12,.0f} steps/s, rollouts {rollout:>12,.0f} steps/s: "
                         f"a rollout costs {kernel / rollout:.2f}x a random play")
    return lines or ["no game has a search policy yet (docs/search.md)"]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m simlib.bench")
    parser.add_argument("--plays", type=int, default=1_000_000, help="plays in the end-to-end run")
    parser.add_argument("--quick", action="store_true", help="a small version, for trying the bench itself")
    args = parser.parse_args(argv)
    plays = 20_000 if args.quick else args.plays
    print(f"simlib bench on {os.cpu_count()} cores")
    print("\n## Die Mauer kernel design (single thread, 4 players, random, no writing)")
    rates = kernel_designs(plays // 5)
    print(f"Numba kernel:       {rates['numba']:>10,.0f} plays/s")
    print(f"NumPy lockstep:     {rates['numpy']:>10,.0f} plays/s  (Numba is {rates['numba'] / rates['numpy']:.1f}x)")

    print(f"\n## Die Mauer end to end: {plays:,} four-player random plays, runs+games+seats written, all cores")
    r = end_to_end(plays, events=False)
    e2e = {("mauer", "random"): plays / r["seconds"]}  # plays/s, all cores, for sizing a cluster
    print(f"{r['seconds']:.2f} s = {plays / r['seconds']:,.0f} plays/s (target >= 100,000); "
          f"peak memory: parent {r['parent_mb']:.0f} MB, largest worker {r['worker_mb']:.0f} MB, "
          f"at most {r['parent_mb'] + (os.cpu_count() or 1) * r['worker_mb']:,.0f} MB together (target < 2,048); "
          f"lake {r['lake_mb']:.0f} MB")
    ev_plays = plays // 10
    r = end_to_end(ev_plays, events=True)
    print(f"with --events, {ev_plays:,} plays: {r['seconds']:.2f} s = {ev_plays / r['seconds']:,.0f} plays/s; "
          f"lake {r['lake_mb']:.0f} MB")

    print(f"\n## Mauerbruch end to end: {plays:,} four-player random plays, runs+games+seats written, all cores")
    r = end_to_end(plays, events=False, game="mauerbruch")
    e2e[("mauerbruch", "random")] = plays / r["seconds"]
    print(f"{r['seconds']:.2f} s = {plays / r['seconds']:,.0f} plays/s (target >= 50,000); "
          f"peak memory: parent {r['parent_mb']:.0f} MB, largest worker {r['worker_mb']:.0f} MB; "
          f"lake {r['lake_mb']:.0f} MB")

    catan_games = 200 if args.quick else 20_000
    print(f"\n## Catan against Catanatron ({catan_games:,} games)")
    catan_rate = e2e[("catan", "random")] = catan_versus_catanatron(catan_games)
    print(f"\n## Die Mauerspechte beside the base game ({catan_games:,} games)")
    e2e[("mauerspechte", "random")] = mauerspechte_versus_catan(catan_games, catan_rate)

    print("\n## 7 Steps end to end: four-player plays (front side), runs+games+seats written, all cores")
    for policy, n, target in (("random", plays, 20_000), ("greedy", plays // 20, 1_000)):
        r = end_to_end(n, events=False, game="sevensteps", policy=policy)
        e2e[("sevensteps", policy)] = n / r["seconds"]
        print(f"{policy:>6}, {n:,} plays: {r['seconds']:.2f} s = {n / r['seconds']:,.0f} plays/s "
              f"(target >= {target:,}); peak memory: parent {r['parent_mb']:.0f} MB, largest worker "
              f"{r['worker_mb']:.0f} MB; lake {r['lake_mb']:.0f} MB")

    print("\n## Burgenland end to end: four-player plays (staggered hands), runs+games+seats written, all cores")
    for policy, n, target in (("random", plays, 20_000), ("builder", plays // 5, 0), ("saver", plays // 5, 0)):
        r = end_to_end(n, events=False, game="burgenland", policy=policy)
        e2e[("burgenland", policy)] = n / r["seconds"]
        print(f"{policy:>7}, {n:,} plays: {r['seconds']:.2f} s = {n / r['seconds']:,.0f} plays/s"
              + (f" (target >= {target:,})" if target else "") + f"; peak memory: parent {r['parent_mb']:.0f} MB, "
              f"largest worker {r['worker_mb']:.0f} MB; lake {r['lake_mb']:.0f} MB")

    lake_plays = 20_000 if args.quick else 2_500_000
    print(f"\n## Pipelines and ad-hoc SQL over {4 * lake_plays:,} seats rows")
    pipeline_and_sql(lake_plays, "target <= 30 s")
    big_plays = 40_000 if args.quick else 10_000_000
    print(f"\n## Pipelines at scale: one run of {big_plays:,} Die Mauer plays (memory must not grow with plays)")
    pipeline_and_sql(big_plays, "target <= 60 s, <= 1,536 MB", with_sql=False)

    print("\n## Sizing a cluster (docs/scaling.md): the end-to-end rates above per core")
    print("\n".join(sizing(e2e, plays // 5)))

    print("\n## Search rollouts beside the kernel's random plays (single thread, 4 players; target: a rollout "
          "costs at most 2x a random play of the same length)")
    print("\n".join(rollout_lines(2_000 if args.quick else 100_000)))

    per_seat = 2_500 if args.quick else 50_000
    print(f"\n## Die Mauer policies against three random players, seats rotated ({per_seat:,} plays per seat)")
    print("\n".join(policy_table(per_seat)))


if __name__ == "__main__":
    main()
