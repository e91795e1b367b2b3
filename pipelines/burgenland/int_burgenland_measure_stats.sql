-- Burgenland, per set-up (its counted runs), policy and measure of int_burgenland_seat_values (pieces left by
-- kind, jokers by source and use), over all the policy's seat-plays and over those that did not win: the
-- seat-plays, the measure's total and mean with its 95% interval, and the share of seat-plays holding at least
-- one (Wilson). What mart_burgenland_pieces_left and mart_burgenland_jokers read.
with seat_values as (
    select * from int_burgenland_seat_values
),

setup_runs as (
    select * from int_burgenland_setups
),

setups as (
    select distinct setup_id, setup_label, players, start_hands, n_runs, n_plays from setup_runs
),

sums as (
    -- Grouped with and without `winner`: the rows without it are every seat-play's.
    select
        u.setup_id, v.policy_spec, v.measure,
        case when grouping(v.winner) = 1 then 'all' else 'non_winners' end as among,
        any_value(v.policy) as policy,
        sum(v.n_seat_plays)::bigint as n,
        sum(v.amount::bigint * v.n_seat_plays) as s, sum(v.amount::hugeint * v.amount * v.n_seat_plays) as ss,
        coalesce(sum(v.n_seat_plays) filter (where v.amount > 0), 0)::bigint as holders
    from setup_runs as u
    join seat_values as v using (run_id)
    group by grouping sets ((u.setup_id, v.policy_spec, v.measure), (u.setup_id, v.policy_spec, v.measure, v.winner))
    having grouping(v.winner) = 1 or not v.winner
),

final as (
    select
        u.setup_id, u.setup_label, u.players, u.start_hands, u.n_runs, u.n_plays,
        s.policy, s.policy_spec, s.measure, s.among,
        s.n as seat_plays,
        s.s as total,
        s.s / s.n as mean,
        mean_lo_int(s.n, s.s, s.ss) as mean_lo, mean_hi_int(s.n, s.s, s.ss) as mean_hi,
        s.holders / s.n as holder_share,
        wilson_lo(s.holders, s.n) as holder_share_lo, wilson_hi(s.holders, s.n) as holder_share_hi
    from sums as s
    join setups as u using (setup_id)
)

select * from final
