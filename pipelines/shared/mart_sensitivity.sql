-- Each sensitivity analysis's indices with their 95% intervals, and whether a parameter has any effect on a
-- metric (its main index, Morris' mu_star or Sobol's ST, above 0 beyond its interval): what the report's
-- "Which parameters matter" section draws.
with indices as (
    select * from stg_sensitivities
),

final as (
    select
        game,
        analysis_id,
        method,
        box,
        players,
        policies,
        plays as n_plays,
        seed,
        n_points,
        parameter,
        metric,
        index_name,
        value,
        value - coalesce(conf, 0) as value_lo,
        value + coalesce(conf, 0) as value_hi,
        index_name in ('mu_star', 'ST') as is_main_index,
        index_name in ('mu_star', 'ST') and value - coalesce(conf, 0) > 0 as has_effect
    from indices
)

select * from final
