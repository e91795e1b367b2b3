-- 7 Steps, how long a play lasts, per set-up (each distinct play counted once: mart_run_setups.counted), in turns,
-- the game's one unit of length (turn_name in its report.py): the shared mart_setup_length's mean, interval, standard deviation
-- and quantiles. With what is 7 Steps' own: the side and tile threshold (option_values), completion (the bag
-- emptied, not the turn limit; the runs' incomplete plays in mart_run_balance) and the towers that collapsed (mean
-- with its 95% interval).
with lengths as (
    select * from mart_setup_length
),

balance as (
    select * from mart_run_balance
),

collapses as (
    select * from int_sevensteps_collapse_sums
),

setups as (
    select * from mart_run_setups where game = 'sevensteps' and counted
),

sums as (
    select
        u.setup_id,
        any_value(u.option_values ->> 'side') as side,
        any_value((u.option_values ->> 'tile_threshold')::int) as tile_threshold,
        sum(c.n_plays)::bigint as n,
        sum(b.incomplete_plays)::bigint as n_incomplete,
        sum(c.collapses_sum)::bigint as collapses_s,
        sum(c.collapses_sq_sum)::hugeint as collapses_ss
    from setups as u
    join collapses as c using (run_id)
    join balance as b using (game, run_id)
    group by all
),

final as (
    select
        l.game,
        l.setup_id,
        l.setup_label,
        l.players,
        l.lineup_kind,
        s.side,
        s.tile_threshold,
        l.n_runs,
        l.n_plays,
        l.mean_turns,
        l.mean_turns_lo,
        l.mean_turns_hi,
        l.sd_turns,
        l.min_turns,
        l.p05_turns,
        l.median_turns,
        l.p95_turns,
        l.max_turns,
        1 - s.n_incomplete / s.n as completion_rate,
        s.collapses_s / s.n as mean_collapses,
        mean_lo_int(s.n, s.collapses_s, s.collapses_ss) as mean_collapses_lo,
        mean_hi_int(s.n, s.collapses_s, s.collapses_ss) as mean_collapses_hi
    from lengths as l
    join sums as s using (setup_id)
    where l.game = 'sevensteps'
)

select * from final
