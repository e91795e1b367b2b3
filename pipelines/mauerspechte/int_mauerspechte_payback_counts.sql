-- Die Mauerspechte: hotels per chip and number of rolls after the purchase, split into those that paid
-- back at that roll (n_paid) and those the game's end left unpaid after that many rolls (n_unpaid: the
-- censored ones of a survival analysis). Counts, so the delay statistics built on them do not grow with
-- the plays.
with hotels as (
    select * from stg_mauerspechte_hotels
),

observed as (
    select
        run_id,
        chip,
        cost,
        case when paid_back then payback_rolls else rolls end as rolls,
        paid_back
    from hotels
),

final as (
    select
        run_id,
        chip,
        any_value(cost) as cost,
        rolls,
        count(*) filter (where paid_back) as n_paid,
        count(*) filter (where not paid_back) as n_unpaid
    from observed
    group by run_id, chip, rolls
)

select * from final
