-- 7 Steps, do seats that take tiles win? The win rate and mean score of seats by the number of tiles they
-- took (build-aid, victory-point, or both), by policy, per set-up (each distinct play counted once).
-- Observational: a seat takes a tile after a turn that scored little, so many tiles mark a weak game as much
-- as they help one.
with counts as (
    select * from int_sevensteps_setup_tiles
),

sums as (
    select
        setup_id, setup_label, players, lineup_kind, side, tile_threshold, n_plays, policy_spec, kind, taken,
        any_value(policy) as policy,
        sum(n_seat_plays)::bigint as n,
        coalesce(sum(n_seat_plays) filter (where winner), 0)::bigint as wins,
        sum(score_sum)::bigint as score_s,
        sum(score_sq_sum)::hugeint as score_ss
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
        taken,
        n_plays,
        n as seat_plays,
        n / sum(n) over (partition by setup_id, policy_spec, kind) as seat_play_share,
        wins,
        wins / n as win_rate,
        wilson_lo(wins, n) as win_rate_lo,
        wilson_hi(wins, n) as win_rate_hi,
        1.0 / players as fair_share,
        score_s / n as mean_score,
        mean_lo_int(n, score_s, score_ss) as mean_score_lo,
        mean_hi_int(n, score_s, score_ss) as mean_score_hi
    from sums
)

select * from final
