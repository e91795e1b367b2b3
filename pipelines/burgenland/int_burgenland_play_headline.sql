-- Burgenland's headline for what-if sweeps: how far behind the seats that did not win are, as the pieces
-- they still hold at the end, per play the mean over those seats (a play every seat won has none). Its
-- mean over plays is the figure. Seat 0's win rate would repeat the sweep's own seat-0 panel.
with seats as (
    select * from stg_burgenland_seats
),

final as (
    select
        'burgenland' as game,
        run_id,
        play_index,
        'pieces left per seat that did not win' as headline,
        avg(pieces_left)::double as value
    from seats
    where not winner
    group by run_id, play_index
)

select * from final
