-- Die Mauerspechte, per run, group of seats and measure of int_mauerspechte_group_sums: the seat-plays, the measure's
-- total and its mean per seat-play, the share of seat-plays with the measure above 0, each with its 95% interval
-- clustered by play. The seats of a play share its dice, so the play is the unit
-- (docs/statistics.md): a mean per seat-play is a ratio of sums R = sum y / sum m over the plays (y: the measure
-- summed over the group's seats in a play, m: those seats; a play without a seat of the group adds 0), its interval
-- normal with the ratio estimator's standard error (ratio_mean_lo/hi); a share (the holders, a win share) takes
-- Wilson's interval at its effective size (ratio_share_lo/hi). What the buyers, holdings, wall and points marts read.
with group_sums as (
    select * from int_mauerspechte_group_sums
),

plays as (
    select * from int_mauerspechte_plays
),

sums as (
    select
        run_id, policy_spec, seat, among, level, measure,
        any_value(policy) as policy,
        sum(seats_sum)::bigint as m_s, sum(seats_sq_sum)::hugeint as m_ss,
        sum(value_sum) as y_s, sum(value_sq_sum) as y_ss, sum(seats_value_sum) as my_s,
        sum(holders_sum)::bigint as h_s, sum(holders_sq_sum)::hugeint as h_ss,
        sum(seats_holders_sum)::hugeint as mh_s
    from group_sums
    group by run_id, policy_spec, seat, among, level, measure
),

ratios as (
    -- R = sum y / sum m for the measure (v) and the holders (h)
    select
        s.*, p.n_plays, p.players,
        s.y_s / s.m_s as v_ratio,
        s.h_s / s.m_s as h_ratio
    from sums as s
    join plays as p using (run_id)
),

final as (
    select
        run_id, n_plays, players, policy, policy_spec, seat, among, level, measure,
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
