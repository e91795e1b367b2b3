-- One row per index of a sensitivity analysis (`simlib sensitivity`): which parameter moves which metric, and by
-- how much, with SALib's 95% interval.
with source as (
    select * from lake_sensitivities
),

final as (
    select
        game::varchar as game,
        run_id::varchar as run_id,
        analysis_id,
        method,
        box,
        players::int as players,
        policies,
        plays,
        seed,
        coalesce(options, '{}') as options,
        n_points::int as n_points,
        parameter,
        metric,
        index_name,
        value,
        conf,
        noise
    from source
)

select * from final
