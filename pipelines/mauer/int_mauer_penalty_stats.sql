-- Die Mauer: penalty statistics per run and seat, and per run and policy, read off the counts per
-- penalty value (one grouping set each; the other key is null). Quantiles exact, as quantile_disc: the
-- smallest penalty with at least a share q of the seat-plays at or below it.
with penalty_counts as (
    select * from int_mauer_penalty_counts
),

by_value as (
    select run_id, seat, policy_spec, penalty, sum(n_seat_plays) as n
    from penalty_counts
    group by grouping sets ((run_id, seat, penalty), (run_id, policy_spec, penalty))
),

cumulative as (
    select
        *,
        sum(n) over (partition by run_id, seat, policy_spec order by penalty) as up_to,
        sum(n) over (partition by run_id, seat, policy_spec) as total
    from by_value
),

sums as (
    select
        run_id,
        seat,
        policy_spec,
        any_value(total)::bigint as n_seat_plays,
        sum(penalty::bigint * n) as penalty_sum,
        sum(penalty::hugeint * penalty * n) as penalty_sq_sum,
        min(penalty) filter (where up_to >= total * 0.05) as p05_penalty,
        min(penalty) filter (where up_to >= total * 0.25) as p25_penalty,
        min(penalty) filter (where up_to >= total * 0.5) as median_penalty,
        min(penalty) filter (where up_to >= total * 0.75) as p75_penalty,
        min(penalty) filter (where up_to >= total * 0.95) as p95_penalty,
        max(penalty) as max_penalty,
        coalesce(sum(n) filter (where penalty = 0), 0)::bigint as n_zero
    from cumulative
    group by run_id, seat, policy_spec
),

final as (
    select
        *,
        penalty_sum / n_seat_plays as mean_penalty,
        penalty_sum / n_seat_plays
            - mean_ci_half(sd_from_int_sums(n_seat_plays, penalty_sum, penalty_sq_sum), n_seat_plays) as mean_penalty_lo,
        penalty_sum / n_seat_plays
            + mean_ci_half(sd_from_int_sums(n_seat_plays, penalty_sum, penalty_sq_sum), n_seat_plays) as mean_penalty_hi,
        sd_from_int_sums(n_seat_plays, penalty_sum, penalty_sq_sum) as sd_penalty
    from sums
)

select * from final
