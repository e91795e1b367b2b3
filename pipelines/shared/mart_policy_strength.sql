-- Policy against policy: how one player of `focal` fares at a table of `field`, the runs of one pairing pooled
-- (the same players, policies and rule options, the focal player in any seat: seat effects cancel when every
-- seat is covered equally, and seat_balance says how equally). Each distinct play counts once
-- (mart_run_setups.counted); runs with other rule options are another pairing, never pooled with this one.
-- The unit is the play (int_policy_play_sums): at a table of one policy every seat is the focal policy, and the
-- seats of a play share its dice, so the focal policy's share in a play is its seats' mean (exactly the fair
-- share whenever somebody wins). The win share is the estimand (ties split), its interval share_lo/share_hi and
-- its test share_p against the fair share; the win rate (a shared win counts for each winner) is labelled so.
with pairs as (
    select * from int_policy_pairs
),

counted_runs as (
    select game, run_id, setup_id from mart_run_setups where counted
),

setups as (
    select * from mart_run_setups
),

play_sums as (
    select game, run_id, policy_spec, sum(n_plays)::bigint as n_plays, sum(share_sum) as share_sum,
           sum(share_sq_sum) as share_sq_sum, sum(score_sum) as score_sum, sum(score_sq_sum) as score_sq_sum
    from int_policy_play_sums
    group by all
),

counted as (
    select p.*, u.pairing_id, u.pairing_label, u.options, u.options_label, u.fixed_opening
    from pairs as p
    join counted_runs as d using (game, run_id)
    join setups as u using (game, run_id)
    where u.pairing_id is not null
),

repeated as (
    -- Runs of the pairing whose plays another run already holds.
    select u.game, u.pairing_id, count(*) filter (where d.run_id is null) as n_runs_repeated
    from setups as u
    left join counted_runs as d using (game, run_id)
    where u.pairing_id is not null
    group by all
),

per_seat as (
    select game, pairing_id, seat, sum(n_plays)::bigint as n_plays
    from counted
    group by all
),

coverage as (
    select
        game, pairing_id,
        count(*) as seats_covered,
        min(n_plays) / max(n_plays) as seat_balance
    from per_seat
    group by all
),

totals as (
    select
        game, pairing_id,
        any_value(pairing_label) as pairing_label,
        any_value(players) as players,
        any_value(focal) as focal,
        any_value(field) as field,
        any_value(focal_spec) as focal_spec,
        any_value(field_spec) as field_spec,
        any_value(options) as options,
        any_value(options_label) as options_label,
        bool_or(fixed_opening) as fixed_opening,
        count(distinct run_id) as n_runs,
        sum(n_plays)::bigint as seat_plays,
        sum(wins)::bigint as wins
    from counted
    group by all
),

clustered as (
    -- The play as the unit: the focal policy's play sums of each counted run of the pairing.
    select c.game, c.pairing_id, sum(s.n_plays)::bigint as n_plays, sum(s.share_sum) as share_sum,
           sum(s.share_sq_sum) as share_sq_sum, sum(s.score_sum) as score_sum, sum(s.score_sq_sum) as score_sq_sum
    from (select distinct game, run_id, pairing_id, focal_spec from counted) as c
    join play_sums as s on s.game = c.game and s.run_id = c.run_id and s.policy_spec = c.focal_spec
    group by all
),

final as (
    select
        t.game,
        t.pairing_id,
        t.pairing_label,
        t.players,
        t.focal,
        t.field,
        t.focal_spec,
        t.field_spec,
        t.options,
        t.options_label,
        t.fixed_opening,
        t.n_runs,
        r.n_runs_repeated,
        k.n_plays,
        t.seat_plays,
        k.share_sum / k.n_plays as win_share,
        share_lo(k.n_plays, k.share_sum, k.share_sq_sum) as win_share_lo,
        share_hi(k.n_plays, k.share_sum, k.share_sq_sum) as win_share_hi,
        1.0 / t.players as fair_share,
        share_p(k.n_plays, k.share_sum, k.share_sq_sum, 1.0 / t.players) as p_value,
        share_effective_n(k.n_plays, k.share_sum, k.share_sq_sum) as effective_plays,
        t.focal_spec = t.field_spec as fair_by_construction,
        t.wins / t.seat_plays as win_rate,
        wilson_lo(t.wins, t.seat_plays) as win_rate_lo,
        wilson_hi(t.wins, t.seat_plays) as win_rate_hi,
        k.score_sum / k.n_plays as mean_score,
        k.score_sum / k.n_plays - mean_ci_half(sd_from_sums(k.n_plays, k.score_sum, k.score_sq_sum), k.n_plays)
            as mean_score_lo,
        k.score_sum / k.n_plays + mean_ci_half(sd_from_sums(k.n_plays, k.score_sum, k.score_sq_sum), k.n_plays)
            as mean_score_hi,
        c.seats_covered,
        c.seat_balance
    from totals as t
    join clustered as k using (game, pairing_id)
    join coverage as c using (game, pairing_id)
    join repeated as r using (game, pairing_id)
)

select * from final
