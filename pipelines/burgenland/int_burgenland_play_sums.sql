-- Burgenland, per part of a run, for every seat of a play together (policy_spec null) and for each policy's seats:
-- plays, and the sums over them of the pieces built in the central castle, of the pieces placed (pre-placed ones
-- not counted) and of their product, for the central castle's share of the pieces placed (a ratio of sums, its
-- interval by the delta method with the play as the unit); plays that used the central castle; the wells built,
-- their reward coins and their product, for the coins per well. Computed one part at a time (per_part): each
-- play's seats are added up, which a part holds few enough plays for.
with seats as (
    select * from stg_burgenland_seats
),

plays as (
    select
        run_id, play_index, policy_spec,
        sum(central_built)::bigint as central,
        sum(score)::bigint as placed,
        sum(wells_built)::bigint as wells,
        sum(well_coins)::bigint as coins
    from seats
    group by grouping sets ((run_id, play_index), (run_id, play_index, policy_spec))
),

final as (
    select
        run_id,
        policy_spec,
        count(*) as n_plays,
        sum(central)::bigint as central_sum, sum(central * central)::bigint as central_sq_sum,
        sum(placed)::bigint as placed_sum, sum(placed * placed)::bigint as placed_sq_sum,
        sum(central * placed)::bigint as central_placed_sum,
        count(*) filter (where central > 0) as plays_with_central,
        sum(wells)::bigint as wells_sum, sum(wells * wells)::bigint as wells_sq_sum,
        sum(coins)::bigint as coins_sum, sum(coins * coins)::bigint as coins_sq_sum,
        sum(wells * coins)::bigint as wells_coins_sum
    from plays
    group by run_id, policy_spec
)

select * from final
