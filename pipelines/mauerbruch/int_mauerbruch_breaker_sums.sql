-- Mauerbruch, per part of a run: the wall-breaker's win share over the plays it broke, as sums (its share is
-- 1 / winners when it wins, a tie splitting the win, else 0), with the sum of squares its interval needs (a play
-- is the unit: its share varies over plays). The breaker is the seat that took the neighbouring stack
-- (bonus_cards > 0; a play has at most one). Computed one part at a time (per_part): each breaker is joined to its
-- play for the number of winners.
with seats as (
    select * from stg_mauerbruch_seats
),

games as (
    select * from stg_mauerbruch_games
),

breakers as (
    select
        s.run_id,
        s.seat,
        case when s.winner then 1.0 / len(g.winners) else 0.0 end as share
    from seats as s
    join games as g using (run_id, play_index)
    where s.bonus_cards > 0
),

final as (
    select
        run_id,
        count(*) as n_breaks,
        sum(share) as share_sum,
        sum(share * share) as share_sq_sum,
        count(*) filter (where seat = 0) as seat0_breaks
    from breakers
    group by all
)

select * from final
