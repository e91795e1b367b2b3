-- Die Mauer: seat-plays per penalty value, by seat, table position and policy, per run. The penalty
-- marts read these counts, never the seats themselves, so their memory does not grow with the plays.
with seats as (
    select * from stg_mauer_seats
),

final as (
    select
        run_id,
        seat,
        player,
        policy,
        policy_spec,
        penalty,
        count(*) as n_seat_plays
    from seats
    group by all
)

select * from final
