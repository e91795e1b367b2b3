-- 7 Steps, does a side reward skill? At tables of one focal player (greedy or climber) among a field of
-- another policy (random), by side, players and tile threshold, the focal player's seats rotated over the
-- runs and pooled: the skill gap is the focal player's score minus the mean score of the field players in
-- the same play, paired per play (mean with its 95% interval); win_gap likewise from winning (1 or 0), i.e.
-- the focal player's win rate minus a field player's. relative_gap divides the gap by the field's mean
-- score, for sides on which everyone scores differently.
with seat_sums as (
    select * from int_sevensteps_seat_sums
),

runs as (
    select * from int_sevensteps_runs
),

tables as (
    select s.*, r.side, r.players, r.focal, r.focal_spec, r.field, r.field_spec, r.tile_threshold, r.other_options
    from seat_sums as s
    join runs as r using (run_id)
    where r.lineup_kind = 'one_vs_field'
),

per_seat as (
    select side, players, focal_spec, field_spec, tile_threshold, other_options, seat, sum(n_seat_plays) as n
    from tables
    where policy_spec = focal_spec
    group by all
),

coverage as (
    select
        side, players, focal_spec, field_spec, tile_threshold, other_options,
        count(*) as seats_covered,
        min(n) / max(n) as seat_balance
    from per_seat
    group by all
),

focal as (
    select
        side, players, focal_spec, field_spec, tile_threshold, other_options,
        any_value(focal) as focal,
        any_value(field) as field,
        count(distinct run_id) as n_runs,
        sum(n_seat_plays)::bigint as n,
        sum(wins)::bigint as wins,
        sum(score_sum)::bigint as score_s,
        sum(score_sq_sum)::hugeint as score_ss,
        sum(lead_sum)::bigint as lead_s,
        sum(lead_sq_sum)::hugeint as lead_ss,
        sum(win_lead_sum)::bigint as win_lead_s,
        sum(win_lead_sq_sum)::hugeint as win_lead_ss
    from tables
    where policy_spec = focal_spec
    group by all
),

field as (
    select
        side, players, focal_spec, field_spec, tile_threshold, other_options,
        sum(n_seat_plays)::bigint as n,
        sum(wins)::bigint as wins,
        sum(score_sum)::bigint as score_s
    from tables
    where policy_spec = field_spec
    group by all
),

final as (
    select
        'sevensteps' as game,
        f.side,
        f.players,
        f.focal,
        f.field,
        f.focal_spec,
        f.field_spec,
        f.tile_threshold,
        f.other_options,
        f.n_runs,
        c.seats_covered,
        c.seat_balance,
        f.n as n_plays,
        f.score_s / f.n as focal_mean_score,
        mean_lo_int(f.n, f.score_s, f.score_ss) as focal_mean_score_lo,
        mean_hi_int(f.n, f.score_s, f.score_ss) as focal_mean_score_hi,
        d.score_s / d.n as field_mean_score,
        f.lead_s / f.n / (f.players - 1) as gap,
        mean_lo_int(f.n, f.lead_s, f.lead_ss) / (f.players - 1) as gap_lo,
        mean_hi_int(f.n, f.lead_s, f.lead_ss) / (f.players - 1) as gap_hi,
        f.lead_s / f.n / (f.players - 1) / (d.score_s / d.n) as relative_gap,
        f.wins / f.n as focal_win_rate,
        wilson_lo(f.wins, f.n) as focal_win_rate_lo,
        wilson_hi(f.wins, f.n) as focal_win_rate_hi,
        d.wins / d.n as field_win_rate,
        1.0 / f.players as fair_share,
        f.win_lead_s / f.n / (f.players - 1) as win_gap,
        mean_lo_int(f.n, f.win_lead_s, f.win_lead_ss) / (f.players - 1) as win_gap_lo,
        mean_hi_int(f.n, f.win_lead_s, f.win_lead_ss) / (f.players - 1) as win_gap_hi
    from focal as f
    join field as d using (side, players, focal_spec, field_spec, tile_threshold, other_options)
    join coverage as c using (side, players, focal_spec, field_spec, tile_threshold, other_options)
)

select * from final
