-- 7 Steps' own columns of a play (the shared stg_games has the length in turns, how the play ended and the
-- winners): rounds, the side it was played on, the towers that collapsed and the discs left in the bag.
with source as (
    select * from lake_sevensteps_games
),

final as (
    select
        run_id::varchar as run_id,
        play_index,
        rounds::int as rounds,
        side::varchar as side,
        collapses::int as collapses,
        bag_left::int as bag_left
    from source
)

select * from final
