-- How long plays last (the game's turns: Baurunden for Die Mauer), per run: mean with its 95% interval,
-- standard deviation and quantiles (int_length_stats; mart_setup_length gives the same per set-up).
with stats as (
    select * from int_length_stats
),

final as (
    select
        game,
        unit_id as run_id,
        n_plays,
        mean_turns,
        mean_turns_lo,
        mean_turns_hi,
        sd_turns,
        min_turns,
        p05_turns,
        p25_turns,
        median_turns,
        p75_turns,
        p95_turns,
        max_turns
    from stats
    where grain = 'run'
)

select * from final
