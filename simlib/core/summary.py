"""A one-line summary of a run, read back from the lake with DuckDB (generic over games)."""

from __future__ import annotations

from pathlib import Path

import duckdb

from .lake import Lake


def run_summary(lake: Lake | Path | str, game: str, run_id: str) -> str:
    lake = Lake.at(lake)
    seats = lake.url(lake.path(f"seats/game={game}/run_id={run_id}/*.parquet"))
    con = duckdb.connect()
    lake.register(con)
    rows = con.sql(f"""
        select seat, count(*) as n, avg(winner::int) as win_rate, avg(score) as mean_score
        from read_parquet('{seats}')
        group by seat order by seat
    """).fetchall()
    con.close()
    plays = rows[0][1] if rows else 0
    wins = " ".join(f"{w:.1%}" for _, _, w, _ in rows)
    scores = " ".join(f"{s:.2f}" for _, _, _, s in rows)
    return f"{plays:,} plays; win rate by seat: {wins}; mean score by seat: {scores}"
