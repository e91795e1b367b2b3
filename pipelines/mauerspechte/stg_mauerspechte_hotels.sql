-- Die Mauerspechte's hotels, one row per hotel bought: its chip and price, the rolls it lived through and
-- what it gave its owner, against the dice's promise (2 cards per roll of its chip: pips(chip)/36 x 2 per
-- roll). A hotel that is not robbed and not short gets 2 cards each time its chip is rolled, so
-- yield + 2 x robbed + short is what the dice alone gave it (dice_cards). The payback delay is counted in
-- rolls after the purchase: a hotel is bought after its buyer's roll, and every later turn has one roll,
-- so the roll that paid it back is the (payback_turn - turn)-th after it was bought.
with source as (
    select * from lake_mauerspechte_hotels
),

final as (
    select
        run_id::varchar as run_id,
        play_index,
        hotel::varchar as hotel,
        field::int as field,
        resource::varchar as resource,
        chip::int as chip,
        6 - abs(7 - chip::int) as pips,
        old_token::int as old_token,
        seat::int as seat,
        turn::int as turn,
        game_turns::int as game_turns,
        cost::int as cost,
        rolls::int as rolls,
        yield::int as yield,
        expected_yield::double as expected_yield,
        robbed::int as robbed,
        short::int as short,
        (yield + 2 * robbed + short)::int as dice_cards,
        payback_turn is not null as paid_back,
        (payback_turn - turn)::int as payback_rolls,
        expected_yield < cost as bought_late,
        field_owner::int as field_owner,
        field_others::int as field_others,
        old_owner::int as old_owner,
        old_others::int as old_others,
        won
    from source
)

select * from final
