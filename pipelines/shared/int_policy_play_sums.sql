-- Per part of a run and policy: the play as the unit. A policy that sits at several seats of a play (every seat,
-- at a table of one policy) is one observation there: its seats' mean win share and mean score in that play. Sums
-- over plays of those and of their squares, so that mart_policy_strength's intervals count plays, not seats
-- (the seats of a play share its dice).
with seats as (
    select * from stg_seats
),

games as (
    select * from stg_games
),

per_play as (
    select
        s.game, s.run_id, s.play_index, s.policy_spec,
        count(*) as seats,
        avg(case when s.winner then 1.0 / len(g.winners) else 0 end) as share,
        avg(s.score) as score
    from seats as s
    join games as g
        on s.game = g.game and s.run_id = g.run_id and s.play_index = g.play_index
    group by all
),

final as (
    select
        game,
        run_id,
        policy_spec,
        count(*) as n_plays,
        sum(seats) as seat_plays,
        sum(share) as share_sum,
        sum(share * share) as share_sq_sum,
        sum(score) as score_sum,
        sum(score * score) as score_sq_sum
    from per_play
    group by all
)

select * from final
