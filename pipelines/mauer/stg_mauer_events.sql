-- Die Mauer's Baurunden (only runs simulated with --events have any).
with source as (
    select * from lake_mauer_events
),

final as (
    select
        run_id::varchar as run_id,
        play_index,
        baurunde::int as baurunde,
        builder_seat::int as builder_seat,
        outcome::varchar as outcome,
        len(builds)::int as pieces_built,
        gift_from is not null as gift
    from source
)

select * from final
