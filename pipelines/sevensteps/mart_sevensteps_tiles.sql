-- 7 Steps, the special tiles by policy: how many a seat takes per play (build-aid tiles, victory-point tiles,
-- or both), how many it plays, the share of those taken that it played, and what it still holds at the end
-- (worth unused_tile_points each), by side, players, line-up of policies and tile threshold, runs of the
-- same set-up pooled; means with 95% intervals from the counts per number taken.
with counts as (
    select * from int_sevensteps_tile_counts
),

runs as (
    select * from int_sevensteps_runs
),

plays as (
    select side, players, lineup_spec, tile_threshold, other_options, sum(plays)::bigint as n_plays
    from runs
    group by all
),

sums as (
    select
        r.side, r.players, r.lineup, r.lineup_spec, r.tile_threshold, r.other_options, c.policy_spec, c.kind,
        any_value(c.policy) as policy,
        count(distinct c.run_id) as n_runs,
        sum(c.n_seat_plays)::bigint as n,
        sum(c.n_seat_plays) filter (where c.taken > 0)::bigint as n_takers,
        sum(c.taken::bigint * c.n_seat_plays)::bigint as taken_s,
        sum(c.taken::hugeint * c.taken * c.n_seat_plays) as taken_ss,
        sum(c.played_sum)::bigint as played_s,
        sum(c.played_sq_sum)::hugeint as played_ss,
        sum(c.left_sum)::bigint as left_s,
        sum(c.left_sq_sum)::hugeint as left_ss,
        sum(c.holders)::bigint as holders
    from counts as c
    join runs as r using (run_id)
    group by all
),

final as (
    select
        'sevensteps' as game,
        s.side,
        s.players,
        s.lineup,
        s.lineup_spec,
        s.tile_threshold,
        s.other_options,
        s.policy,
        s.policy_spec,
        s.kind,
        s.n_runs,
        p.n_plays,
        s.n as seat_plays,
        coalesce(s.n_takers, 0) / s.n as taker_share,
        s.taken_s / s.n as mean_taken,
        mean_lo_int(s.n, s.taken_s, s.taken_ss) as mean_taken_lo,
        mean_hi_int(s.n, s.taken_s, s.taken_ss) as mean_taken_hi,
        s.played_s / s.n as mean_played,
        mean_lo_int(s.n, s.played_s, s.played_ss) as mean_played_lo,
        mean_hi_int(s.n, s.played_s, s.played_ss) as mean_played_hi,
        s.played_s / nullif(s.taken_s, 0) as played_share,
        s.left_s / s.n as mean_left,
        mean_lo_int(s.n, s.left_s, s.left_ss) as mean_left_lo,
        mean_hi_int(s.n, s.left_s, s.left_ss) as mean_left_hi,
        s.holders / s.n as holder_share,
        wilson_lo(s.holders, s.n) as holder_share_lo,
        wilson_hi(s.holders, s.n) as holder_share_hi
    from sums as s
    join plays as p using (side, players, lineup_spec, tile_threshold, other_options)
)

select * from final
