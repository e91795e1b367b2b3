-- 7 Steps' own columns of a seat (the shared stg_seats has the policy, score and winner): where the score came
-- from, and the special tiles it took, played and held at the end (build-aid tiles B1-B5 = aids,
-- victory-point tiles S1-S10 = bonuses).
with source as (
    select * from lake_sevensteps_seats
),

final as (
    select
        run_id::varchar as run_id,
        play_index,
        seat::int as seat,
        turn_points::int as turn_points,
        bonus_points::int as bonus_points,
        tile_points::int as tile_points,
        discs::int as discs,
        turns::int as turns,
        aids_taken::int as aids_taken,
        aids_played::int as aids_played,
        aid_left,
        bonuses_taken::int as bonuses_taken,
        bonuses_played::int as bonuses_played,
        bonus_left,
        tiles_taken::int as tiles_taken,
        tiles_played::int as tiles_played,
        tiles_left::int as tiles_left
    from source
)

select * from final
