-- 7 Steps, do seats that take tiles win? The win rate and mean score of seats by the number of tiles they
-- took (build-aid, victory-point, or both), by policy, side, players, line-up and tile threshold, runs of
-- the same set-up pooled. Observational: a seat takes a tile after a turn that scored little, so many
-- tiles mark a weak game as much as they help one.
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
        c.taken,
        any_value(c.policy) as policy,
        sum(c.n_seat_plays)::bigint as n,
        coalesce(sum(c.n_seat_plays) filter (where c.winner), 0)::bigint as wins,
        sum(c.score_sum)::bigint as score_s,
        sum(c.score_sq_sum)::hugeint as score_ss
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
        s.taken,
        p.n_plays,
        s.n as seat_plays,
        s.n / sum(s.n) over (
            partition by s.side, s.players, s.lineup_spec, s.tile_threshold, s.other_options, s.policy_spec, s.kind)
            as seat_play_share,
        s.wins,
        s.wins / s.n as win_rate,
        wilson_lo(s.wins, s.n) as win_rate_lo,
        wilson_hi(s.wins, s.n) as win_rate_hi,
        1.0 / s.players as fair_share,
        s.score_s / s.n as mean_score,
        mean_lo_int(s.n, s.score_s, s.score_ss) as mean_score_lo,
        mean_hi_int(s.n, s.score_s, s.score_ss) as mean_score_hi
    from sums as s
    join plays as p using (side, players, lineup_spec, tile_threshold, other_options)
)

select * from final
