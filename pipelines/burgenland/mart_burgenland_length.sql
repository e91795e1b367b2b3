-- Burgenland, how long a play lasts: turns (one main action each) and rounds begun per play, by players,
-- starting hands, line-up of policies and other options, runs of the same set-up pooled; means with their 95%
-- intervals, the rounds' quantiles read off the pooled counts (quantile_disc: the smallest length with at least
-- a share q of the plays at or below it), and how the plays ended (last_piece: a seat placed its last piece;
-- stalled; turn_limit), each share with its Wilson interval.
with counts as (
    select * from int_burgenland_length_counts
),

runs as (
    select * from int_burgenland_runs
),

by_rounds as (
    select
        r.players, r.start_hands, r.lineup_spec, r.other_options, c.rounds,
        sum(c.n_plays)::bigint as n
    from counts as c
    join runs as r using (run_id)
    group by all
),

cumulative as (
    select
        *,
        sum(n) over (partition by players, start_hands, lineup_spec, other_options order by rounds) as up_to,
        sum(n) over (partition by players, start_hands, lineup_spec, other_options) as total
    from by_rounds
),

quantiles as (
    select
        players, start_hands, lineup_spec, other_options,
        min(rounds) as min_rounds,
        min(rounds) filter (where up_to >= total * 0.05) as p05_rounds,
        min(rounds) filter (where up_to >= total * 0.25) as p25_rounds,
        min(rounds) filter (where up_to >= total * 0.5) as median_rounds,
        min(rounds) filter (where up_to >= total * 0.75) as p75_rounds,
        min(rounds) filter (where up_to >= total * 0.95) as p95_rounds,
        max(rounds) as max_rounds
    from cumulative
    group by all
),

sums as (
    select
        r.players, r.start_hands, r.lineup, r.lineup_spec, r.other_options,
        count(distinct c.run_id) as n_runs,
        sum(c.n_plays)::bigint as n,
        sum(c.rounds::bigint * c.n_plays)::bigint as rounds_s,
        sum(c.rounds::hugeint * c.rounds * c.n_plays) as rounds_ss,
        sum(c.turns::bigint * c.n_plays)::bigint as turns_s,
        sum(c.turns::hugeint * c.turns * c.n_plays) as turns_ss,
        coalesce(sum(c.n_plays) filter (where c.end_reason = 'last_piece'), 0)::bigint as n_last_piece,
        coalesce(sum(c.n_plays) filter (where c.end_reason = 'stalled'), 0)::bigint as n_stalled,
        coalesce(sum(c.n_plays) filter (where c.end_reason = 'turn_limit'), 0)::bigint as n_turn_limit
    from counts as c
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
        s.n_runs,
        s.n as n_plays,
        s.turns_s / s.n as mean_turns,
        mean_lo_int(s.n, s.turns_s, s.turns_ss) as mean_turns_lo,
        mean_hi_int(s.n, s.turns_s, s.turns_ss) as mean_turns_hi,
        sd_from_int_sums(s.n, s.turns_s, s.turns_ss) as sd_turns,
        s.rounds_s / s.n as mean_rounds,
        mean_lo_int(s.n, s.rounds_s, s.rounds_ss) as mean_rounds_lo,
        mean_hi_int(s.n, s.rounds_s, s.rounds_ss) as mean_rounds_hi,
        sd_from_int_sums(s.n, s.rounds_s, s.rounds_ss) as sd_rounds,
        q.min_rounds,
        q.p05_rounds,
        q.p25_rounds,
        q.median_rounds,
        q.p75_rounds,
        q.p95_rounds,
        q.max_rounds,
        s.n_last_piece / s.n as completion_rate,
        wilson_lo(s.n_last_piece, s.n) as completion_rate_lo,
        wilson_hi(s.n_last_piece, s.n) as completion_rate_hi,
        s.n_stalled,
        s.n_stalled / s.n as stalled_rate,
        wilson_lo(s.n_stalled, s.n) as stalled_rate_lo,
        wilson_hi(s.n_stalled, s.n) as stalled_rate_hi,
        s.n_turn_limit,
        s.n_turn_limit / s.n as turn_limit_rate,
        wilson_lo(s.n_turn_limit, s.n) as turn_limit_rate_lo,
        wilson_hi(s.n_turn_limit, s.n) as turn_limit_rate_hi
    from sums as s
    join quantiles as q using (players, start_hands, lineup_spec, other_options)
)

select * from final
