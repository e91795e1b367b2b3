-- Burgenland, the joker economy per seat-play by policy and set-up (players, starting hands, line-up, other
-- options), runs of the same set-up pooled: where jokers come from (walls: one per wall in the castle built
-- in; spots: joker spots; tiles: Zwei Joker bonus tiles; exchanged: bought for 6 coins), gained (their sum),
-- used (paid for buildings) and left at the end; means with 95% intervals, the share of seat-plays with at
-- least one (Wilson), and each measure as a share of all the jokers a seat had (the one dealt + gained, so the
-- sources and the dealt joker add up to 1, and so do used and left).
with sums_by_run as (
    select * from int_burgenland_joker_sums
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
        r.players, r.start_hands, r.lineup, r.lineup_spec, r.other_options, j.policy_spec, j.measure,
        any_value(j.policy) as policy,
        count(distinct j.run_id) as n_runs,
        sum(j.n_seat_plays)::bigint as n,
        sum(j.jokers_sum)::bigint as jokers_s,
        sum(j.jokers_sq_sum)::hugeint as jokers_ss,
        sum(j.holders)::bigint as holders
    from sums_by_run as j
    join runs as r using (run_id)
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
        s.measure,
        s.n_runs,
        p.n_plays,
        s.n as seat_plays,
        s.jokers_s / s.n as mean_jokers,
        mean_lo_int(s.n, s.jokers_s, s.jokers_ss) as mean_jokers_lo,
        mean_hi_int(s.n, s.jokers_s, s.jokers_ss) as mean_jokers_hi,
        s.holders / s.n as holder_share,
        wilson_lo(s.holders, s.n) as holder_share_lo,
        wilson_hi(s.holders, s.n) as holder_share_hi,
        s.jokers_s / (s.n + sum(s.jokers_s) filter (where s.measure = 'gained') over setup) as share_of_jokers
    from sums as s
    join plays as p using (players, start_hands, lineup_spec, other_options)
    window setup as (partition by s.players, s.start_hands, s.lineup_spec, s.other_options, s.policy_spec)
)

select * from final
