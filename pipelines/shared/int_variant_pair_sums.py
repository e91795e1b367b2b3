"""Per sweep variant, player count and metric: the variant's plays paired with the baseline's plays of the
same index (same seed: common random numbers), as sums of the values, their squares and their differences.

A variant is compared on the plays both runs have; the baseline is paired with itself (difference 0), so
figures read every variant from one place. Each seat's win share is paired too (metric win_share, per seat).
Balance is not a mean of per-play values (it takes the best and the worst seat): the What-if page reads each
variant's balance, with its own interval, from mart_run_balance.

A Polars model because the pairing is done a block of play indices at a time: joining two runs of ten million
plays at once holds both in memory; a block of CHUNK plays holds that many, whatever the runs' size. A run's
per-play rows are written part after part, so a block's play indices lie in few row groups, which the filter
on play_index lets DuckDB read alone.
"""

from __future__ import annotations

import polars as pl

INPUTS = ("stg_sweeps", "int_play_outcomes", "int_play_headline")
CHUNK = 1_000_000
KEYS = ["game", "sweep_id", "run_id", "players", "metric", "seat"]
SUMS = ["n_pairs", "v_sum", "v_sq_sum", "b_sum", "b_sq_sum", "d_sum", "d_sq_sum"]
OUTPUT = {"game": pl.String, "sweep_id": pl.String, "run_id": pl.String, "players": pl.Int32,
          "metric": pl.String, "seat": pl.Int32} | {name: pl.Float64 for name in SUMS} | {"n_pairs": pl.Int64}

# One block of one variant's plays against its baseline's ($run, $baseline, plays $lo <= play_index < $hi).
# The baseline against itself needs no join: each play is its own pair.
JOIN = """select v.*, b.seat0_advantage as b_seat0_advantage, b.length as b_length, b.shares as b_shares,
           b.scores as b_scores, b.headline_value as b_headline_value
    from (select * from plays where run_id = $run) as v
    join (select * from plays where run_id = $baseline) as b using (play_index)"""
SELF = """select *, seat0_advantage as b_seat0_advantage, length as b_length, shares as b_shares,
           scores as b_scores, headline_value as b_headline_value
    from plays"""
BLOCK = """
with plays as (
    select
        o.run_id, o.play_index,
        o.seat0_share - 1.0 / o.players as seat0_advantage,
        o.turns::double as length,
        o.shares,
        o.scores,
        h.headline,
        h.value as headline_value
    from int_play_outcomes as o
    left join (
        select * from int_play_headline
        where run_id in ($run, $baseline) and play_index >= $lo and play_index < $hi
    ) as h using (game, run_id, play_index)
    where o.run_id in ($run, $baseline) and o.play_index >= $lo and o.play_index < $hi
),

pairs as materialized (
    {pairs}
),

metric_values as (
    select 'seat0_advantage' as metric, null::int as seat, seat0_advantage as v, b_seat0_advantage as b
    from pairs
    union all
    select 'length', null, length, b_length from pairs
    union all
    select 'headline: ' || headline, null, headline_value, b_headline_value
    from pairs
    where headline_value is not null and b_headline_value is not null
    union all
    select 'win_share', unnest(range(len(shares)))::int, unnest(shares), unnest(b_shares) from pairs
    union all
    select 'score', unnest(range(len(scores)))::int, unnest(scores), unnest(b_scores) from pairs
)

select
    metric, seat,
    count(*) as n_pairs,
    sum(v) as v_sum,
    sum(v * v) as v_sq_sum,
    sum(b) as b_sum,
    sum(b * b) as b_sq_sum,
    sum(v - b) as d_sum,
    sum((v - b) * (v - b)) as d_sq_sum
from metric_values
group by all
"""


def model(ctx) -> pl.DataFrame:
    sweeps = ctx.con.execute("select game, sweep_id, run_id, baseline_run_id, players, plays from stg_sweeps "
                             "order by all").fetchall()
    pieces = []
    for game, sweep_id, run_id, baseline, players, plays in sweeps:
        for lo in range(0, plays, CHUNK):
            params = {"run": run_id, "baseline": baseline, "lo": lo, "hi": lo + CHUNK}
            sql = BLOCK.replace("{pairs}", SELF if run_id == baseline else JOIN)
            block = pl.from_arrow(ctx.con.sql(sql, params=params).to_arrow_table())
            pieces.append(block.with_columns(game=pl.lit(game), sweep_id=pl.lit(sweep_id), run_id=pl.lit(run_id),
                                             players=pl.lit(players)))
    if not pieces:
        return pl.DataFrame(schema=OUTPUT).select(KEYS + SUMS)
    frame = pl.concat(pieces, how="diagonal_relaxed").cast({k: v for k, v in OUTPUT.items()})
    return frame.group_by(KEYS).agg(pl.col(SUMS).sum()).select(KEYS + SUMS)
