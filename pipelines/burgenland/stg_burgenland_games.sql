-- Burgenland's plays: the starting hands, length in turns and rounds, how the play ended, the wells, swaps and
-- central-castle pieces built, the reshuffles, the winner.
with source as (
    select * from lake_burgenland_games
),

final as (
    select
        run_id::varchar as run_id,
        play_index,
        players::int as players,
        start_hands::varchar as start_hands,
        turns::int as turns,
        rounds::int as rounds,
        end_reason::varchar as end_reason,
        completed,
        wells_built::int as wells_built,
        swaps_used::int as swaps_used,
        central_built::int as central_built,
        reshuffles::int as reshuffles,
        winners::int[] as winners
    from source
)

select * from final
