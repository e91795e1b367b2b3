-- Burgenland, per run, policy, number of pieces the seat built in the central castle and winning or not:
-- seat-plays, with the sums of their pieces placed (anywhere) and of its squares. Counts per value, so the
-- central castle mart's means, shares and win rates do not grow with the plays.
with seats as (
    select * from stg_burgenland_seats
),

final as (
    select
        run_id,
        policy_spec,
        central_built,
        winner,
        any_value(policy) as policy,
        count(*) as n_seat_plays,
        sum(score)::bigint as score_sum,
        sum(score::bigint * score) as score_sq_sum
    from seats
    group by run_id, policy_spec, central_built, winner
)

select * from final
