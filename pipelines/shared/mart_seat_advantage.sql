-- Is a seat favoured? Win share (the estimand: a shared win split among its winners), its advantage over the fair
-- share and mean score by seat, per set-up: each distinct play counted once (mart_run_setups.counted: runs of one
-- set-up and seed overlap), set-ups never pooled together. The win rate (a shared win counts for each winner) is
-- kept beside the shared wins, labelled as such. The margin is the seat's score minus the other seats' mean in
-- the same play, paired per play. Intervals are 95%: the win share's is Wilson's at the effective size of its
-- per-play variance (share_lo: ties make shares vary less than wins), the win rate's plain Wilson, normal for the
-- means (score, margin). p_value tests the win share against the fair share (the score test the share's interval
-- inverts); p_holm adjusts it over the set-up's seats (Holm): a seat named favoured on a page is one whose
-- adjusted p, over every seat the page tests, is below 0.05 (docs/statistics.md).
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
        sum(s.shared_wins)::bigint as shared_wins,
        sum(s.win_share_sum) as share_s,
        sum(s.win_share_sq_sum) as share_ss,
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

tested as (
    select *, share_p(n, share_s, share_ss, 1.0 / players) as p_value
    from labelled
),

adjusted as (
    -- Holm over the seats of a set-up: the i-th smallest p times (seats - i + 1), kept non-decreasing.
    select
        *,
        max(least(1.0, (players - rank_in_setup + 1) * p_value)) over (
            partition by game, setup_id order by p_value, seat rows unbounded preceding) as p_holm
    from (select *, row_number() over (partition by game, setup_id order by p_value, seat) as rank_in_setup
          from tested)
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
        share_s / n as win_share,
        share_lo(n, share_s, share_ss) as win_share_lo,
        share_hi(n, share_s, share_ss) as win_share_hi,
        1.0 / players as fair_share,
        share_s / n - 1.0 / players as advantage,
        share_lo(n, share_s, share_ss) - 1.0 / players as advantage_lo,
        share_hi(n, share_s, share_ss) - 1.0 / players as advantage_hi,
        share_effective_n(n, share_s, share_ss) as effective_plays,
        p_value,
        p_holm,
        wins,
        shared_wins,
        wins / n as win_rate,
        wilson_lo(wins, n) as win_rate_lo,
        wilson_hi(wins, n) as win_rate_hi,
        score_s / n as mean_score,
        score_s / n - score_half as mean_score_lo,
        score_s / n + score_half as mean_score_hi,
        lead_s / n / (players - 1) as margin,
        (lead_s / n - lead_half) / (players - 1) as margin_lo,
        (lead_s / n + lead_half) / (players - 1) as margin_hi
    from adjusted
)

select * from final
