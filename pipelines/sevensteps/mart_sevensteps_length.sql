-- 7 Steps, how long a play lasts: rounds (every seat has the same number of turns) and turns per play by
-- side, players, line-up of policies and tile threshold, runs of the same set-up pooled; mean with its 95%
-- interval, quantiles read off the pooled counts (quantile_disc: the smallest length with at least a share
-- q of the plays at or below it), completion (the bag emptied, not the turn limit) and collapsed towers.
with counts as (
    select * from int_sevensteps_length_counts
),

runs as (
    select * from int_sevensteps_runs
),

by_rounds as (
    select
        r.side, r.players, r.lineup, r.lineup_spec, r.tile_threshold, r.other_options, c.rounds,
        sum(c.n_plays)::bigint as n
    from counts as c
    join runs as r using (run_id)
    group by all
),

cumulative as (
    select
        *,
        sum(n) over (partition by side, players, lineup_spec, tile_threshold, other_options order by rounds)
            as up_to,
        sum(n) over (partition by side, players, lineup_spec, tile_threshold, other_options) as total
    from by_rounds
),

quantiles as (
    select
        side, players, lineup_spec, tile_threshold, other_options,
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
        r.side, r.players, r.lineup, r.lineup_spec, r.tile_threshold, r.other_options,
        count(distinct c.run_id) as n_runs,
        sum(c.n_plays)::bigint as n,
        sum(c.rounds::bigint * c.n_plays)::bigint as rounds_s,
        sum(c.rounds::hugeint * c.rounds * c.n_plays) as rounds_ss,
        sum(c.turns::bigint * c.n_plays)::bigint as turns_s,
        sum(c.turns::hugeint * c.turns * c.n_plays) as turns_ss,
        sum(c.n_plays) filter (where c.completed)::bigint as n_completed,
        sum(c.collapses_sum)::bigint as collapses_s,
        sum(c.collapses_sq_sum)::hugeint as collapses_ss
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
        s.n_runs,
        s.n as n_plays,
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
        s.turns_s / s.n as mean_turns,
        mean_lo_int(s.n, s.turns_s, s.turns_ss) as mean_turns_lo,
        mean_hi_int(s.n, s.turns_s, s.turns_ss) as mean_turns_hi,
        coalesce(s.n_completed, 0) / s.n as completion_rate,
        s.collapses_s / s.n as mean_collapses,
        mean_lo_int(s.n, s.collapses_s, s.collapses_ss) as mean_collapses_lo,
        mean_hi_int(s.n, s.collapses_s, s.collapses_ss) as mean_collapses_hi
    from sums as s
    join quantiles as q using (side, players, lineup_spec, tile_threshold, other_options)
)

select * from final
