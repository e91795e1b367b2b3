-- Catan, per part of a run, building kind and resource: each play's cards received from rolls and cards the dice
-- promised, all its seats together, summed over the part's plays with their squares and product. The play is the
-- unit (its seats share its dice, its robber and its bank), so the received-to-promised ratio's interval is the
-- ratio estimator's over plays, which needs these sums. A play without a row received and was promised nothing.
with production as (
    select * from stg_catan_production
),

per_play as (
    select run_id, play_index, building, resource, sum(amount)::bigint as received, sum(expected) as expected
    from production
    group by all
),

final as (
    select
        run_id,
        building,
        resource,
        count(*) as plays_with_rows,
        sum(received)::bigint as received,
        sum(received * received)::bigint as received_sq_sum,
        sum(expected) as expected,
        sum(expected * expected) as expected_sq_sum,
        sum(received * expected) as received_by_expected_sum
    from per_play
    group by all
)

select * from final
