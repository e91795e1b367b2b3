"""`make bench-pairing`: how much each game's report sweeps gain from common random numbers (issue 25, item 5).

    python -m simlib.bench_pairing [GAME ...] [--scale S]

Each game's report batch is read, only its [[sweep]] entries are kept (with their baselines), played into a
temporary lake at `--scale` (default 1: the report's plays) and piped through the marts. Printed per sweep,
variant, player count and line-up: the pairing gain (how many times wider the difference's interval would be
had the variant and its baseline been played on independent seeds) for seat 0's advantage, the game's
length and the game's headline, and the median over every metric of the sweep. A gain near 1 means the two
variants' plays parted at once; keyed draws keep them together longer.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import sys
import tempfile
import tomllib
from pathlib import Path

import duckdb

from .core.registry import games, get_game
from .design.batch import report_batch


def _sweeps_only(game_name: str, folder: Path) -> Path:
    game = get_game(game_name)
    spec = tomllib.loads(report_batch(game).read_text())
    lines = []
    for entry in spec.get("sweep", []):
        lines.append("[[sweep]]")
        lines += [f"{key} = {_toml(value)}" for key, value in entry.items()]
    path = folder / f"{game_name}_sweeps.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


def _toml(value) -> str:
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {_toml(v)}" for k, v in value.items()) + " }"
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    if isinstance(value, str):
        return '"' + value + '"'
    return str(value).lower() if isinstance(value, bool) else str(value)


def measure(game_name: str, scale: float) -> list[tuple]:
    """(sweep variant, players, policies, metric kind, pairing gain) rows of one game's report sweeps."""
    from .cli import main

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        batch = _sweeps_only(game_name, folder)
        lake, marts, db = folder / "lake", folder / "marts", folder / "simlib.duckdb"
        with contextlib.redirect_stdout(io.StringIO()):
            main(["batch", game_name, "--file", str(batch), "--scale", str(scale), "--lake", str(lake), "--quiet"])
            main(["pipeline", "--lake", str(lake), "--marts", str(marts), "--db", str(db)])
        con = duckdb.connect()
        effects = con.read_parquet(str(marts / "mart_variant_effects.parquet"))  # noqa: F841 (used by name)
        rows = con.execute("""
            select variant, players, policies,
                   max(pairing_gain) filter (where metric = 'seat0_advantage'),
                   max(pairing_gain) filter (where metric = 'length'),
                   max(pairing_gain) filter (where metric like 'headline: %'),
                   median(pairing_gain), count(*)
            from effects where not is_baseline
            group by all order by policies, players, variant
        """).fetchall()
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m simlib.bench_pairing", description=__doc__.split("\n")[0])
    parser.add_argument("games", nargs="*", help="games (default: every game with a report sweep)")
    parser.add_argument("--scale", type=float, default=1.0, help="multiply the sweeps' plays (default 1)")
    args = parser.parse_args(argv)
    names = args.games or [g for g in games() if tomllib.loads(report_batch(get_game(g)).read_text()).get("sweep")]
    print(f"{'game':<13} {'variant':<22} {'players':>7} {'line-up':<30} {'seat0':>6} {'length':>6} "
          f"{'headline':>8} {'median':>6}  (pairing gain: unpaired / paired interval width)")
    for name in names:
        for variant, players, policies, seat0, length, head, median, _ in measure(name, args.scale):
            policies = ",".join(p.split(":")[0] for p in policies.split(","))  # the names, not their settings
            cells = [f"{v:6.2f}" if v is not None else f"{'-':>6}" for v in (seat0, length, head, median)]
            print(f"{name:<13} {variant:<22} {players:>7} {policies:<30} {cells[0]} {cells[1]} {cells[2]:>8} "
                  f"{cells[3]}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
