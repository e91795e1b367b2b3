-- 7 Steps' turns (runs with events only): the build-aid tile played at the start (aid), the discs placed,
-- the victory-point tile played after placing (bonus) and its points, the turn's score, and the tile taken
-- after a low-scoring turn.
with source as (
    select * from lake_sevensteps_turns
),

final as (
    select
        run_id::varchar as run_id,
        play_index,
        turn::int as turn,
        seat::int as seat,
        aid::varchar as aid,
        placed::int as placed,
        bonus::varchar as bonus,
        bonus_points::int as bonus_points,
        turn_score::int as turn_score,
        taken::varchar as taken,
        taken_tile::varchar as taken_tile
    from source
)

select * from final
