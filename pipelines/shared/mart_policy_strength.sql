-- Policy against policy: how one player of `focal` fares at a table of `field`, the runs of one pairing pooled
-- (the same players, policies and rule options, the focal player in any seat: seat effects cancel when every
-- seat is covered equally, and seat_balance says how equally). Each distinct play counts once
-- (mart_run_setups.counted); runs with other rule options are another pairing, never pooled with this one.
with pairs as (
    select * from int_policy_pairs
),

counted_runs as (
    select game, run_id, setup_id from mart_run_setups where counted
),

setups as (
    select * from mart_run_setups
),

counted as (
    select p.*, u.pairing_id, u.pairing_label, u.options, u.options_label
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
        count(distinct run_id) as n_runs,
        sum(n_plays)::bigint as n_plays,
        sum(wins)::bigint as wins,
        sum(win_share_sum) as win_share_sum,
        sum(score_sum) as score_sum,
        sum(score_sq_sum) as score_sq_sum
    from counted
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
        t.n_runs,
        r.n_runs_repeated,
        t.n_plays,
        t.wins / t.n_plays as win_rate,
        wilson_lo(t.wins, t.n_plays) as win_rate_lo,
        wilson_hi(t.wins, t.n_plays) as win_rate_hi,
        t.win_share_sum / t.n_plays as win_share,
        1.0 / t.players as fair_share,
        t.score_sum / t.n_plays as mean_score,
        t.score_sum / t.n_plays - mean_ci_half(sd_from_sums(t.n_plays, t.score_sum, t.score_sq_sum), t.n_plays)
            as mean_score_lo,
        t.score_sum / t.n_plays + mean_ci_half(sd_from_sums(t.n_plays, t.score_sum, t.score_sq_sum), t.n_plays)
            as mean_score_hi,
        c.seats_covered,
        c.seat_balance
    from totals as t
    join coverage as c using (game, pairing_id)
    join repeated as r using (game, pairing_id)
)

select * from final
