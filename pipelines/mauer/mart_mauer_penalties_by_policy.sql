-- Die Mauer: the distribution of penalty points by policy (all its seats together), per run.
with stats as (
    select * from int_mauer_penalty_stats where policy_spec is not null
),

penalty_counts as (
    select * from int_mauer_penalty_counts
),

positions as (
    -- every play has every table position once, so a policy's plays are its seat-plays / its positions
    select run_id, policy_spec, any_value(policy) as policy, count(distinct player) as n_positions
    from penalty_counts
    group by all
),

final as (
    select
        'mauer' as game,
        s.run_id,
        s.policy_spec,
        p.policy,
        s.n_seat_plays,
        s.n_seat_plays // p.n_positions as n_plays,
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
    join positions as p using (run_id, policy_spec)
)

select * from final
