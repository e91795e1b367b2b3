-- 7 Steps, the special tiles by policy: how many a seat takes per play (build-aid tiles, victory-point tiles, or
-- both), how many it plays, the share of those taken that it played, and what it still holds at the end (worth
-- unused_tile_points each), per set-up (each distinct play counted once); means and shares of seat-plays with 95%
-- intervals clustered by play (int_sevensteps_setup_tiles: a play's seats share its bag).
with stats as (
    select * from int_sevensteps_setup_tiles
),

by_kind as (
    select
        setup_id, setup_label, players, lineup_kind, side, tile_threshold, n_runs, n_plays, policy, policy_spec, kind,
        any_value(seat_plays) as seat_plays,
        any_value(holder_share) filter (where measure = 'taken') as taker_share,
        any_value(holder_share_lo) filter (where measure = 'taken') as taker_share_lo,
        any_value(holder_share_hi) filter (where measure = 'taken') as taker_share_hi,
        any_value(total) filter (where measure = 'taken') as taken_total,
        any_value(mean) filter (where measure = 'taken') as mean_taken,
        any_value(mean_lo) filter (where measure = 'taken') as mean_taken_lo,
        any_value(mean_hi) filter (where measure = 'taken') as mean_taken_hi,
        any_value(total) filter (where measure = 'played') as played_total,
        any_value(mean) filter (where measure = 'played') as mean_played,
        any_value(mean_lo) filter (where measure = 'played') as mean_played_lo,
        any_value(mean_hi) filter (where measure = 'played') as mean_played_hi,
        any_value(mean) filter (where measure = 'held') as mean_left,
        any_value(mean_lo) filter (where measure = 'held') as mean_left_lo,
        any_value(mean_hi) filter (where measure = 'held') as mean_left_hi,
        any_value(holder_share) filter (where measure = 'held') as holder_share,
        any_value(holder_share_lo) filter (where measure = 'held') as holder_share_lo,
        any_value(holder_share_hi) filter (where measure = 'held') as holder_share_hi
    from stats
    where among = 'all'
    group by all
),

final as (
    select
        'sevensteps' as game,
        setup_id, setup_label, players, lineup_kind, side, tile_threshold, policy, policy_spec, kind, n_runs, n_plays,
        seat_plays,
        taker_share, taker_share_lo, taker_share_hi,
        mean_taken, mean_taken_lo, mean_taken_hi,
        mean_played, mean_played_lo, mean_played_hi,
        played_total / nullif(taken_total, 0) as played_share,
        mean_left, mean_left_lo, mean_left_hi,
        holder_share, holder_share_lo, holder_share_hi
    from by_kind
)

select * from final
