-- Catan's seats with points, card holders and the cards received, robbed and discarded (all resources).
with source as (
    select * from lake_catan_seats
),

final as (
    select
        run_id::varchar as run_id,
        play_index,
        seat::int as seat,
        points::int as points,
        winner,
        longest_route_card,
        largest_army_card,
        (received_lumber + received_brick + received_wool + received_grain + received_ore)::int as received,
        (robbed_lumber + robbed_brick + robbed_wool + robbed_grain + robbed_ore)::int as robbed,
        (discarded_lumber + discarded_brick + discarded_wool + discarded_grain + discarded_ore)::int as discarded,
        policy::varchar as policy,
        policy_spec::varchar as policy_spec
    from source
)

select * from final
