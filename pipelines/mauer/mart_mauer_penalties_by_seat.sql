-- Die Mauer: the distribution of penalty points (Minuspunkte) by seat, per run.
with stats as (
    select * from int_mauer_penalty_stats where seat is not null
),

penalty_counts as (
    select * from int_mauer_penalty_counts
),

policies as (
    -- a seat's policy can change between plays (table positions rotate through the seats)
    select run_id, seat, count(distinct policy_spec) as n_specs, any_value(policy) as policy
    from penalty_counts
    group by all
),

final as (
    select
        'mauer' as game,
        s.run_id,
        s.seat,
        case when p.n_specs = 1 then p.policy else 'mixed' end as policy,
        s.n_seat_plays as n_plays,
        s.mean_penalty,
        s.mean_penalty_lo,
        s.mean_penalty_hi,
        s.sd_penalty,
        s.p05_penalty,
        s.p25_penalty,
        s.median_penalty,
        s.p75_penalty,
        s.p95_penalty,
        s.max_penalty,
        s.n_zero / s.n_seat_plays as share_zero
    from stats as s
    join policies as p using (run_id, seat)
)

select * from final
