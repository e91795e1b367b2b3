-- Burgenland, per run, policy and measure of the joker economy: seat-plays, with the sums of the jokers and the
-- seat-plays with at least one. Measures: the sources (walls: one per wall in the castle; spots: joker spots;
-- tiles: Zwei Joker bonus tiles; exchanged: bought for coins), gained (their sum; the joker dealt at the start
-- not counted), used (paid for buildings) and left (held at the end). 1 + gained = used + left.
with seats as (
    select * from stg_burgenland_seats
),

by_measure as (
    select run_id, policy_spec, policy, 'walls' as measure, jokers_walls as jokers from seats
    union all
    select run_id, policy_spec, policy, 'spots' as measure, jokers_spots as jokers from seats
    union all
    select run_id, policy_spec, policy, 'tiles' as measure, jokers_tiles as jokers from seats
    union all
    select run_id, policy_spec, policy, 'exchanged' as measure, jokers_exchanged as jokers from seats
    union all
    select run_id, policy_spec, policy, 'gained' as measure, jokers_gained as jokers from seats
    union all
    select run_id, policy_spec, policy, 'used' as measure, jokers_used as jokers from seats
    union all
    select run_id, policy_spec, policy, 'left' as measure, jokers_left as jokers from seats
),

final as (
    select
        run_id,
        policy_spec,
        measure,
        any_value(policy) as policy,
        count(*) as n_seat_plays,
        sum(jokers)::bigint as jokers_sum,
        sum(jokers::bigint * jokers) as jokers_sq_sum,
        count(*) filter (where jokers > 0) as holders
    from by_measure
    group by run_id, policy_spec, measure
)

select * from final
