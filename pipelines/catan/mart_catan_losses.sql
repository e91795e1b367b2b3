-- Catan: cards lost to the robber and to discards on a 7, per run and seat: means per play with 95%
-- intervals from integer sums, and their share of the cards the seat received.
with seats as (
    select * from stg_catan_seats
),

sums as (
    select
        run_id,
        seat,
        count(distinct policy_spec) as n_specs,
        any_value(policy) as policy,
        count(*) as n_plays,
        sum(robbed)::bigint as robbed_sum,
        sum(robbed::bigint * robbed) as robbed_sq_sum,
        sum(discarded)::bigint as discarded_sum,
        sum(discarded::bigint * discarded) as discarded_sq_sum,
        sum(robbed + discarded)::bigint as lost_sum,
        sum((robbed + discarded)::bigint * (robbed + discarded)) as lost_sq_sum,
        sum(received)::bigint as received_sum
    from seats
    group by all
),

final as (
    select
        'catan' as game,
        run_id,
        seat,
        case when n_specs = 1 then policy else 'mixed' end as policy,
        n_plays,
        robbed_sum / n_plays as mean_robbed,
        robbed_sum / n_plays - mean_ci_half(sd_from_int_sums(n_plays, robbed_sum, robbed_sq_sum), n_plays)
            as mean_robbed_lo,
        robbed_sum / n_plays + mean_ci_half(sd_from_int_sums(n_plays, robbed_sum, robbed_sq_sum), n_plays)
            as mean_robbed_hi,
        discarded_sum / n_plays as mean_discarded,
        discarded_sum / n_plays - mean_ci_half(sd_from_int_sums(n_plays, discarded_sum, discarded_sq_sum), n_plays)
            as mean_discarded_lo,
        discarded_sum / n_plays + mean_ci_half(sd_from_int_sums(n_plays, discarded_sum, discarded_sq_sum), n_plays)
            as mean_discarded_hi,
        lost_sum / n_plays as mean_lost,
        lost_sum / n_plays - mean_ci_half(sd_from_int_sums(n_plays, lost_sum, lost_sq_sum), n_plays) as mean_lost_lo,
        lost_sum / n_plays + mean_ci_half(sd_from_int_sums(n_plays, lost_sum, lost_sq_sum), n_plays) as mean_lost_hi,
        received_sum / n_plays as mean_received,
        robbed_sum / nullif(received_sum, 0) as robbed_share,
        discarded_sum / nullif(received_sum, 0) as discarded_share,
        lost_sum / nullif(received_sum, 0) as lost_share
    from sums
)

select * from final
