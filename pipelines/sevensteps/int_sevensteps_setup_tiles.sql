-- 7 Steps' tile counts per set-up (each distinct play counted once: mart_run_setups.counted), policy, kind of
-- tile, number taken and winning, with the set-up's side and tile threshold (option_values), runs and plays:
-- what mart_sevensteps_tiles (by kind) and mart_sevensteps_win_by_tiles (by number taken) add up.
with counts as (
    select * from int_sevensteps_tile_counts
),

setups as (
    select
        run_id,
        setup_id,
        setup_label,
        players,
        lineup_kind,
        n_plays,
        option_values ->> 'side' as side,
        (option_values ->> 'tile_threshold')::int as tile_threshold
    from mart_run_setups
    where game = 'sevensteps' and counted
),

setup_plays as (
    select setup_id, count(*) as n_runs, sum(n_plays)::bigint as n_plays
    from setups
    group by setup_id
),

pooled as (
    select
        u.setup_id, u.setup_label, u.players, u.lineup_kind, u.side, u.tile_threshold,
        c.policy_spec, c.kind, c.taken, c.winner,
        any_value(c.policy) as policy,
        sum(c.n_seat_plays)::bigint as n_seat_plays,
        sum(c.played_sum)::bigint as played_sum,
        sum(c.played_sq_sum)::hugeint as played_sq_sum,
        sum(c.left_sum)::bigint as left_sum,
        sum(c.left_sq_sum)::hugeint as left_sq_sum,
        sum(c.holders)::bigint as holders,
        sum(c.score_sum)::bigint as score_sum,
        sum(c.score_sq_sum)::hugeint as score_sq_sum
    from counts as c
    join setups as u using (run_id)
    group by all
),

final as (
    select p.*, s.n_runs, s.n_plays
    from pooled as p
    join setup_plays as s using (setup_id)
)

select * from final
