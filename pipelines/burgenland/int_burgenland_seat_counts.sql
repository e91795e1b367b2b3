-- Burgenland, per run, policy, winning or not, wells built and pieces built in the central castle: seat-plays,
-- with the sums of their pieces placed (the score) and of their wells' reward coins, and of their squares.
-- Counts per value of wells and central pieces, so the products that ratios of sums need (coins x wells,
-- central x placed) are the value times a sum, and nothing grows with the plays.
with seats as (
    select * from stg_burgenland_seats
),

final as (
    select
        run_id, policy_spec, winner, wells_built, central_built,
        any_value(policy) as policy,
        count(*) as n_seat_plays,
        sum(score)::bigint as placed_sum, sum(score::bigint * score) as placed_sq_sum,
        sum(well_coins)::bigint as coins_sum, sum(well_coins::bigint * well_coins) as coins_sq_sum
    from seats
    group by run_id, policy_spec, winner, wells_built, central_built
)

select * from final
