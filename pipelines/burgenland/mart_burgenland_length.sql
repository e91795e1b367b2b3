-- Burgenland, how long a play lasts in rounds and how it ends, per set-up, each distinct play once. Rounds begun
-- are ceil(turns / players) (the play ends at once, mid-round), so they come from the shared turn histogram
-- (mart_setup_length_hist), and as ceil is monotone the rounds' quantiles are ceil(the turns' quantile /
-- players) exactly (mart_setup_length). How the plays ended: last_piece (a seat placed its last piece and won),
-- stalled, turn_limit (no winner), each share with its Wilson interval.
with turn_hist as (
    select * from mart_setup_length_hist
),

turn_stats as (
    select * from mart_setup_length
),

ends as (
    select * from int_burgenland_end_counts
),

setup_runs as (
    select * from int_burgenland_setups
),

rounds as (
    select
        setup_id,
        sum(ceil(turns / players)::bigint * n_plays_with_turns)::bigint as rounds_s,
        sum(ceil(turns / players)::hugeint * ceil(turns / players)::bigint * n_plays_with_turns) as rounds_ss
    from turn_hist
    where game = 'burgenland'
    group by all
),

ended as (
    select
        u.setup_id, u.setup_label, u.players, u.start_hands, u.n_runs, u.n_plays, u.n_plays as n,
        coalesce(sum(e.n_plays) filter (where e.end_reason = 'last_piece'), 0)::bigint as n_last_piece,
        coalesce(sum(e.n_plays) filter (where e.end_reason = 'stalled'), 0)::bigint as n_stalled,
        coalesce(sum(e.n_plays) filter (where e.end_reason = 'turn_limit'), 0)::bigint as n_turn_limit
    from setup_runs as u
    join ends as e using (run_id)
    group by all
),

final as (
    select
        'burgenland' as game,
        e.setup_id, e.setup_label, e.players, e.start_hands,
        e.n_runs, e.n_plays,
        r.rounds_s / e.n_plays as mean_rounds,
        mean_lo_int(e.n_plays, r.rounds_s, r.rounds_ss) as mean_rounds_lo,
        mean_hi_int(e.n_plays, r.rounds_s, r.rounds_ss) as mean_rounds_hi,
        sd_from_int_sums(e.n_plays, r.rounds_s, r.rounds_ss) as sd_rounds,
        -- the turns' quantiles, in rounds
        ceil(t.min_turns / e.players)::int as min_rounds, ceil(t.p05_turns / e.players)::int as p05_rounds,
        ceil(t.median_turns / e.players)::int as median_rounds, ceil(t.p95_turns / e.players)::int as p95_rounds,
        ceil(t.max_turns / e.players)::int as max_rounds,
        -- each end reason: plays, their share, its interval
        e.n_last_piece, e.n_last_piece / e.n as last_piece_rate,
        wilson_lo(e.n_last_piece, e.n) as last_piece_rate_lo, wilson_hi(e.n_last_piece, e.n) as last_piece_rate_hi,
        e.n_stalled, e.n_stalled / e.n as stalled_rate,
        wilson_lo(e.n_stalled, e.n) as stalled_rate_lo, wilson_hi(e.n_stalled, e.n) as stalled_rate_hi,
        e.n_turn_limit, e.n_turn_limit / e.n as turn_limit_rate,
        wilson_lo(e.n_turn_limit, e.n) as turn_limit_rate_lo, wilson_hi(e.n_turn_limit, e.n) as turn_limit_rate_hi
    from ended as e
    join rounds as r using (setup_id)
    join turn_stats as t on t.game = 'burgenland' and t.setup_id = e.setup_id
)

select * from final
