-- Die Mauerspechte's seats: points by source (the points_* columns add up to points), hotels owned, and
-- the cards received (all resources together).
with source as (
    select * from lake_mauerspechte_seats
),

final as (
    select
        run_id::varchar as run_id,
        play_index,
        seat::int as seat,
        policy::varchar as policy,
        policy_spec::varchar as policy_spec,
        points::int as points,
        winner,
        points_settlements::int as points_settlements,
        points_cities::int as points_cities,
        points_longest_route::int as points_longest_route,
        points_army::int as points_army,
        points_dev_cards::int as points_dev_cards,
        points_wall::int as points_wall,
        points_chips::int as points_chips,
        points_mauerspecht::int as points_mauerspecht,
        points_raver::int as points_raver,
        points_hotels::int as points_hotels,
        hotels::int as hotels,
        (received_lumber + received_brick + received_wool + received_grain + received_ore)::int as received
    from source
)

select * from final
