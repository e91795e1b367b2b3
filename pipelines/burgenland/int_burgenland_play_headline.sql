-- Burgenland's headline for what-if sweeps: did the start player (seat 0) win? Its mean over plays is
-- the start player's win rate.
with seats as (
    select * from stg_burgenland_seats
),

final as (
    select
        'burgenland' as game,
        run_id,
        play_index,
        'start player win rate' as headline,
        winner::int::double as value
    from seats
    where seat = 0
)

select * from final
