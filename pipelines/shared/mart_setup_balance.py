"""Is the game fair at this set-up? One line per set-up, each distinct play counted once (mart_run_setups.counted):
seat 0's win share and advantage, the seat with the largest advantage either way, balance and the seat test, with
the tie rate (simlib/analysis/estimators.py: seat_summary; docs/statistics.md). What the report's fairness
verdicts read; mart_run_balance says the same per run."""

from __future__ import annotations

import polars as pl

from simlib.analysis.estimators import SEAT_SUMMARY, seat_summary, seat_sums_of

INPUTS = ("mart_run_setups", "mart_run_balance", "int_seat_policy_sums", "int_share_cross_sums")
KEYS = ("game", "setup_id")
SUMMARY = {name: pl.Int32 if kind is int else pl.Float64 for name, kind in SEAT_SUMMARY.items()}
SETUP = {"game": pl.String, "setup_id": pl.String, "setup_label": pl.String, "players": pl.Int32,
         "lineup_kind": pl.String, "options": pl.String, "n_runs": pl.Int64, "n_plays": pl.Int64,
         "tie_rate": pl.Float64}


def model(ctx) -> pl.DataFrame:
    counted = "(select game, run_id, setup_id from mart_run_setups where counted)"
    setups = ctx.con.sql("""
        select game, u.setup_id, any_value(u.setup_label) as setup_label, any_value(u.players) as players,
               any_value(u.lineup_kind) as lineup_kind, any_value(u.options) as options,
               count(*) as n_runs, sum(b.n_plays) as n_plays, sum(b.tie_rate * b.n_plays) / sum(b.n_plays) as tie_rate
        from mart_run_balance as b join mart_run_setups as u using (game, run_id)
        where u.counted
        group by all""").pl()
    seats = ctx.con.sql(f"""
        select game, setup_id, seat, sum(n_plays) as n, sum(win_share_sum) as s
        from int_seat_policy_sums join {counted} using (game, run_id) group by all""").pl()
    cross = ctx.con.sql(f"""
        select game, setup_id, seat_a, seat_b, sum(product_sum) as product_sum
        from int_share_cross_sums join {counted} using (game, run_id) group by all""").pl()
    cross_of = cross.partition_by(KEYS, as_dict=True)
    empty = cross.clear()
    rows = [{"game": game, "setup_id": setup} | seat_summary(seat_sums_of(group, cross_of.get((game, setup), empty)))
            for (game, setup), group in seats.group_by(KEYS, maintain_order=True)]
    summary = pl.DataFrame(rows, schema={"game": pl.String, "setup_id": pl.String} | SUMMARY)
    return setups.cast(SETUP).join(summary, on=KEYS).select(*SETUP, *SUMMARY).sort(KEYS)
