-- Burgenland, per run, policy, number of wells the seat built and winning or not: seat-plays, with the sums of
-- their wells' rewards (coins) and of their pieces placed. Counts per value, so the well marts' means and win
-- rates do not grow with the plays.
with seats as (
    select * from stg_burgenland_seats
),

final as (
    select
        run_id,
        policy_spec,
        wells_built,
        winner,
        any_value(policy) as policy,
        count(*) as n_seat_plays,
        sum(well_coins)::bigint as well_coins_sum,
        sum(well_coins::bigint * well_coins) as well_coins_sq_sum,
        sum(score)::bigint as score_sum,
        sum(score::bigint * score) as score_sq_sum
    from seats
    group by run_id, policy_spec, wells_built, winner
)

select * from final
