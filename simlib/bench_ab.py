"""`make bench-ab`: this tree's kernels against another revision's, in one run (A/B).

    python -m simlib.bench_ab [--against REV] [--games GAME ...] [--rounds 3] [--quick]

A restructuring must not make the kernels slower, and a speed read on another day, or beside another job, says
little: so both versions run here, alternately, each in a fresh process on one thread. REV is checked out into
a worktree under the system's temporary folder (kept, with its compiled kernels, for the next A/B against the
same commit). Per game: plays a second of a scripted line-up and of a search line-up through the game's
`simulate` (kernel and tables, no writing), and the steps a second of its kernel and of a search's rollouts
(`rollout_speed`). Each figure is the median over the rounds; the ratio is this tree's over REV's.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Runs in a child with PYTHONPATH set to one tree: only what every revision has (get_game, RunConfig.build,
# Game.simulate, Game.rollout_speed).
_MEASURE = """
import json, sys, time
from simlib.core.config import RunConfig
from simlib.core.registry import get_game
game, scripted, search = get_game(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
def rate(policies, plays):
    config = RunConfig.build(game, players=4, policies=policies, plays=plays, seed=2026)
    block = game.block_size(config)
    plays = max(plays // block, 1) * block  # whole blocks (Die Mauer: matches)
    game.simulate(config, 0, block, events=False)  # load the compiled kernel
    began = time.perf_counter()
    game.simulate(config, 0, plays, events=False)
    return plays / (time.perf_counter() - began)
out = {"scripted": rate(["random"], scripted), "search": rate(["search:budget=8", "random"] + ["random"] * 2, search)}
config = RunConfig.build(game, players=4, policies=["random"], plays=scripted, seed=2026)
speed = game.rollout_speed(config, scripted // 10)
if speed is not None:
    out["kernel steps"], out["rollout steps"] = speed
print(json.dumps(out))
"""

PLAYS = {"mauer": (120_000, 600), "mauerbruch": (120_000, 600), "catan": (12_000, 24),
         "mauerspechte": (12_000, 24), "sevensteps": (40_000, 120), "burgenland": (40_000, 120)}


def worktree(rev: str) -> Path:
    """REV checked out (detached) in a worktree kept for later runs."""
    sha = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--verify", f"{rev}^{{commit}}"], check=True,
                         capture_output=True, text=True).stdout.strip()
    path = Path(tempfile.gettempdir()) / f"simlib-ab-{sha[:12]}"
    if not (path / "simlib").is_dir():
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "--force", str(path), sha],
                       check=True, capture_output=True)
    return path


def measure(tree: Path, game: str, scale: float) -> dict[str, float]:
    scripted, search = (max(int(n * scale), 60) for n in PLAYS[game])
    env = dict(os.environ, PYTHONPATH=str(tree), NUMBA_NUM_THREADS="1")
    done = subprocess.run([sys.executable, "-c", _MEASURE, game, str(scripted), str(search)], cwd=tree, env=env,
                          check=True, capture_output=True, text=True)
    return json.loads(done.stdout.splitlines()[-1])


def compare(game: str, base: Path, rounds: int, scale: float) -> list[str]:
    measure(base, game, 0.01), measure(ROOT, game, 0.01)  # compile both first, outside the timings
    runs: dict[str, list[dict]] = {"base": [], "this": []}
    for _ in range(rounds):
        runs["base"].append(measure(base, game, scale))
        runs["this"].append(measure(ROOT, game, scale))
    lines = []
    for figure in runs["this"][0]:
        old = statistics.median(r[figure] for r in runs["base"])
        new = statistics.median(r[figure] for r in runs["this"])
        unit = "steps/s" if "steps" in figure else "plays/s"
        lines.append(f"{game:>12} {figure:<14} {old:>14,.0f} {new:>14,.0f} {unit:<8} {new / old:>6.2f}x")
    return lines


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m simlib.bench_ab")
    parser.add_argument("--against", default="HEAD", help="the revision to compare with (default: HEAD, i.e. "
                        "the uncommitted changes)")
    parser.add_argument("--games", nargs="*", default=list(PLAYS), choices=list(PLAYS), help="games to compare")
    parser.add_argument("--rounds", type=int, default=3, help="alternations of A and B (medians are reported)")
    parser.add_argument("--quick", action="store_true", help="a tenth of the plays, for trying the bench itself")
    args = parser.parse_args(argv)
    base = worktree(args.against)
    print(f"A/B on one thread: {args.against} ({base}) against this tree ({ROOT}), median of {args.rounds}")
    print(f"{'game':>12} {'figure':<14} {'base':>14} {'this':>14} {'unit':<8} {'ratio':>7}")
    for game in args.games:
        print("\n".join(compare(game, base, args.rounds, 0.1 if args.quick else 1.0)), flush=True)


if __name__ == "__main__":
    main()
