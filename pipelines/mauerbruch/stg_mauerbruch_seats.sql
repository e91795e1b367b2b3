-- Mauerbruch's seats with their own counts.
with source as (
    select * from lake_mauerbruch_seats
),

final as (
    select
        run_id::varchar as run_id,
        play_index,
        seat::int as seat,
        policy::varchar as policy,
        cards::int as cards,
        winner,
        opened,
        pairs::int as pairs,
        doubles::int as doubles,
        swaps::int as swaps,
        bonus_cards::int as bonus_cards
    from source
)

select * from final
