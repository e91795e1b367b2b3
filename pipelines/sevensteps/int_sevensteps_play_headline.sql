-- 7 Steps' headline for what-if sweeps: the skill gap, one focal player's score minus the mean score of
-- the field (every other seat, one policy) in the same play. Only tables of one focal player among at
-- least two field players have it (at two seats neither is the field).
with seats as (
    select * from stg_seats
),

by_policy as (
    select run_id, play_index, policy_spec, count(*) as n_seats, avg(score) as mean_score
    from seats
    group by all
),

lineups as (
    select run_id, play_index
    from by_policy
    group by all
    having count(*) = 2 and min(n_seats) = 1 and max(n_seats) >= 2
),

final as (
    select
        'sevensteps' as game,
        f.run_id,
        f.play_index,
        'skill gap (focal score - field mean)' as headline,
        f.mean_score - o.mean_score as value
    from by_policy as f
    semi join lineups as l using (run_id, play_index)
    join by_policy as o on o.run_id = f.run_id and o.play_index = f.play_index and o.n_seats >= 2
    where f.n_seats = 1
)

select * from final
