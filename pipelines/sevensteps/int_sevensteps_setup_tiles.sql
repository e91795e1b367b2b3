-- 7 Steps, per set-up (each distinct play counted once: mart_run_setups.counted), policy, kind of tile, group of the
-- policy's seats and measure of int_sevensteps_group_sums, with the set-up's side and tile threshold (option_values),
-- runs and plays: the seat-plays, the measure's total and its mean per seat-play, the share of seat-plays with the
-- measure above 0, each with its 95% interval clustered by play. The seats of a play share its bag, so the play is the unit
-- (docs/statistics.md): a mean per seat-play is a ratio of sums R = sum y / sum m over the plays (y: the measure
-- summed over the group's seats in a play, m: those seats; a play without a seat of the group adds 0), its interval
-- normal with the ratio estimator's standard error (ratio_mean_lo/hi); a share (the holders, a win share) takes
-- Wilson's interval at its effective size (ratio_share_lo/hi). What mart_sevensteps_tiles (by kind) and
-- mart_sevensteps_win_by_tiles (by number taken) read.
with group_sums as (
    select * from int_sevensteps_group_sums
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
    select
        setup_id, setup_label, players, lineup_kind, side, tile_threshold,
        count(*) as n_runs, sum(n_plays)::bigint as n_plays
    from setups
    group by all
),

sums as (
    select
        u.setup_id, g.policy_spec, g.kind, g.among, g.level, g.measure,
        any_value(g.policy) as policy,
        sum(g.seats_sum)::bigint as m_s, sum(g.seats_sq_sum)::hugeint as m_ss,
        sum(g.value_sum) as y_s, sum(g.value_sq_sum) as y_ss, sum(g.seats_value_sum) as my_s,
        sum(g.holders_sum)::bigint as h_s, sum(g.holders_sq_sum)::hugeint as h_ss,
        sum(g.seats_holders_sum)::hugeint as mh_s
    from setups as u
    join group_sums as g using (run_id)
    group by all
),

ratios as (
    -- R = sum y / sum m for the measure (v) and the holders (h)
    select
        s.*, u.setup_label, u.players, u.lineup_kind, u.side, u.tile_threshold, u.n_runs, u.n_plays,
        s.y_s / s.m_s as v_ratio,
        s.h_s / s.m_s as h_ratio
    from sums as s
    join setup_plays as u using (setup_id)
),

final as (
    select
        setup_id, setup_label, players, lineup_kind, side, tile_threshold, n_runs, n_plays,
        policy, policy_spec, kind, among, level, measure,
        m_s as seat_plays,
        y_s as total,
        v_ratio as mean,
        ratio_mean_lo(n_plays, y_s, y_ss, my_s, m_s, m_ss) as mean_lo,
        ratio_mean_hi(n_plays, y_s, y_ss, my_s, m_s, m_ss) as mean_hi,
        case when measure = 'win_share' then ratio_share_lo(y_s, y_ss, my_s, m_s, m_ss) end as share_lo,
        case when measure = 'win_share' then ratio_share_hi(y_s, y_ss, my_s, m_s, m_ss) end as share_hi,
        h_s as holders,
        h_ratio as holder_share,
        ratio_share_lo(h_s, h_ss, mh_s, m_s, m_ss) as holder_share_lo,
        ratio_share_hi(h_s, h_ss, mh_s, m_s, m_ss) as holder_share_hi
    from ratios
)

select * from final
