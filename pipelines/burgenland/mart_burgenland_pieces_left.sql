-- Burgenland, which kind of piece holds players back: the pieces left in the supply at the end by the seats
-- that did not win (the winner has none left), by kind (wall, house, palas, well; any = all four), policy and
-- set-up (players, starting hands, line-up, other options), runs of the same set-up pooled. The mean left with
-- its 95% interval, the share of the kind's supply left (mean left / pieces of the kind a seat starts with),
-- the share of seats stuck with at least one (Wilson) and the kind's share of all pieces left.
with counts as (
    select * from int_burgenland_piece_counts
),

supply as (
    select * from int_burgenland_supply
),

runs as (
    select * from int_burgenland_runs
),

plays as (
    select players, start_hands, lineup_spec, other_options, sum(plays)::bigint as n_plays
    from runs
    group by all
),

sums as (
    select
        r.players, r.start_hands, r.lineup, r.lineup_spec, r.other_options, c.policy_spec, c.kind,
        any_value(c.policy) as policy,
        count(distinct c.run_id) as n_runs,
        max(u.supply) as supply,
        sum(c.n_seat_plays)::bigint as n,
        sum(c.left_sum)::bigint as left_s,
        sum(c.left_sq_sum)::hugeint as left_ss,
        sum(c.holders)::bigint as holders
    from counts as c
    join runs as r using (run_id)
    join supply as u using (run_id, kind)
    where not c.winner
    group by all
),

final as (
    select
        'burgenland' as game,
        s.players,
        s.start_hands,
        s.lineup,
        s.lineup_spec,
        s.other_options,
        s.policy,
        s.policy_spec,
        s.kind,
        s.n_runs,
        p.n_plays,
        s.n as seat_plays,
        s.supply,
        s.left_s / s.n as mean_left,
        mean_lo_int(s.n, s.left_s, s.left_ss) as mean_left_lo,
        mean_hi_int(s.n, s.left_s, s.left_ss) as mean_left_hi,
        s.left_s / s.n / s.supply as left_share,
        mean_lo_int(s.n, s.left_s, s.left_ss) / s.supply as left_share_lo,
        mean_hi_int(s.n, s.left_s, s.left_ss) / s.supply as left_share_hi,
        s.holders / s.n as holder_share,
        wilson_lo(s.holders, s.n) as holder_share_lo,
        wilson_hi(s.holders, s.n) as holder_share_hi,
        s.left_s / nullif(sum(s.left_s) filter (where s.kind = 'any') over setup, 0) as share_of_left
    from sums as s
    join plays as p using (players, start_hands, lineup_spec, other_options)
    window setup as (partition by s.players, s.start_hands, s.lineup_spec, s.other_options, s.policy_spec)
)

select * from final
