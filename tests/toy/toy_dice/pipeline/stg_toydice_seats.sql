-- Toy dice's seats with their totals.
with source as (
    select * from lake_toydice_seats
),

final as (
    select run_id::varchar as run_id, play_index, seat::int as seat, total::int as total
    from source
)

select * from final
