-- How plays feel per set-up (docs/statistics.md, "How a play feels"), each distinct play counted once
-- (mart_run_setups.counted): the mean of each feature with its 95% interval over the plays with a single winner;
-- how often the single half-time leader wins, and how often the winner was last at half-time, with Wilson's
-- intervals.
with sums as (
    select * from int_feel_run_sums
),

counted_runs as (
    select game, run_id, setup_id from mart_run_setups where counted
),

setups as (
    select game, setup_id, any_value(setup_label) as setup_label, any_value(players) as players,
           any_value(lineup_kind) as lineup_kind
    from mart_run_setups
    group by all
),

pooled as (
    select
        s.game,
        c.setup_id,
        count(*) as n_runs,
        sum(s.n_plays)::bigint as n_plays,
        sum(s.lead_changes_sum)::bigint as lc_s,
        sum(s.lead_changes_sq_sum)::hugeint as lc_ss,
        sum(s.winner_lead_share_sum) as ls_s,
        sum(s.winner_lead_share_sq_sum) as ls_ss,
        sum(s.decided_at_sum) as da_s,
        sum(s.decided_at_sq_sum) as da_ss,
        sum(s.decisive_at_sum) as ds_s,
        sum(s.decisive_at_sq_sum) as ds_ss,
        sum(s.drama_sum) as dr_s,
        sum(s.drama_sq_sum) as dr_ss,
        sum(s.max_deficit_sum) as md_s,
        sum(s.max_deficit_sq_sum) as md_ss,
        sum(s.q1_leader_plays)::bigint as q1_leader_plays,
        sum(s.q1_leader_wins)::bigint as q1_leader_wins,
        sum(s.half_leader_plays)::bigint as half_leader_plays,
        sum(s.half_leader_wins)::bigint as half_leader_wins,
        sum(s.q3_leader_plays)::bigint as q3_leader_plays,
        sum(s.q3_leader_wins)::bigint as q3_leader_wins,
        sum(s.wins_from_last)::bigint as wins_from_last,
        -- the examples from the set-up's largest run (ties: the first run id)
        arg_max(s.run_id, (s.n_plays, s.run_id)) as example_run_id,
        arg_max(s.comeback_play, (s.n_plays, s.run_id)) as comeback_play,
        arg_max(s.runaway_play, (s.n_plays, s.run_id)) as runaway_play
    from sums as s
    join counted_runs as c using (game, run_id)
    group by all
),

final as (
    select
        p.game,
        p.setup_id,
        u.setup_label,
        u.players,
        u.lineup_kind,
        p.n_runs,
        p.n_plays,
        p.lc_s / p.n_plays as mean_lead_changes,
        mean_lo_int(p.n_plays, p.lc_s, p.lc_ss) as mean_lead_changes_lo,
        mean_hi_int(p.n_plays, p.lc_s, p.lc_ss) as mean_lead_changes_hi,
        p.ls_s / p.n_plays as mean_winner_lead_share,
        mean_lo(p.n_plays, p.ls_s, p.ls_ss) as mean_winner_lead_share_lo,
        mean_hi(p.n_plays, p.ls_s, p.ls_ss) as mean_winner_lead_share_hi,
        p.da_s / p.n_plays as mean_decided_at,
        mean_lo(p.n_plays, p.da_s, p.da_ss) as mean_decided_at_lo,
        mean_hi(p.n_plays, p.da_s, p.da_ss) as mean_decided_at_hi,
        p.ds_s / p.n_plays as mean_decisive_at,
        mean_lo(p.n_plays, p.ds_s, p.ds_ss) as mean_decisive_at_lo,
        mean_hi(p.n_plays, p.ds_s, p.ds_ss) as mean_decisive_at_hi,
        p.dr_s / p.n_plays as mean_drama,
        mean_lo(p.n_plays, p.dr_s, p.dr_ss) as mean_drama_lo,
        mean_hi(p.n_plays, p.dr_s, p.dr_ss) as mean_drama_hi,
        p.md_s / p.n_plays as mean_max_deficit,
        mean_lo(p.n_plays, p.md_s, p.md_ss) as mean_max_deficit_lo,
        mean_hi(p.n_plays, p.md_s, p.md_ss) as mean_max_deficit_hi,
        p.q1_leader_plays,
        p.q1_leader_wins,
        p.q1_leader_wins / nullif(p.q1_leader_plays, 0) as q1_leader_win_rate,
        wilson_lo(p.q1_leader_wins, nullif(p.q1_leader_plays, 0)) as q1_leader_win_rate_lo,
        wilson_hi(p.q1_leader_wins, nullif(p.q1_leader_plays, 0)) as q1_leader_win_rate_hi,
        p.half_leader_plays,
        p.half_leader_wins,
        p.half_leader_wins / nullif(p.half_leader_plays, 0) as half_leader_win_rate,
        wilson_lo(p.half_leader_wins, nullif(p.half_leader_plays, 0)) as half_leader_win_rate_lo,
        wilson_hi(p.half_leader_wins, nullif(p.half_leader_plays, 0)) as half_leader_win_rate_hi,
        p.q3_leader_plays,
        p.q3_leader_wins,
        p.q3_leader_wins / nullif(p.q3_leader_plays, 0) as q3_leader_win_rate,
        wilson_lo(p.q3_leader_wins, nullif(p.q3_leader_plays, 0)) as q3_leader_win_rate_lo,
        wilson_hi(p.q3_leader_wins, nullif(p.q3_leader_plays, 0)) as q3_leader_win_rate_hi,
        p.wins_from_last,
        p.wins_from_last / p.n_plays as won_from_last_share,
        wilson_lo(p.wins_from_last, p.n_plays) as won_from_last_share_lo,
        wilson_hi(p.wins_from_last, p.n_plays) as won_from_last_share_hi,
        p.example_run_id,
        p.comeback_play,
        p.runaway_play
    from pooled as p
    join setups as u using (game, setup_id)
)

select * from final
