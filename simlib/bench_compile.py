"""`make bench-compile`: each game's first compile, measured with Numba's compile events (docs/compile.md).

    python -m simlib.bench_compile [GAME ...] [--scale S]
    python -m simlib.bench_compile --kernels [GAME ...]


Each game runs `simlib batch GAME --scale S` (0.01 by default: the plays are seconds, the compile minutes) in a
fresh process with an empty Numba cache of its own, one game at a time, so that no compile shares a core. Printed
per game: the batch's wall and CPU seconds, and the seconds Numba spent compiling (top-level compile events: a
compile started from compiled code is inside its caller's). The sum over games is the first compile on one core;
`simlib batch` compiles games side by side (runner.compile_kernels), so on two cores it takes about the larger of
the biggest game and half the sum.

`--kernels` prints what a change to how kernels are compiled must not lose: each game's kernel speed on one
core (plays/s, nothing written, best of three, after the compile), for random play and the game's heuristics.
Run it on two checkouts one after the other, alternating, to compare them.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

from .core.config import RunConfig
from .core.registry import games, get_game

# (game, policy, plays): a few seconds each
KERNEL_CASES = [("mauer", "random", 200_000), ("mauer", "reader", 100_000), ("mauerbruch", "random", 200_000),
                ("mauerbruch", "greedy", 100_000), ("catan", "random", 400), ("catan", "builder", 1_000),
                ("mauerspechte", "random", 200), ("mauerspechte", "hotelier", 300), ("sevensteps", "random", 2_000),
                ("sevensteps", "greedy", 100), ("burgenland", "random", 3_000), ("burgenland", "builder", 3_000)]

_ONE_GAME = """
import contextlib, io, json, resource, sys, time
from numba.core import event
with event.install_recorder("numba:compile") as recorded:
    from simlib.cli import main
    began = time.perf_counter()
    with contextlib.redirect_stdout(io.StringIO()):
        main(["batch", sys.argv[1], "--scale", sys.argv[2], "--lake", sys.argv[3], "--quiet"])
    wall = time.perf_counter() - began
depth, compiling, started = 0, 0.0, 0.0
for at, ev in recorded.buffer:
    depth += 1 if ev.is_start else -1
    if ev.is_start and depth == 1:
        started = at
    elif not ev.is_start and depth == 0:
        compiling += at - started
cpu = sum(getattr(resource.getrusage(who), f) for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)
          for f in ("ru_utime", "ru_stime"))
print(json.dumps({"wall": wall, "cpu": cpu, "compile": compiling}))
"""


def first_compile(game: str, scale: float) -> dict:
    with tempfile.TemporaryDirectory() as cache, tempfile.TemporaryDirectory() as lake:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        out = subprocess.run([sys.executable, "-c", _ONE_GAME, game, str(scale), f"{lake}/lake"], env=env,
                             check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def kernel_speed(name: str, policy: str, plays: int) -> float:
    game = get_game(name)
    config = RunConfig.build(game, players=4, policies=[policy], plays=plays, seed=7, events=False)
    block = game.block_size(config)
    plays = max(block, plays // block * block)
    game.simulate(config, 0, block, events=False)  # compile, or load the cached kernel
    best = float("inf")
    for _ in range(3):
        began = time.perf_counter()
        game.simulate(config, 0, plays, events=False)
        best = min(best, time.perf_counter() - began)
    return plays / best


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m simlib.bench_compile")
    parser.add_argument("games", nargs="*", help="games to measure (default: all)")
    parser.add_argument("--scale", type=float, default=0.01, help="the report batch's scale (default 0.01)")
    parser.add_argument("--kernels", action="store_true", help="each kernel's speed on one core instead")
    args = parser.parse_args(argv)
    names = args.games or list(games())
    if args.kernels:
        for name, policy, plays in KERNEL_CASES:
            if name in names:
                print(f"{name:<14}{policy:<10}{kernel_speed(name, policy, plays):>12,.0f} plays/s", flush=True)
        return
    print(f"first compile per game: simlib batch GAME --scale {args.scale} with an empty Numba cache")
    print(f"{'game':<14}{'wall s':>8}{'CPU s':>8}{'compiling s':>13}")
    total = {"wall": 0.0, "cpu": 0.0, "compile": 0.0}
    for name in names:
        r = first_compile(name, args.scale)
        total = {k: total[k] + r[k] for k in total}
        print(f"{name:<14}{r['wall']:>8.1f}{r['cpu']:>8.1f}{r['compile']:>13.1f}", flush=True)
    print(f"{'sum':<14}{total['wall']:>8.1f}{total['cpu']:>8.1f}{total['compile']:>13.1f}")


if __name__ == "__main__":
    main()
