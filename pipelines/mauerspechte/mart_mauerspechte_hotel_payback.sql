-- Die Mauerspechte, the headline: does a hotel pay for itself? Per run and chip (4, 5, 6, 8, 9, 10; price
-- 3, 4, 5 cards): what it gave its owner per roll against the dice's 2 x pips/36 (so every chip's price
-- is earned back in cost / (2 x pips/36) = 18 rolls on average), the share paid back by the game's end,
-- how many rolls that took, the hotels bought too late to earn their price, and the robber's and the bank
-- shortage's toll.
-- The yield per roll is a ratio of sums (yield over rolls, all hotels of the chip); its 95% interval is the
-- delta method's, from integer sums, so memory does not grow with the plays. The payback delays come from
-- the counts per roll (int_mauerspechte_payback_counts), the Kaplan-Meier median from int_mauerspechte_payback_km.
-- The analytic reference ignores robber and bank: a hit pays 2 cards, so ceil(cost / 2) hits pay the price
-- back, and the rolls until then are negative binomial (mean hits / p).
with hotels as (
    select * from stg_mauerspechte_hotels
),

payback_counts as (
    select * from int_mauerspechte_payback_counts
),

payback_km as (
    select * from int_mauerspechte_payback_km
),

plays as (
    select * from int_mauerspechte_plays
),

sums as (
    select
        run_id,
        chip,
        any_value(pips) as pips,
        any_value(cost) as cost,
        count(*) as n_hotels,
        sum(turn)::bigint as turn_sum,
        sum(rolls)::bigint as rolls_sum,
        sum(yield)::bigint as yield_sum,
        sum(yield::bigint * yield) as yield_sq_sum,
        sum(rolls::bigint * rolls) as rolls_sq_sum,
        sum(yield::bigint * rolls) as yield_rolls_sum,
        sum(yield - cost)::bigint as net_sum,
        sum((yield - cost)::bigint * (yield - cost)) as net_sq_sum,
        sum(expected_yield) as expected_sum,
        sum(dice_cards)::bigint as dice_sum,
        sum(robbed)::bigint as robbed_sum,
        sum(short)::bigint as short_sum,
        count(*) filter (where paid_back) as n_paid,
        count(*) filter (where bought_late) as n_late,
        count(*) filter (where bought_late and not paid_back) as n_late_unpaid,
        count(*) filter (where won) as n_won
    from hotels
    group by all
),

delay_cumulative as (
    select
        run_id, chip, rolls, n_paid,
        sum(n_paid) over (partition by run_id, chip order by rolls) as paid_up_to,
        sum(n_paid) over (partition by run_id, chip) as paid_total
    from payback_counts
),

delays as (
    select
        run_id,
        chip,
        sum(rolls::bigint * n_paid) as delay_sum,
        sum(rolls::hugeint * rolls * n_paid) as delay_sq_sum,
        min(rolls) filter (where n_paid > 0 and paid_up_to >= paid_total * 0.5) as median_payback_rolls
    from delay_cumulative
    group by all
),

km_medians as (
    select run_id, chip, min(rolls) filter (where paid_share >= 0.5) as km_median_payback_rolls
    from payback_km
    group by all
),

analytic_curve as (
    -- P(at least ceil(cost / 2) rolls of the chip in r rolls), r = 0 .. 2000: the dice's payback curve.
    select
        chip,
        r,
        1 - list_sum(list_transform(range(ceil(cost / 2)::int), lambda j: case when j <= r then exp(
            lgamma(r + 1) - lgamma(j + 1) - lgamma(r - j + 1) + j * ln(pips / 36) + (r - j) * ln(1 - pips / 36))
            else 0 end)) as cdf
    from (select distinct chip, pips, cost from sums)
    cross join range(0, 2001) as rs(r)
),

analytic_medians as (
    select chip, min(r) filter (where cdf >= 0.5) as analytic_median_payback_rolls
    from analytic_curve
    group by all
),

rates as (
    select
        s.*,
        p.n_plays,
        s.yield_sum / nullif(s.rolls_sum, 0) as yield_per_roll,
        2 * s.pips / 36 as analytic_per_roll,
        -- delta method for a ratio of sums: var(yield - R rolls) over hotels, divided by the mean rolls
        1.96 * sqrt(greatest(s.yield_sq_sum - 2 * (s.yield_sum / nullif(s.rolls_sum, 0)) * s.yield_rolls_sum
                             + (s.yield_sum / nullif(s.rolls_sum, 0)) ^ 2 * s.rolls_sq_sum, 0)
                    / nullif(s.n_hotels - 1, 0) * s.n_hotels) / nullif(s.rolls_sum, 0) as rate_half
    from sums as s
    join plays as p using (run_id)
),

final as (
    select
        'mauerspechte' as game,
        r.run_id,
        r.chip,
        r.pips,
        r.cost,
        r.n_plays,
        r.n_hotels,
        r.n_hotels / r.n_plays as bought_share,
        r.turn_sum / r.n_hotels as mean_buy_turn,
        r.rolls_sum / r.n_hotels as mean_rolls,
        r.yield_per_roll,
        r.yield_per_roll - r.rate_half as yield_per_roll_lo,
        r.yield_per_roll + r.rate_half as yield_per_roll_hi,
        r.analytic_per_roll,
        r.yield_per_roll / r.analytic_per_roll as yield_ratio,
        (r.yield_per_roll - r.rate_half) / r.analytic_per_roll as yield_ratio_lo,
        (r.yield_per_roll + r.rate_half) / r.analytic_per_roll as yield_ratio_hi,
        r.cost / nullif(r.yield_per_roll, 0) as break_even_rolls,
        r.cost / nullif(r.yield_per_roll + r.rate_half, 0) as break_even_rolls_lo,
        case when r.yield_per_roll - r.rate_half > 0 then r.cost / (r.yield_per_roll - r.rate_half) end
            as break_even_rolls_hi,
        r.cost / r.analytic_per_roll as analytic_break_even_rolls,
        r.yield_sum / r.n_hotels as mean_yield,
        mean_lo_int(r.n_hotels, r.yield_sum, r.yield_sq_sum) as mean_yield_lo,
        mean_hi_int(r.n_hotels, r.yield_sum, r.yield_sq_sum) as mean_yield_hi,
        r.expected_sum / r.n_hotels as mean_expected_yield,
        r.net_sum / r.n_hotels as mean_net,
        mean_lo_int(r.n_hotels, r.net_sum, r.net_sq_sum) as mean_net_lo,
        mean_hi_int(r.n_hotels, r.net_sum, r.net_sq_sum) as mean_net_hi,
        r.n_paid,
        r.n_paid / r.n_hotels as paid_back_share,
        wilson_lo(r.n_paid, r.n_hotels) as paid_back_share_lo,
        wilson_hi(r.n_paid, r.n_hotels) as paid_back_share_hi,
        d.median_payback_rolls,
        d.delay_sum / nullif(r.n_paid, 0) as mean_payback_rolls,
        d.delay_sum / nullif(r.n_paid, 0)
            - mean_ci_half(sd_from_int_sums(r.n_paid, d.delay_sum, d.delay_sq_sum), r.n_paid) as mean_payback_rolls_lo,
        d.delay_sum / nullif(r.n_paid, 0)
            + mean_ci_half(sd_from_int_sums(r.n_paid, d.delay_sum, d.delay_sq_sum), r.n_paid) as mean_payback_rolls_hi,
        k.km_median_payback_rolls,
        a.analytic_median_payback_rolls,
        ceil(r.cost / 2) / (r.pips / 36) as analytic_mean_payback_rolls,
        r.n_late / r.n_hotels as late_share,
        wilson_lo(r.n_late, r.n_hotels) as late_share_lo,
        wilson_hi(r.n_late, r.n_hotels) as late_share_hi,
        r.n_late_unpaid / nullif(r.n_hotels - r.n_paid, 0) as unpaid_late_share,
        2 * r.robbed_sum / r.n_hotels as mean_robbed_cards,
        r.short_sum / r.n_hotels as mean_short_cards,
        r.dice_sum / nullif(r.expected_sum, 0) as dice_ratio,
        2 * r.robbed_sum / nullif(r.expected_sum, 0) as robber_toll_share,
        r.short_sum / nullif(r.expected_sum, 0) as bank_toll_share,
        r.n_won / r.n_hotels as buyer_win_rate,
        wilson_lo(r.n_won, r.n_hotels) as buyer_win_rate_lo,
        wilson_hi(r.n_won, r.n_hotels) as buyer_win_rate_hi
    from rates as r
    left join delays as d using (run_id, chip)
    left join km_medians as k using (run_id, chip)
    join analytic_medians as a using (chip)
)

select * from final
