-- Mauerbruch's pairs (runs with --events), with the cards' symbols and values taken from their labels.
with source as (
    select * from lake_mauerbruch_events
),

final as (
    select
        run_id::varchar as run_id,
        play_index,
        take::int as take,
        phase::varchar as phase,
        seat::int as seat,
        label_a::varchar as label_a,
        label_b::varchar as label_b,
        pair_kind::varchar as pair_kind,
        ban2,
        ban5,
        swap_card is not null as swapped
    from source
)

select * from final
