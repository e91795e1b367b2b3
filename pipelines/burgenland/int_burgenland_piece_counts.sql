-- Burgenland, per run, policy, winning or not and kind of piece (wall, house, palas, well, any = all four):
-- seat-plays, with the sums of the pieces of the kind left in the supply at the end and the seat-plays left
-- holding at least one. The winner has none left; the others' leftovers say which kind holds players back.
with seats as (
    select * from stg_burgenland_seats
),

by_kind as (
    select run_id, policy_spec, policy, winner, 'wall' as kind, walls_left as left_over from seats
    union all
    select run_id, policy_spec, policy, winner, 'house' as kind, houses_left as left_over from seats
    union all
    select run_id, policy_spec, policy, winner, 'palas' as kind, palases_left as left_over from seats
    union all
    select run_id, policy_spec, policy, winner, 'well' as kind, wells_left as left_over from seats
    union all
    select run_id, policy_spec, policy, winner, 'any' as kind, pieces_left as left_over from seats
),

final as (
    select
        run_id,
        policy_spec,
        winner,
        kind,
        any_value(policy) as policy,
        count(*) as n_seat_plays,
        sum(left_over)::bigint as left_sum,
        sum(left_over::bigint * left_over) as left_sq_sum,
        count(*) filter (where left_over > 0) as holders
    from by_kind
    group by run_id, policy_spec, winner, kind
)

select * from final
