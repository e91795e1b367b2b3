-- Die Mauerspechte: the share of hotels paid back within r rolls of their purchase, per run and chip, by
-- Kaplan-Meier: a game that ends first leaves its hotel unpaid after fewer rolls (censored), so the share
-- among all hotels would understate the payback, and the delay among the paid-back ones alone would
-- flatter it. At each roll count r where a hotel paid back: at_risk = hotels neither paid back nor cut off
-- before r rolls; the unpaid share S(r) is the product of (1 - n_paid / at_risk) up to r. The 95% interval
-- is Greenwood's with the log(-log) transform (it stays in [0, 1]). Rows only where a hotel paid back.
with counts as (
    select * from int_mauerspechte_payback_counts
),

risk as (
    select
        *,
        sum(n_paid + n_unpaid) over (partition by run_id, chip) as n_hotels,
        coalesce(sum(n_paid + n_unpaid) over (
            partition by run_id, chip order by rolls rows between unbounded preceding and 1 preceding), 0)
            as left_before
    from counts
),

steps as (
    select
        run_id, chip, cost, rolls, n_paid, n_unpaid, n_hotels,
        n_hotels - left_before as at_risk
    from risk
    where n_paid > 0
),

products as (
    select
        *,
        sum(case when n_paid < at_risk then ln(1 - n_paid / at_risk) else 0 end)
            over (partition by run_id, chip order by rolls) as log_unpaid,
        max((n_paid = at_risk)::int) over (partition by run_id, chip order by rolls) as all_paid,
        sum(case when n_paid < at_risk then n_paid / (at_risk * (at_risk - n_paid)) else 0 end)
            over (partition by run_id, chip order by rolls) as greenwood
    from steps
),

bounds as (
    select
        *,
        case when all_paid = 1 then 0.0 else exp(log_unpaid) end as unpaid_share,
        -- log(-log S) has standard error sqrt(greenwood) / |log S|; S at the bounds: S^exp(-+1.96 se)
        case when all_paid = 0 and log_unpaid < 0 then 1.96 * sqrt(greenwood) / abs(log_unpaid) end as half
    from products
),

final as (
    select
        run_id,
        chip,
        cost,
        rolls,
        n_hotels,
        at_risk,
        n_paid,
        n_unpaid,
        1 - unpaid_share as paid_share,
        case when all_paid = 1 then 1.0 else 1 - exp(log_unpaid * exp(-half)) end as paid_share_lo,
        case when all_paid = 1 then 1.0 else 1 - exp(log_unpaid * exp(half)) end as paid_share_hi
    from bounds
)

select * from final
