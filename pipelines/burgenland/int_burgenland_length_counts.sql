-- Burgenland, per run: plays per length (turns and rounds) and end reason. Counts per value, so the length
-- marts' means and quantiles do not grow with the plays.
with games as (
    select * from stg_burgenland_games
),

final as (
    select
        run_id,
        turns,
        rounds,
        end_reason,
        count(*) as n_plays
    from games
    group by run_id, turns, rounds, end_reason
)

select * from final
