-- 7 Steps, the start-player question: win rate, win share and mean score by seat at tables of one policy,
-- by side, players and tile threshold, runs of the same set-up pooled (with and without events). The
-- margin is the seat's score minus the mean of the other seats' scores in the same play, paired per play,
-- so its interval is much narrower than that of the score; with the win share minus the fair share
-- (advantage) it says whether seat 0 is favoured and by how much. The generic mart_seat_outcomes gives the
-- same win rates per run; this mart pools runs and adds the paired margin and the win share's interval.
with seat_sums as (
    select * from int_sevensteps_seat_sums
),

runs as (
    select * from int_sevensteps_runs
),

pooled as (
    select
        r.side,
        r.players,
        r.focal as policy,
        r.focal_spec as policy_spec,
        r.tile_threshold,
        r.other_options,
        s.seat,
        count(distinct s.run_id) as n_runs,
        sum(s.n_seat_plays)::bigint as n,
        sum(s.wins)::bigint as wins,
        sum(s.win_share_sum) as share_s,
        sum(s.win_share_sq_sum) as share_ss,
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
        'sevensteps' as game,
        side,
        players,
        policy,
        policy_spec,
        tile_threshold,
        other_options,
        seat,
        n_runs,
        n as n_plays,
        wins,
        wins / n as win_rate,
        wilson_lo(wins, n) as win_rate_lo,
        wilson_hi(wins, n) as win_rate_hi,
        share_s / n as win_share,
        share_s / n - mean_ci_half(sd_from_sums(n, share_s, share_ss), n) as win_share_lo,
        share_s / n + mean_ci_half(sd_from_sums(n, share_s, share_ss), n) as win_share_hi,
        1.0 / players as fair_share,
        share_s / n - 1.0 / players as advantage,
        share_s / n - 1.0 / players - mean_ci_half(sd_from_sums(n, share_s, share_ss), n) as advantage_lo,
        share_s / n - 1.0 / players + mean_ci_half(sd_from_sums(n, share_s, share_ss), n) as advantage_hi,
        score_s / n as mean_score,
        mean_lo_int(n, score_s, score_ss) as mean_score_lo,
        mean_hi_int(n, score_s, score_ss) as mean_score_hi,
        lead_s / n / (players - 1) as margin,
        mean_lo_int(n, lead_s, lead_ss) / (players - 1) as margin_lo,
        mean_hi_int(n, lead_s, lead_ss) / (players - 1) as margin_hi
    from pooled
)

select * from final
