-- Burgenland, per run, policy, winning or not, measure and value: seat-plays. The measures are the pieces left
-- in the supply at the end by kind (walls_left, houses_left, palases_left, wells_left; pieces_left: all four)
-- and the joker economy (jokers_walls: one per wall in the castle built in; jokers_spots; jokers_tiles: Zwei
-- Joker bonus tiles; jokers_exchanged: bought for coins; jokers_gained: the four together, the dealt joker not
-- counted; jokers_used: paid for buildings; jokers_left: held at the end; 1 + gained = used + left). Counts per
-- value, so the means, intervals and shares of holders built from them do not grow with the plays.
with seats as (
    select * from stg_burgenland_seats
),

measures as (
    unpivot (
        select
            run_id, policy_spec, policy, winner,
            walls_left, houses_left, palases_left, wells_left, pieces_left,
            jokers_walls, jokers_spots, jokers_tiles, jokers_exchanged, jokers_gained, jokers_used, jokers_left
        from seats
    )
    on columns(* exclude (run_id, policy_spec, policy, winner))
    into name measure value amount
),

final as (
    select run_id, policy_spec, winner, measure, amount, any_value(policy) as policy, count(*) as n_seat_plays
    from measures
    group by run_id, policy_spec, winner, measure, amount
)

select * from final
