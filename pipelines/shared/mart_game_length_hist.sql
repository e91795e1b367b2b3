-- The distribution of game length: plays per number of turns, per run (for histograms).
with games as (
    select * from stg_games
),

counts as (
    select game, run_id, turns, count(*) as n_plays_with_turns
    from games
    group by all
),

final as (
    select
        game,
        run_id,
        turns,
        n_plays_with_turns,
        sum(n_plays_with_turns) over (partition by game, run_id) as n_plays,
        n_plays_with_turns / sum(n_plays_with_turns) over (partition by game, run_id) as share
    from counts
)

select * from final
