-- Burgenland, the start-player question: win rate and pieces placed by seat at tables of one policy, by
-- starting hands (staggered: seat k starts with 4 + k colour cards; equal: 4 each), players and policy, runs of
-- the same set-up pooled. A play has at most one winner (none when cut by turn_limit or stalled), so the win
-- rate is the win share; advantage = win rate - 1/players with the Wilson interval shifted. The margin is the
-- seat's pieces placed minus the other seats' mean in the same play, paired per play.
with seat_sums as (
    select * from int_burgenland_seat_sums
),

runs as (
    select * from int_burgenland_runs
),

pooled as (
    select
        r.players,
        r.start_hands,
        r.focal as policy,
        r.focal_spec as policy_spec,
        r.other_options,
        s.seat,
        count(distinct s.run_id) as n_runs,
        sum(s.n_seat_plays)::bigint as n,
        sum(s.wins)::bigint as wins,
        sum(s.score_sum)::bigint as score_s,
        sum(s.score_sq_sum)::hugeint as score_ss,
        sum(s.lead_sum)::bigint as lead_s,
        sum(s.lead_sq_sum)::hugeint as lead_ss
    from seat_sums as s
    join runs as r using (run_id)
    where r.lineup_kind = 'one_policy'
    group by all
),

final as (
    select
        'burgenland' as game,
        players,
        start_hands,
        policy,
        policy_spec,
        other_options,
        seat,
        n_runs,
        n as n_plays,
        wins,
        wins / n as win_rate,
        wilson_lo(wins, n) as win_rate_lo,
        wilson_hi(wins, n) as win_rate_hi,
        1.0 / players as fair_share,
        wins / n - 1.0 / players as advantage,
        wilson_lo(wins, n) - 1.0 / players as advantage_lo,
        wilson_hi(wins, n) - 1.0 / players as advantage_hi,
        score_s / n as mean_placed,
        mean_lo_int(n, score_s, score_ss) as mean_placed_lo,
        mean_hi_int(n, score_s, score_ss) as mean_placed_hi,
        lead_s / n / (players - 1) as margin,
        mean_lo_int(n, lead_s, lead_ss) / (players - 1) as margin_lo,
        mean_hi_int(n, lead_s, lead_ss) / (players - 1) as margin_hi
    from pooled
)

select * from final
