-- Die Mauer: the distribution of penalty points by policy (all its seats together), per run, read off
-- the counts per penalty value (quantiles exact, as quantile_disc).
with penalty_counts as (
    select * from int_mauer_penalty_counts
),

positions as (
    -- every play has every table position once, so a policy's plays are its seat-plays / its positions
    select run_id, policy_spec, any_value(policy) as policy, count(distinct player) as n_positions
    from penalty_counts
    group by all
),

cumulative as (
    select
        run_id, policy_spec, penalty, n,
        sum(n) over (partition by run_id, policy_spec order by penalty) as up_to,
        sum(n) over (partition by run_id, policy_spec) as total
    from (select run_id, policy_spec, penalty, sum(n_seat_plays) as n from penalty_counts group by all)
),

sums as (
    select
        run_id, policy_spec,
        any_value(total)::bigint as n_seat_plays,
        sum(penalty::bigint * n) as s,
        sum(penalty::hugeint * penalty * n) as ss,
        min(penalty) filter (where up_to >= total * 0.05) as p05_penalty,
        min(penalty) filter (where up_to >= total * 0.25) as p25_penalty,
        min(penalty) filter (where up_to >= total * 0.5) as median_penalty,
        min(penalty) filter (where up_to >= total * 0.75) as p75_penalty,
        min(penalty) filter (where up_to >= total * 0.95) as p95_penalty,
        max(penalty) as max_penalty,
        coalesce(sum(n) filter (where penalty = 0), 0) as n_zero
    from cumulative
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
        s.s / s.n_seat_plays as mean_penalty,
        s.s / s.n_seat_plays - mean_ci_half(sd_from_int_sums(s.n_seat_plays, s.s, s.ss), s.n_seat_plays)
            as mean_penalty_lo,
        s.s / s.n_seat_plays + mean_ci_half(sd_from_int_sums(s.n_seat_plays, s.s, s.ss), s.n_seat_plays)
            as mean_penalty_hi,
        sd_from_int_sums(s.n_seat_plays, s.s, s.ss) as sd_penalty,
        s.p05_penalty,
        s.p25_penalty,
        s.median_penalty,
        s.p75_penalty,
        s.p95_penalty,
        s.max_penalty,
        s.n_zero / s.n_seat_plays as share_zero
    from sums as s
    join positions as p using (run_id, policy_spec)
)

select * from final
