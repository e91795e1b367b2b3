-- Burgenland's seats: pieces placed (the score) and left by kind, the joker economy (taken for walls, from
-- spots, from bonus tiles, for coins; paid; held at the end), the wells built and their rewards, the pieces
-- built in the central castle.
with source as (
    select * from lake_burgenland_seats
),

final as (
    select
        run_id::varchar as run_id,
        play_index,
        seat::int as seat,
        policy::varchar as policy,
        policy_spec::varchar as policy_spec,
        score::int as score,
        rank::int as rank,
        winner,
        pieces_left::int as pieces_left,
        walls_left::int as walls_left,
        houses_left::int as houses_left,
        palases_left::int as palases_left,
        wells_left::int as wells_left,
        turns::int as turns,
        draws::int as draws,
        builds::int as builds,
        start_cards::int as start_cards,
        jokers_walls::int as jokers_walls,
        jokers_spots::int as jokers_spots,
        jokers_tiles::int as jokers_tiles,
        jokers_exchanged::int as jokers_exchanged,
        jokers_gained::int as jokers_gained,
        jokers_used::int as jokers_used,
        jokers_left::int as jokers_left,
        wells_built::int as wells_built,
        well_coins::int as well_coins,
        central_built::int as central_built
    from source
)

select * from final
