-- Die Mauerspechte: the share of hotels paid back within r rolls of their purchase, per run and chip
-- (Kaplan-Meier, games that end first censor their hotels; int_mauerspechte_payback_km), beside the dice's
-- curve: the chance that ceil(cost / 2) rolls of the chip (2 cards each) come within r rolls, robber and
-- bank ignored. Rows at the roll counts where a hotel paid back.
with km as (
    select * from int_mauerspechte_payback_km
),

plays as (
    select * from int_mauerspechte_plays
),

final as (
    select
        'mauerspechte' as game,
        run_id,
        chip,
        6 - abs(7 - chip) as pips,
        cost,
        rolls,
        plays.n_plays,
        n_hotels,
        at_risk,
        n_paid,
        n_unpaid,
        paid_share,
        paid_share_lo,
        paid_share_hi,
        1 - list_sum(list_transform(range(ceil(cost / 2)::int), lambda j: case when j <= rolls then exp(
            lgamma(rolls + 1) - lgamma(j + 1) - lgamma(rolls - j + 1) + j * ln((6 - abs(7 - chip)) / 36)
            + (rolls - j) * ln(1 - (6 - abs(7 - chip)) / 36)) else 0 end)) as analytic_paid_share
    from km
    join plays using (run_id)
)

select * from final
