-- 7 Steps' seats: the score and where it came from, and the special tiles each seat took, played and held
-- at the end (build-aid tiles B1-B5 = aids, victory-point tiles S1-S10 = bonuses).
with source as (
    select * from lake_sevensteps_seats
),

final as (
    select
        run_id::varchar as run_id,
        play_index,
        seat::int as seat,
        policy::varchar as policy,
        policy_spec::varchar as policy_spec,
        score::int as score,
        winner,
        turn_points::int as turn_points,
        bonus_points::int as bonus_points,
        tile_points::int as tile_points,
        discs::int as discs,
        turns::int as turns,
        aids_taken::int as aids_taken,
        bonuses_taken::int as bonuses_taken,
        tiles_taken::int as tiles_taken,
        aids_played::int as aids_played,
        bonuses_played::int as bonuses_played,
        tiles_played::int as tiles_played,
        aid_left,
        bonus_left,
        tiles_left::int as tiles_left
    from source
)

select * from final
