-- Catan: cards received from rolls against what the dice promised (pips/36 per roll), per run, building kind and
-- resource. The gap is what the robber and the bank shortage take. The play is the unit: its seats share its
-- dice, its robber and its bank, so the sums come per play, all seats together (int_catan_production_play_sums),
-- and every interval is over plays. The ratio received / promised is a ratio of two sums over plays: its interval
-- and p-value (against 1, the dice's promise kept) use the ratio estimator's standard error (macro ratio_se, r and
-- e a play's received and promised cards; docs/statistics.md).
with play_sums as (
    select * from int_catan_production_play_sums
),

games as (
    select * from stg_catan_games
),

plays as (
    select run_id, count(*) as n_plays
    from games
    group by all
),

sums as (
    select
        run_id,
        building,
        resource,
        sum(received)::bigint as received,
        sum(received_sq_sum)::bigint as received_sq_sum,
        sum(expected) as expected,
        sum(expected_sq_sum) as expected_sq_sum,
        sum(received_by_expected_sum) as received_by_expected_sum
    from play_sums
    group by all
),

ratios as (
    select
        s.*,
        p.n_plays,
        s.received / nullif(s.expected, 0) as ratio,
        -- a play's difference received - promised: its sum and sum of squares over plays
        s.received - s.expected as difference_sum,
        s.received_sq_sum - 2 * s.received_by_expected_sum + s.expected_sq_sum as difference_sq_sum
    from sums as s
    join plays as p using (run_id)
),

errors as (
    select
        *,
        sd_from_sums(n_plays, difference_sum, difference_sq_sum) as sd_difference,
        ratio_se(n_plays, received, received_sq_sum, received_by_expected_sum, expected, expected_sq_sum) as ratio_se
    from ratios
),

final as (
    select
        'catan' as game,
        run_id,
        building,
        resource,
        n_plays,
        received,
        expected,
        received / n_plays as received_per_play,
        expected / n_plays as expected_per_play,
        difference_sum / n_plays as mean_difference,
        difference_sum / n_plays - mean_ci_half(sd_difference, n_plays) as mean_difference_lo,
        difference_sum / n_plays + mean_ci_half(sd_difference, n_plays) as mean_difference_hi,
        sd_difference,
        ratio,
        ratio - 1.96 * ratio_se as ratio_lo,
        ratio + 1.96 * ratio_se as ratio_hi,
        ratio - 1.6448536269514722 * ratio_se as ratio_lo90,
        ratio + 1.6448536269514722 * ratio_se as ratio_hi90,
        case
            when ratio_se > 0 then 2 * norm_sf(abs(ratio - 1) / ratio_se)
            when ratio_se = 0 then (ratio = 1)::int::double
        end as ratio_p
    from errors
)

select * from final
