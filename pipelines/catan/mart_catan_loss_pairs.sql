-- Catan: does the seat matter for the cards lost to the robber and to discards? Per run, every pair of seats
-- compared play by play: b's mean cards lost a play minus a's, with the 95% interval and two-sided p of the paired
-- difference (the seats of a play share its dice and robber: their difference varies over plays, not seats), and
-- its 90% interval for the TOST against a margin of 1% of the run's mean loss a seat (docs/statistics.md). The
-- report adjusts the p-values over every pair its figure draws (Holm).
with pair_sums as (
    select * from int_catan_loss_pair_sums
),

sums as (
    select
        run_id,
        seat_a,
        seat_b,
        sum(n_plays)::bigint as n_plays,
        sum(a_sum)::bigint as a_sum,
        sum(b_sum)::bigint as b_sum,
        sum(difference_sum)::bigint as difference_sum,
        sum(difference_sq_sum) as difference_sq_sum
    from pair_sums
    group by all
),

scales as (
    -- the run's mean loss a seat: every seat is in as many pairs, each pair has n plays a side
    select run_id, sum(a_sum + b_sum) / (2 * sum(n_plays)) as run_mean
    from sums
    group by all
),

differences as (
    select
        s.*,
        c.run_mean,
        s.difference_sum / s.n_plays as difference,
        sd_from_int_sums(s.n_plays, s.difference_sum, s.difference_sq_sum) as sd_difference
    from sums as s
    join scales as c using (run_id)
),

final as (
    select
        'catan' as game,
        run_id,
        seat_a,
        seat_b,
        n_plays,
        a_sum / n_plays as mean_lost_a,
        b_sum / n_plays as mean_lost_b,
        difference,
        difference - mean_ci_half(sd_difference, n_plays) as difference_lo,
        difference + mean_ci_half(sd_difference, n_plays) as difference_hi,
        difference - mean_ci90_half(sd_difference, n_plays) as difference_lo90,
        difference + mean_ci90_half(sd_difference, n_plays) as difference_hi90,
        case
            when n_plays < 2 then null
            when sd_difference > 0 then 2 * norm_sf(abs(difference) / (sd_difference / sqrt(n_plays)))
            when difference = 0 then 1.0
            else 0.0
        end as p_value,
        0.01 * run_mean as margin,
        difference - mean_ci90_half(sd_difference, n_plays) > -0.01 * run_mean
            and difference + mean_ci90_half(sd_difference, n_plays) < 0.01 * run_mean as equivalent
    from differences
)

select * from final
