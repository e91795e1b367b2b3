-- Burgenland, how plays end, per set-up, each distinct play once: last_piece (a seat placed its last piece and won),
-- stalled, turn_limit (no winner), each share with its Wilson interval. How long they last is the shared
-- mart_setup_length's, in turns (the game's one unit of length): the page draws it beside these.
with ends as (
    select * from int_burgenland_end_counts
),

setup_runs as (
    select * from int_burgenland_setups
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
        -- each end reason: plays, their share, its interval
        e.n_last_piece, e.n_last_piece / e.n as last_piece_rate,
        wilson_lo(e.n_last_piece, e.n) as last_piece_rate_lo, wilson_hi(e.n_last_piece, e.n) as last_piece_rate_hi,
        e.n_stalled, e.n_stalled / e.n as stalled_rate,
        wilson_lo(e.n_stalled, e.n) as stalled_rate_lo, wilson_hi(e.n_stalled, e.n) as stalled_rate_hi,
        e.n_turn_limit, e.n_turn_limit / e.n as turn_limit_rate,
        wilson_lo(e.n_turn_limit, e.n) as turn_limit_rate_lo, wilson_hi(e.n_turn_limit, e.n) as turn_limit_rate_hi
    from ended as e
)

select * from final
