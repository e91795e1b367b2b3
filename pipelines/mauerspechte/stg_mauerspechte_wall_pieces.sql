-- Die Mauerspechte's wall pieces, one row per piece bought: section, upper or lower, buyer, turn, price.
with source as (
    select * from lake_mauerspechte_wall_pieces
),

final as (
    select
        run_id::varchar as run_id,
        play_index,
        section::varchar as section,
        piece::varchar as piece,
        seat::int as seat,
        turn::int as turn,
        cost::int as cost
    from source
)

select * from final
