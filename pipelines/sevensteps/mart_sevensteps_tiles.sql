-- 7 Steps, the special tiles by policy: how many a seat takes per play (build-aid tiles, victory-point tiles,
-- or both), how many it plays, the share of those taken that it played, and what it still holds at the end
-- (worth unused_tile_points each), per set-up (each distinct play counted once); means with 95% intervals
-- from the counts per number taken.
with counts as (
    select * from int_sevensteps_setup_tiles
),

sums as (
    select
        setup_id, setup_label, players, lineup_kind, side, tile_threshold, n_runs, n_plays, policy_spec, kind,
        any_value(policy) as policy,
        sum(n_seat_plays)::bigint as n,
        coalesce(sum(n_seat_plays) filter (where taken > 0), 0)::bigint as n_takers,
        sum(taken::bigint * n_seat_plays)::bigint as taken_s,
        sum(taken::hugeint * taken * n_seat_plays) as taken_ss,
        sum(played_sum)::bigint as played_s,
        sum(played_sq_sum)::hugeint as played_ss,
        sum(left_sum)::bigint as left_s,
        sum(left_sq_sum)::hugeint as left_ss,
        sum(holders)::bigint as holders
    from counts
    group by all
),

final as (
    select
        'sevensteps' as game,
        setup_id,
        setup_label,
        players,
        lineup_kind,
        side,
        tile_threshold,
        policy,
        policy_spec,
        kind,
        n_runs,
        n_plays,
        n as seat_plays,
        n_takers / n as taker_share,
        taken_s / n as mean_taken,
        mean_lo_int(n, taken_s, taken_ss) as mean_taken_lo,
        mean_hi_int(n, taken_s, taken_ss) as mean_taken_hi,
        played_s / n as mean_played,
        mean_lo_int(n, played_s, played_ss) as mean_played_lo,
        mean_hi_int(n, played_s, played_ss) as mean_played_hi,
        played_s / nullif(taken_s, 0) as played_share,
        left_s / n as mean_left,
        mean_lo_int(n, left_s, left_ss) as mean_left_lo,
        mean_hi_int(n, left_s, left_ss) as mean_left_hi,
        holders / n as holder_share,
        wilson_lo(holders, n) as holder_share_lo,
        wilson_hi(holders, n) as holder_share_hi
    from sums
)

select * from final
