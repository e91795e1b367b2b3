-- One row per evaluation of a design search (`simlib tune`) and metric: which tune, which stage, the values
-- tried, the run that played them and what the metric was there.
with source as (
    select * from lake_tunes
),

final as (
    select
        game::varchar as game,
        run_id::varchar as run_id,
        tune_id,
        box,
        players::int as players,
        policies,
        stage,
        step::int as step,
        step_values,
        seed,
        plays,
        loss,
        metric,
        target,
        value,
        value_lo,
        value_hi
    from source
)

select * from final
