-- Die Mauerspechte's Love Parades, one row per chip auctioned: when, who won it, the price in cards, how
-- many bid, whether it came from a missing 2 or 12, and who opened the bidding.
with source as (
    select * from lake_mauerspechte_love_parades
),

final as (
    select
        run_id::varchar as run_id,
        play_index,
        turn::int as turn,
        seat::int as seat,
        price::int as price,
        bidders::int as bidders,
        missing_number,
        seat_on_turn::int as seat_on_turn,
        seat = seat_on_turn as opener_won
    from source
)

select * from final
