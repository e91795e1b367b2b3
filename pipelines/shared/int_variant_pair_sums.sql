-- Per sweep variant, player count and metric: the variant's plays paired with the baseline's plays of the
-- same index (same seed: common random numbers), as sums. A variant is compared on the plays both runs
-- have; the baseline is paired with itself (difference 0), so figures read every variant from one place.
-- Balance is 1 - (win rate of the best seat - win rate of the worst), with each run's own best and worst
-- seats (mart_seat_outcomes): per play, 1 - (won[best] - won[worst]).
with sweeps as (
    select * from stg_sweeps
),

outcomes as (
    select * from int_play_outcomes
),

headlines as (
    select * from int_play_headline
),

seat_outcomes as (
    select * from mart_seat_outcomes
),

swept_runs as (
    select game, run_id from sweeps
    union
    select game, baseline_run_id from sweeps
),

extremes as (
    select
        game, run_id,
        first(seat order by win_rate desc, seat) as best_seat,
        first(seat order by win_rate, seat) as worst_seat
    from seat_outcomes
    semi join swept_runs using (game, run_id)
    group by all
),

plays as (
    select
        o.game, o.run_id, o.play_index, o.players,
        o.seat0_share - 1.0 / o.players as seat0_advantage,
        1.0 - (o.won[e.best_seat + 1]::int - o.won[e.worst_seat + 1]::int) as balance,
        o.turns::double as length,
        o.scores
    from outcomes as o
    join extremes as e using (game, run_id)
),

pairs as (
    select
        s.game, s.sweep_id, s.run_id, s.baseline_run_id, s.players,
        v.seat0_advantage as v_seat0_advantage, b.seat0_advantage as b_seat0_advantage,
        v.balance as v_balance, b.balance as b_balance,
        v.length as v_length, b.length as b_length,
        v.scores as v_scores, b.scores as b_scores,
        v.play_index
    from sweeps as s
    join plays as v on v.game = s.game and v.run_id = s.run_id
    join plays as b on b.game = s.game and b.run_id = s.baseline_run_id and b.play_index = v.play_index
),

headline_pairs as (
    select s.game, s.sweep_id, s.run_id, s.players, v.headline, v.value as v, b.value as b
    from sweeps as s
    join headlines as v on v.game = s.game and v.run_id = s.run_id
    join headlines as b
        on b.game = s.game and b.run_id = s.baseline_run_id and b.play_index = v.play_index
        and b.headline = v.headline
),

metric_values as (
    select game, sweep_id, run_id, players, 'seat0_advantage' as metric, null::int as seat,
           v_seat0_advantage as v, b_seat0_advantage as b
    from pairs
    union all
    select game, sweep_id, run_id, players, 'balance', null, v_balance, b_balance from pairs
    union all
    select game, sweep_id, run_id, players, 'length', null, v_length, b_length from pairs
    union all
    select game, sweep_id, run_id, players, 'score', seat, v_scores[seat + 1], b_scores[seat + 1]
    from (select *, unnest(range(players)) as seat from pairs)
    union all
    select game, sweep_id, run_id, players, 'headline: ' || headline, null, v, b
    from headline_pairs
    where v is not null and b is not null
),

final as (
    select
        game, sweep_id, run_id, players, metric, seat,
        count(*) as n_pairs,
        sum(v) as v_sum,
        sum(v * v) as v_sq_sum,
        sum(b) as b_sum,
        sum(b * b) as b_sq_sum,
        sum(v - b) as d_sum,
        sum((v - b) * (v - b)) as d_sq_sum
    from metric_values
    group by all
)

select * from final
