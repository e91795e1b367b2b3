-- Is the start player favoured? Win rate, win share and mean score by seat, per set-up: each distinct play
-- counted once (mart_run_setups.counted: runs of one set-up and seed overlap), set-ups never pooled together. The
-- advantage is the win share minus the fair share 1/players; the margin is the seat's score minus the other
-- seats' mean in the same play, paired per play (its interval is much narrower than the score's). Intervals
-- are 95%: Wilson for the win rate and for the win share (k = the seat's summed win shares: a tie's fractions are
-- successes in part, and a share in [0, 1] varies at most as a win or loss of the same mean does, so the interval
-- is the plain Wilson one without ties and at least wide enough with them; it stays above 0 when a seat never
-- wins, where a normal interval shrinks to 0 to 0), normal for the means (score, margin).
with sums as (
    select * from int_seat_policy_sums
),

counted_runs as (
    select game, run_id, setup_id from mart_run_setups where counted
),

setups as (
    select * from mart_run_setups
),

setup_runs as (
    select game, setup_id, count(*) as n_runs_in_setup from setups group by all
),

pooled as (
    select
        s.game,
        d.setup_id,
        s.seat,
        count(distinct s.run_id) as n_runs,
        sum(s.n_plays)::bigint as n,
        sum(s.wins)::bigint as wins,
        sum(s.win_share_sum) as share_s,
        sum(s.score_sum) as score_s,
        sum(s.score_sq_sum) as score_ss,
        sum(s.lead_sum) as lead_s,
        sum(s.lead_sq_sum) as lead_ss
    from sums as s
    join counted_runs as d using (game, run_id)
    group by all
),

labelled as (
    select
        p.*,
        u.players,
        u.setup_label,
        u.lineup_kind,
        u.options,
        r.n_runs_in_setup,
        mean_ci_half(sd_from_sums(p.n, p.score_s, p.score_ss), p.n) as score_half,
        mean_ci_half(sd_from_sums(p.n, p.lead_s, p.lead_ss), p.n) as lead_half
    from pooled as p
    join (select distinct game, setup_id, players, setup_label, lineup_kind, options from setups) as u
        using (game, setup_id)
    join setup_runs as r using (game, setup_id)
),

final as (
    select
        game,
        setup_id,
        setup_label,
        players,
        lineup_kind,
        options,
        seat,
        n_runs,
        n_runs_in_setup - n_runs as n_runs_repeated,
        n as n_plays,
        wins,
        wins / n as win_rate,
        wilson_lo(wins, n) as win_rate_lo,
        wilson_hi(wins, n) as win_rate_hi,
        share_s / n as win_share,
        wilson_lo(share_s, n) as win_share_lo,
        wilson_hi(share_s, n) as win_share_hi,
        1.0 / players as fair_share,
        share_s / n - 1.0 / players as advantage,
        wilson_lo(share_s, n) - 1.0 / players as advantage_lo,
        wilson_hi(share_s, n) - 1.0 / players as advantage_hi,
        score_s / n as mean_score,
        score_s / n - score_half as mean_score_lo,
        score_s / n + score_half as mean_score_hi,
        lead_s / n / (players - 1) as margin,
        (lead_s / n - lead_half) / (players - 1) as margin_lo,
        (lead_s / n + lead_half) / (players - 1) as margin_hi
    from labelled
)

select * from final
