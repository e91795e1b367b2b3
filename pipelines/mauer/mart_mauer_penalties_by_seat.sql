-- Die Mauer: the distribution of penalty points (Minuspunkte) by seat, per run, read off the counts per
-- penalty value (quantiles exact, as quantile_disc: the smallest penalty with a share q at or below it).
with penalty_counts as (
    select * from int_mauer_penalty_counts
),

policies as (
    -- a seat's policy can change between plays (table positions rotate through the seats)
    select run_id, seat, count(distinct policy_spec) as n_specs, any_value(policy) as policy
    from penalty_counts
    group by all
),

cumulative as (
    select
        run_id, seat, penalty, n,
        sum(n) over (partition by run_id, seat order by penalty) as up_to,
        sum(n) over (partition by run_id, seat) as total
    from (select run_id, seat, penalty, sum(n_seat_plays) as n from penalty_counts group by all)
),

sums as (
    select
        run_id, seat,
        any_value(total)::bigint as n_plays,
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
        s.seat,
        case when p.n_specs = 1 then p.policy else 'mixed' end as policy,
        s.n_plays,
        s.s / s.n_plays as mean_penalty,
        s.s / s.n_plays - mean_ci_half(sd_from_int_sums(s.n_plays, s.s, s.ss), s.n_plays) as mean_penalty_lo,
        s.s / s.n_plays + mean_ci_half(sd_from_int_sums(s.n_plays, s.s, s.ss), s.n_plays) as mean_penalty_hi,
        sd_from_int_sums(s.n_plays, s.s, s.ss) as sd_penalty,
        s.p05_penalty,
        s.p25_penalty,
        s.median_penalty,
        s.p75_penalty,
        s.p95_penalty,
        s.max_penalty,
        s.n_zero / s.n_plays as share_zero
    from sums as s
    join policies as p using (run_id, seat)
)

select * from final
