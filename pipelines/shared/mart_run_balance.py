"""One line per run: seat 0's win share and advantage, the seat with the largest advantage, balance and the seat
test, with completion, ties and length (simlib/analysis/estimators.py: seat_summary; docs/statistics.md).

The seat test and balance need the seats' shares' covariance over plays (int_share_cross_sums): a run's seats share
its plays, so they are not independent samples (a chi-square of a seats x won table as if they were rejects a
fair game far more often than 5%)."""

from __future__ import annotations

import polars as pl

from simlib.analysis.estimators import SEAT_SUMMARY, seat_summary, seat_sums_of

INPUTS = ("int_seat_policy_sums", "int_share_cross_sums", "stg_games")
KEYS = ("game", "run_id")
SUMMARY = {name: pl.Int32 if kind is int else pl.Float64 for name, kind in SEAT_SUMMARY.items()}
PLAYS = {"players": pl.Int32, "n_plays": pl.Int64, "completion_rate": pl.Float64, "incomplete_plays": pl.Int64,
         "tie_rate": pl.Float64, "mean_turns": pl.Float64}


def model(ctx) -> pl.DataFrame:
    seats = ctx.con.sql("select game, run_id, seat, sum(n_plays) as n, sum(win_share_sum) as s "
                        "from int_seat_policy_sums group by all").pl()
    cross = ctx.con.sql("select game, run_id, seat_a, seat_b, sum(product_sum) as product_sum "
                        "from int_share_cross_sums group by all").pl()
    plays = ctx.con.sql("""
        select game, run_id, any_value(players) as players, count(*) as n_plays,
               avg(completed::int) as completion_rate, count(*) filter (where not completed) as incomplete_plays,
               avg((len(winners) > 1)::int) as tie_rate, avg(turns) as mean_turns
        from stg_games group by all""").pl()
    cross_of = cross.partition_by(KEYS, as_dict=True)
    empty = cross.clear()
    rows = [{"game": game, "run_id": run} | seat_summary(seat_sums_of(group, cross_of.get((game, run), empty)))
            for (game, run), group in seats.group_by(KEYS, maintain_order=True)]
    summary = pl.DataFrame(rows, schema={"game": pl.String, "run_id": pl.String} | SUMMARY)
    return (plays.cast(PLAYS).join(summary, on=KEYS)
            .select(*KEYS, "players", "n_plays", *SUMMARY, "completion_rate", "incomplete_plays", "tie_rate",
                    "mean_turns").sort(KEYS))
