-- One line per run: start-player advantage, balance, a chi-square test of seat vs. winning,
-- completion and game length.
with seat_outcomes as (
    select * from mart_seat_outcomes
),

games as (
    select * from stg_games
),

expected as (
    select game, run_id, sum(wins) / count(*) as wins_per_seat, any_value(n_plays) as n_plays
    from seat_outcomes
    group by all
),

chi_square as (
    select
        s.game, s.run_id,
        sum(
            case when e.wins_per_seat > 0 then (s.wins - e.wins_per_seat) ^ 2 / e.wins_per_seat else 0 end
            + case when e.n_plays - e.wins_per_seat > 0
                   then ((s.n_plays - s.wins) - (e.n_plays - e.wins_per_seat)) ^ 2 / (e.n_plays - e.wins_per_seat)
                   else 0 end
        ) as chi2
    from seat_outcomes as s
    join expected as e using (game, run_id)
    group by all
),

seat_summary as (
    select
        game, run_id,
        any_value(players) as players,
        any_value(n_plays) as n_plays,
        max(win_rate) filter (where seat = 0) as seat0_win_rate,
        max(win_rate_lo) filter (where seat = 0) as seat0_win_rate_lo,
        max(win_rate_hi) filter (where seat = 0) as seat0_win_rate_hi,
        max(win_share) filter (where seat = 0) - 1.0 / any_value(players) as seat0_advantage,
        1 - (max(win_rate) - min(win_rate)) as balance,
        first(seat order by win_rate desc, seat) as best_seat,  -- ties: the lowest seat, so reruns agree
        first(seat order by win_rate, seat) as worst_seat
    from seat_outcomes
    group by all
),

play_summary as (
    select
        game, run_id,
        avg(completed::int) as completion_rate,
        count(*) filter (where not completed) as incomplete_plays,
        avg(turns) as mean_turns,
        avg((len(winners) > 1)::int) as tie_rate
    from games
    group by all
),

final as (
    select
        s.game,
        s.run_id,
        s.players,
        s.n_plays,
        s.seat0_win_rate,
        s.seat0_win_rate_lo,
        s.seat0_win_rate_hi,
        s.seat0_advantage,
        s.balance,
        s.best_seat,
        s.worst_seat,
        c.chi2,
        s.players - 1 as chi2_dof,
        chi2_sf(c.chi2, s.players - 1) as chi2_p_value,
        p.completion_rate,
        p.incomplete_plays,
        p.tie_rate,
        p.mean_turns
    from seat_summary as s
    join chi_square as c using (game, run_id)
    join play_summary as p using (game, run_id)
)

select * from final
