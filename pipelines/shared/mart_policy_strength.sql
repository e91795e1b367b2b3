-- Policy against policy: how one player of `focal` fares at a table of `field`, over all runs of the
-- same game and player count, seats pooled (seat effects cancel when every seat is covered equally;
-- seat_balance says how equally).
with pairs as (
    select * from int_policy_pairs
),

per_seat as (
    select game, players, focal_spec, field_spec, seat, sum(n_plays)::bigint as n_plays
    from pairs
    group by all
),

coverage as (
    select
        game, players, focal_spec, field_spec,
        count(*) as seats_covered,
        min(n_plays) / max(n_plays) as seat_balance
    from per_seat
    group by all
),

totals as (
    select
        game, players, focal_spec, field_spec,
        any_value(focal) as focal,
        any_value(field) as field,
        count(distinct run_id) as n_runs,
        sum(n_plays)::bigint as n_plays,
        sum(wins)::bigint as wins,
        sum(win_share_sum) as win_share_sum,
        sum(score_sum) as score_sum,
        sum(score_sq_sum) as score_sq_sum
    from pairs
    group by all
),

final as (
    select
        t.game,
        t.players,
        t.focal,
        t.field,
        t.focal_spec,
        t.field_spec,
        t.n_runs,
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
    join coverage as c using (game, players, focal_spec, field_spec)
)

select * from final
