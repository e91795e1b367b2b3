-- Is a seat favoured? Win rate and mean score by seat, per run.
with games as (
    select * from stg_games
),

seats as (
    select * from stg_seats
),

winning_seats as (
    select game, run_id, unnest(winners) as seat, len(winners) as n_winners
    from games
),

wins as (
    select
        game, run_id, seat,
        count(*) as wins,
        count(*) filter (where n_winners > 1) as shared_wins,
        sum(1.0 / n_winners) as win_share_sum
    from winning_seats
    group by all
),

scores as (
    select
        game, run_id, seat,
        any_value(policy) as policy,
        count(distinct policy_spec) as n_policies,
        count(*) as n_plays,
        avg(score) as mean_score,
        stddev_samp(score) as sd_score
    from seats
    group by all
),

players as (
    select game, run_id, any_value(players) as players from games group by all
),

final as (
    select
        s.game,
        s.run_id,
        p.players,
        s.seat,
        case when s.n_policies = 1 then s.policy else 'mixed' end as policy,
        s.n_plays,
        coalesce(w.wins, 0) as wins,
        coalesce(w.shared_wins, 0) as shared_wins,
        coalesce(w.wins, 0) / s.n_plays as win_rate,
        wilson_lo(coalesce(w.wins, 0), s.n_plays) as win_rate_lo,
        wilson_hi(coalesce(w.wins, 0), s.n_plays) as win_rate_hi,
        coalesce(w.win_share_sum, 0) / s.n_plays as win_share,
        1.0 / p.players as fair_share,
        s.mean_score,
        s.mean_score - mean_ci_half(s.sd_score, s.n_plays) as mean_score_lo,
        s.mean_score + mean_ci_half(s.sd_score, s.n_plays) as mean_score_hi
    from scores as s
    join players as p using (game, run_id)
    left join wins as w using (game, run_id, seat)
)

select * from final
