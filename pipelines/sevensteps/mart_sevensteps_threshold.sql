-- 7 Steps, what the tile threshold does: a tile after a turn scoring fewer than 7 points (the seed's
-- reading, the default, base_threshold) against another threshold (8: "7 or fewer"), at tables of one
-- policy with the same side, players and other options, runs of the same set-up pooled. One row per metric:
-- tiles_taken (per seat-play), score (per seat-play), seat0_advantage (seat 0's win share minus
-- 1/players), seat0_margin (seat 0's score minus the mean of the other seats', paired per play) and rounds
-- (per play); each at both thresholds with 95% intervals, and the difference (other minus base) with a 95%
-- interval for independent samples.
with seat_sums as (
    select * from int_sevensteps_seat_sums
),

tile_counts as (
    select * from int_sevensteps_tile_counts
),

lengths as (
    select * from int_sevensteps_length_counts
),

runs as (
    select * from int_sevensteps_runs where lineup_kind = 'one_policy'
),

plays as (
    select side, players, focal_spec, other_options, tile_threshold, sum(plays)::bigint as n_plays
    from runs
    group by all
),

metrics as (
    select
        r.side, r.players, r.focal_spec, r.other_options, r.tile_threshold, 'tiles_taken' as metric,
        sum(c.n_seat_plays)::bigint as n,
        sum(c.taken::bigint * c.n_seat_plays) / sum(c.n_seat_plays) as mean,
        sd_from_int_sums(sum(c.n_seat_plays), sum(c.taken::bigint * c.n_seat_plays),
                         sum(c.taken::hugeint * c.taken * c.n_seat_plays)) as sd
    from tile_counts as c
    join runs as r using (run_id)
    where c.kind = 'any'
    group by r.side, r.players, r.focal_spec, r.other_options, r.tile_threshold
    union all
    select
        r.side, r.players, r.focal_spec, r.other_options, r.tile_threshold, 'score' as metric,
        sum(s.n_seat_plays)::bigint as n,
        sum(s.score_sum) / sum(s.n_seat_plays) as mean,
        sd_from_int_sums(sum(s.n_seat_plays), sum(s.score_sum), sum(s.score_sq_sum::hugeint)) as sd
    from seat_sums as s
    join runs as r using (run_id)
    group by r.side, r.players, r.focal_spec, r.other_options, r.tile_threshold
    union all
    select
        r.side, r.players, r.focal_spec, r.other_options, r.tile_threshold, 'seat0_advantage' as metric,
        sum(s.n_seat_plays)::bigint as n,
        sum(s.win_share_sum) / sum(s.n_seat_plays) - 1.0 / r.players as mean,
        sd_from_sums(sum(s.n_seat_plays), sum(s.win_share_sum), sum(s.win_share_sq_sum)) as sd
    from seat_sums as s
    join runs as r using (run_id)
    where s.seat = 0
    group by r.side, r.players, r.focal_spec, r.other_options, r.tile_threshold
    union all
    select
        r.side, r.players, r.focal_spec, r.other_options, r.tile_threshold, 'seat0_margin' as metric,
        sum(s.n_seat_plays)::bigint as n,
        sum(s.lead_sum) / sum(s.n_seat_plays) / (r.players - 1) as mean,
        sd_from_int_sums(sum(s.n_seat_plays), sum(s.lead_sum), sum(s.lead_sq_sum::hugeint)) / (r.players - 1) as sd
    from seat_sums as s
    join runs as r using (run_id)
    where s.seat = 0
    group by r.side, r.players, r.focal_spec, r.other_options, r.tile_threshold
    union all
    select
        r.side, r.players, r.focal_spec, r.other_options, r.tile_threshold, 'rounds' as metric,
        sum(l.n_plays)::bigint as n,
        sum(l.rounds::bigint * l.n_plays) / sum(l.n_plays) as mean,
        sd_from_int_sums(sum(l.n_plays), sum(l.rounds::bigint * l.n_plays),
                         sum(l.rounds::hugeint * l.rounds * l.n_plays)) as sd
    from lengths as l
    join runs as r using (run_id)
    group by r.side, r.players, r.focal_spec, r.other_options, r.tile_threshold
),

policies as (
    select distinct focal_spec, focal from runs
),

final as (
    select
        'sevensteps' as game,
        a.side,
        a.players,
        p.focal as policy,
        a.focal_spec as policy_spec,
        a.other_options,
        a.metric,
        b.tile_threshold as base_threshold,
        a.tile_threshold,
        bp.n_plays as base_n_plays,
        ap.n_plays as n_plays,
        b.n as base_n,
        a.n,
        b.mean as base_value,
        b.mean - mean_ci_half(b.sd, b.n) as base_value_lo,
        b.mean + mean_ci_half(b.sd, b.n) as base_value_hi,
        a.mean as value,
        a.mean - mean_ci_half(a.sd, a.n) as value_lo,
        a.mean + mean_ci_half(a.sd, a.n) as value_hi,
        a.mean - b.mean as difference,
        a.mean - b.mean - 1.96 * sqrt(a.sd ^ 2 / a.n + b.sd ^ 2 / b.n) as difference_lo,
        a.mean - b.mean + 1.96 * sqrt(a.sd ^ 2 / a.n + b.sd ^ 2 / b.n) as difference_hi
    from metrics as a
    join metrics as b
        on a.side = b.side and a.players = b.players and a.focal_spec = b.focal_spec
        and a.other_options = b.other_options and a.metric = b.metric
        and b.tile_threshold = 7 and a.tile_threshold <> 7
    join plays as ap
        on ap.side = a.side and ap.players = a.players and ap.focal_spec = a.focal_spec
        and ap.other_options = a.other_options and ap.tile_threshold = a.tile_threshold
    join plays as bp
        on bp.side = b.side and bp.players = b.players and bp.focal_spec = b.focal_spec
        and bp.other_options = b.other_options and bp.tile_threshold = b.tile_threshold
    join policies as p on p.focal_spec = a.focal_spec
)

select * from final
