-- Per part of a run and policy: the play as the unit. A policy that sits at several seats of a play (every seat,
-- at a table of one policy) is one observation there: its seats' mean win share and mean score in that play. Sums
-- over plays of those and of their squares, so that mart_policy_strength's intervals count plays, not seats
-- (the seats of a play share its dice).
with seats as (
    select * from stg_seats
),

with_share as (
    -- a winner's share: 1 / the play's seats with winner set (a window, not a join with the games table)
    select
        *,
        case when winner then 1.0 / count(*) filter (where winner) over (partition by game, run_id, play_index)
             else 0 end as share
    from seats
),

per_play as (
    select
        game, run_id, play_index, policy_spec,
        count(*) as seats,
        avg(share) as share,
        avg(score) as score
    from with_share
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
