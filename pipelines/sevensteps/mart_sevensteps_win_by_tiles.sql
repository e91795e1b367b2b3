-- 7 Steps, do seats that take tiles win? The win share (a win split among its tied winners, the estimand every
-- comparison with the fair share uses) and mean score of seats by the number of tiles they took (build-aid,
-- victory-point, or both), by policy, per set-up (each distinct play counted once), with 95% intervals clustered by
-- play (int_sevensteps_setup_tiles: a play's seats may take as many tiles). Observational: a seat takes a tile
-- after a turn that scored little, so many tiles mark a weak game as much as they help one.
with stats as (
    select * from int_sevensteps_setup_tiles
),

by_taken as (
    select
        setup_id, setup_label, players, lineup_kind, side, tile_threshold, n_plays, policy, policy_spec, kind,
        level as taken,
        any_value(seat_plays) as seat_plays,
        any_value(holders) filter (where measure = 'win_share') as wins,
        any_value(mean) filter (where measure = 'win_share') as win_share,
        any_value(share_lo) filter (where measure = 'win_share') as win_share_lo,
        any_value(share_hi) filter (where measure = 'win_share') as win_share_hi,
        any_value(mean) filter (where measure = 'score') as mean_score,
        any_value(mean_lo) filter (where measure = 'score') as mean_score_lo,
        any_value(mean_hi) filter (where measure = 'score') as mean_score_hi
    from stats
    where among = 'taken'
    group by all
),

final as (
    select
        'sevensteps' as game,
        setup_id, setup_label, players, lineup_kind, side, tile_threshold, policy, policy_spec, kind, taken, n_plays,
        seat_plays,
        seat_plays / sum(seat_plays) over (partition by setup_id, policy_spec, kind) as seat_play_share,
        wins,
        win_share, win_share_lo, win_share_hi,
        1.0 / players as fair_share,
        mean_score, mean_score_lo, mean_score_hi
    from by_taken
)

select * from final
