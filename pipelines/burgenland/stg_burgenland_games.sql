-- Burgenland's plays: the starting hands, how the play ended and its winner, and its counts (players, turns,
-- rounds begun, wells, swaps and central-castle pieces built, reshuffles), small integers in the lake, as int.
with source as (
    select * from lake_burgenland_games
),

final as (
    select
        columns(['players', 'turns', 'rounds', 'wells_built', 'swaps_used', 'central_built', 'reshuffles'])::int,
        run_id::varchar as run_id,
        play_index,
        start_hands::varchar as start_hands,
        end_reason::varchar as end_reason,
        completed,
        winners::int[] as winners
    from source
)

select * from final
