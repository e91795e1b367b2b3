-- Die Mauer's headline for what-if sweeps: the penalty points a seat is left with, averaged over the
-- play's seats.
with seats as (
    select * from stg_mauer_seats
),

final as (
    select
        'mauer' as game,
        run_id,
        play_index,
        'penalty points per seat' as headline,
        avg(penalty)::double as value
    from seats
    group by run_id, play_index
)

select * from final
