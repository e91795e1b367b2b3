-- One row per play, the columns every game has.
with source as (
    select * from lake_games
),

final as (
    select
        game::varchar as game,
        run_id::varchar as run_id,
        play_index,
        players::int as players,
        turns::int as turns,
        end_reason::varchar as end_reason,
        completed,
        winners::int[] as winners
    from source
)

select * from final
