-- Die Mauerspechte's plays: length, the one winner (none on the turn limit), when the wall opened, and how
-- many wall pieces, hotels and Love Parades the play had.
with source as (
    select * from lake_mauerspechte_games
),

final as (
    select
        run_id::varchar as run_id,
        play_index,
        players::int as players,
        turns::int as turns,
        rounds::int as rounds,
        end_reason::varchar as end_reason,
        completed,
        winners[1]::int as winner,
        winner_points::int as winner_points,
        wall_opened_turn::int as wall_opened_turn,
        wall_pieces::int as wall_pieces,
        hotels::int as hotels,
        love_parades::int as love_parades,
        tiergarten_left::int as tiergarten_left
    from source
)

select * from final
