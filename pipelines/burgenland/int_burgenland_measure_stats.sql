-- Burgenland, per set-up (its counted runs), policy, group of its seats and measure of int_burgenland_group_sums: the
-- seat-plays, the measure's total and its mean per seat-play, the share of seat-plays holding at least one, each with
-- its 95% interval clustered by play. The seats of a play share its cards, so the play is the unit
-- (docs/statistics.md): a mean per seat-play is a ratio of sums R = sum y / sum m over the plays (y: the measure
-- summed over the group's seats in a play, m: those seats; a play without a seat of the group adds 0), its interval
-- normal with the ratio estimator's standard error (ratio_mean_lo/hi); a share (the holders, a win share) takes
-- Wilson's interval at its effective size (ratio_share_lo/hi). What mart_burgenland_pieces_left, _jokers, _wells, _central and
-- _win_by_wells read.
with group_sums as (
    select * from int_burgenland_group_sums
),

setup_runs as (
    select * from int_burgenland_setups
),

setups as (
    select distinct setup_id, setup_label, players, start_hands, n_runs, n_plays from setup_runs
),

sums as (
    select
        u.setup_id, g.policy_spec, g.among, g.level, g.measure,
        any_value(g.policy) as policy,
        sum(g.seats_sum)::bigint as m_s, sum(g.seats_sq_sum)::hugeint as m_ss,
        sum(g.value_sum) as y_s, sum(g.value_sq_sum) as y_ss, sum(g.seats_value_sum) as my_s,
        sum(g.holders_sum)::bigint as h_s, sum(g.holders_sq_sum)::hugeint as h_ss,
        sum(g.seats_holders_sum)::hugeint as mh_s
    from setup_runs as u
    join group_sums as g using (run_id)
    group by all
),

ratios as (
    -- R = sum y / sum m for the measure (v) and the holders (h)
    select
        s.*, u.setup_label, u.players, u.start_hands, u.n_runs, u.n_plays,
        s.y_s / s.m_s as v_ratio,
        s.h_s / s.m_s as h_ratio
    from sums as s
    join setups as u using (setup_id)
),

final as (
    select
        setup_id, setup_label, players, start_hands, n_runs, n_plays,
        policy, policy_spec, among, level, measure,
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
