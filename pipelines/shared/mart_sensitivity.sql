-- Each sensitivity analysis's indices with their 95% intervals, and whether a parameter has an effect on a
-- metric: Morris' mu_star above what the plays' noise alone gives, beyond its interval (mu_star is a mean of
-- absolute effects, so noise alone gives it a positive value). Sobol's indices get no such judgement (null).
-- What the report's "Which parameters matter" section draws.
with indices as (
    select * from stg_sensitivities
),

runs as (
    select run_id, ended_at from stg_runs
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
        options,
        r.ended_at as finished_at,
        n_points,
        parameter,
        metric,
        index_name,
        value,
        value - coalesce(conf, 0) as value_lo,
        value + coalesce(conf, 0) as value_hi,
        index_name in ('mu_star', 'ST') as is_main_index,
        noise,
        case when index_name = 'mu_star' then value - coalesce(conf, 0) > noise end as has_effect
    from indices
    left join runs as r using (run_id)
)

select * from final
