-- How long plays last per set-up (the game's turns: Baurunden for Die Mauer), each distinct play counted once:
-- mean with its 95% interval, standard deviation and quantiles (int_length_stats, over the pooled histogram).
with stats as (
    select * from int_length_stats
),

setups as (
    select game, setup_id, any_value(setup_label) as setup_label, any_value(players) as players,
           any_value(lineup_kind) as lineup_kind, count(*) as n_runs
    from mart_run_setups
    where counted
    group by all
),

final as (
    select
        u.game,
        u.setup_id,
        u.setup_label,
        u.players,
        u.lineup_kind,
        u.n_runs,
        s.n_plays,
        s.mean_turns,
        s.mean_turns_lo,
        s.mean_turns_hi,
        s.sd_turns,
        s.min_turns,
        s.p05_turns,
        s.p25_turns,
        s.median_turns,
        s.p75_turns,
        s.p95_turns,
        s.max_turns
    from stats as s
    join setups as u on s.game = u.game and s.unit_id = u.setup_id
    where s.grain = 'setup'
)

select * from final
