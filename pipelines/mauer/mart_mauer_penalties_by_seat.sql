-- Die Mauer: the distribution of penalty points (Minuspunkte) by seat, per run.
with seats as (
    select * from stg_mauer_seats
),

final as (
    select
        'mauer' as game,
        run_id,
        seat,
        case when count(distinct policy_spec) = 1 then any_value(policy) else 'mixed' end as policy,
        count(*) as n_plays,
        avg(penalty) as mean_penalty,
        avg(penalty) - mean_ci_half(stddev_samp(penalty), count(*)) as mean_penalty_lo,
        avg(penalty) + mean_ci_half(stddev_samp(penalty), count(*)) as mean_penalty_hi,
        stddev_samp(penalty) as sd_penalty,
        quantile_disc(penalty, 0.05) as p05_penalty,
        quantile_disc(penalty, 0.25) as p25_penalty,
        quantile_disc(penalty, 0.5) as median_penalty,
        quantile_disc(penalty, 0.75) as p75_penalty,
        quantile_disc(penalty, 0.95) as p95_penalty,
        max(penalty) as max_penalty,
        avg((penalty = 0)::int) as share_zero
    from seats
    group by all
)

select * from final
