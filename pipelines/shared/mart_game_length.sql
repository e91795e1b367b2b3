-- How long plays last (the game's turns: Baurunden for Die Mauer), per run.
with games as (
    select * from stg_games
),

final as (
    select
        game,
        run_id,
        count(*) as n_plays,
        avg(turns) as mean_turns,
        avg(turns) - mean_ci_half(stddev_samp(turns), count(*)) as mean_turns_lo,
        avg(turns) + mean_ci_half(stddev_samp(turns), count(*)) as mean_turns_hi,
        stddev_samp(turns) as sd_turns,
        min(turns) as min_turns,
        quantile_disc(turns, 0.05) as p05_turns,
        quantile_disc(turns, 0.25) as p25_turns,
        quantile_disc(turns, 0.5) as median_turns,
        quantile_disc(turns, 0.75) as p75_turns,
        quantile_disc(turns, 0.95) as p95_turns,
        max(turns) as max_turns
    from games
    group by all
)

select * from final
