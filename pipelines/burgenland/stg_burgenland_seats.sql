-- Burgenland's seats: the policy, winning or not, and the seat's counts as int: pieces placed (the score) and
-- left by kind, rank, turns, draws and builds, the starting hand, the joker economy (taken for walls, from
-- spots, from bonus tiles, for coins; paid; held at the end), the wells built and their rewards, the pieces
-- built in the central castle.
with source as (
    select * from lake_burgenland_seats
),

final as (
    select
        columns([
            'seat', 'score', 'rank', 'pieces_left', 'walls_left', 'houses_left', 'palases_left', 'wells_left',
            'turns', 'draws', 'builds', 'start_cards', 'jokers_walls', 'jokers_spots', 'jokers_tiles',
            'jokers_exchanged', 'jokers_gained', 'jokers_used', 'jokers_left', 'wells_built', 'well_coins',
            'central_built'
        ])::int,
        run_id::varchar as run_id,
        play_index,
        policy::varchar as policy,
        policy_spec::varchar as policy_spec,
        winner
    from source
)

select * from final
