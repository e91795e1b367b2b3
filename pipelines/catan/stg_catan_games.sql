-- Catan's plays: how many seats, how many rounds, and the one winner (Catan has one or, on the turn limit,
-- none).
with source as (
    select * from lake_catan_games
),

final as (
    select
        run_id::varchar as run_id,
        play_index,
        players::int as players,
        rounds::int as rounds,
        completed,
        winners[1]::int as winner
    from source
)

select * from final
