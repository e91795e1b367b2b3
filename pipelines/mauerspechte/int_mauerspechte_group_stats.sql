-- Die Mauerspechte, per run, group of seats and measure of int_mauerspechte_group_sums: the seat-plays, the measure's
-- total and its mean per seat-play, the share of seat-plays with the measure above 0, each with its 95% interval
-- clustered by play. The seats of a play share its dice, so the play is the unit (docs/statistics.md): a mean per seat-
-- play is a ratio of sums R = sum y / sum m over the plays (y: the measure summed over the group's seats in a play, m:
-- those seats), its variance sum (y - R m)^2 n / ((n - 1) (sum m)^2) over the run's n plays (a play without a seat of
-- the group adds 0). A mean's interval is normal; a share's (the holders, a win share) is Wilson's at the effective
-- size R (1 - R) / (sum (y - R m)^2 / (sum m)^2), as the shared share_lo does for one value a play (where it is then
-- the plays). What the buyers, holdings, wall and points marts read.
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
    -- R = sum y / sum m and its variance clustered by play, for the measure (v) and the holders (h)
    select
        s.*, p.n_plays, p.players,
        s.y_s / s.m_s as v_ratio,
        s.h_s / s.m_s as h_ratio,
        case when p.n_plays > 1 then greatest(0, s.y_ss - 2 * (s.y_s / s.m_s) * s.my_s + (s.y_s / s.m_s) ^ 2 * s.m_ss)
            * p.n_plays / ((p.n_plays - 1.0) * s.m_s * s.m_s) end as v_var,
        case when p.n_plays > 1 then greatest(0, s.h_ss - 2 * (s.h_s / s.m_s) * s.mh_s + (s.h_s / s.m_s) ^ 2 * s.m_ss)
            * p.n_plays / ((p.n_plays - 1.0) * s.m_s * s.m_s) end as h_var,
        -- a share's effective size takes the variance without the n / (n - 1) of a mean's interval, as the shared
        -- share_effective_n does: one seat a play, it is then exactly the plays
        greatest(0, s.y_ss - 2 * (s.y_s / s.m_s) * s.my_s + (s.y_s / s.m_s) ^ 2 * s.m_ss) / (s.m_s * s.m_s) as v_pvar,
        greatest(0, s.h_ss - 2 * (s.h_s / s.m_s) * s.mh_s + (s.h_s / s.m_s) ^ 2 * s.m_ss) / (s.m_s * s.m_s) as h_pvar
    from sums as s
    join plays as p using (run_id)
),

effective as (
    -- A share's effective size: how many independent seat-plays would vary as these do (the seat-plays where nothing
    -- varies)
    select
        *,
        case when v_ratio * (1 - v_ratio) <= 1e-12 or v_pvar <= 1e-12 * v_ratio * (1 - v_ratio) / m_s
            then m_s::double else v_ratio * (1 - v_ratio) / v_pvar end as v_effective,
        case when h_ratio * (1 - h_ratio) <= 1e-12 or h_pvar <= 1e-12 * h_ratio * (1 - h_ratio) / m_s
            then m_s::double else h_ratio * (1 - h_ratio) / h_pvar end as h_effective
    from ratios
),

final as (
    select
        run_id, n_plays, players, policy, policy_spec, seat, among, level, measure,
        m_s as seat_plays,
        y_s as total,
        v_ratio as mean,
        v_ratio - 1.96 * sqrt(v_var) as mean_lo,
        v_ratio + 1.96 * sqrt(v_var) as mean_hi,
        case when measure = 'win_share' then wilson_lo(v_ratio * v_effective, v_effective) end as share_lo,
        case when measure = 'win_share' then wilson_hi(v_ratio * v_effective, v_effective) end as share_hi,
        h_s as holders,
        h_ratio as holder_share,
        wilson_lo(h_ratio * h_effective, h_effective) as holder_share_lo,
        wilson_hi(h_ratio * h_effective, h_effective) as holder_share_hi
    from effective
)

select * from final
