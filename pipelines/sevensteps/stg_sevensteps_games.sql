-- 7 Steps' plays: length in rounds and turns, the side, towers collapsed, how the play ended, the winners.
with source as (
    select * from lake_sevensteps_games
),

final as (
    select
        run_id::varchar as run_id,
        play_index,
        players::int as players,
        turns::int as turns,
        rounds::int as rounds,
        side::varchar as side,
        collapses::int as collapses,
        end_reason::varchar as end_reason,
        completed,
        bag_left::int as bag_left,
        winners::int[] as winners
    from source
)

select * from final
