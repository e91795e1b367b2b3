-- Catan's production per play, seat, building kind and resource: cards received from rolls, cards the
-- dice promised (pips/36 per roll, robber and bank ignored), and the difference, what robber and bank took.
with source as (
    select * from lake_catan_production
),

final as (
    select
        run_id::varchar as run_id,
        play_index,
        seat::int as seat,
        building::varchar as building,
        resource::varchar as resource,
        amount::int as amount,
        expected::double as expected,
        amount - expected as difference
    from source
)

select * from final
