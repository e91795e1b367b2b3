-- Per part of a run and pair of seats: the sum over plays of the product of the two seats' win shares (a seat's
-- share is 1 / winners when it wins, else 0; the pair of a seat with itself gives its sum of squares). With the
-- seats' sums (int_seat_policy_sums) these are the shares' covariance over plays, which the seat test and balance
-- need: a play's seats share its dice, so their shares are not independent samples. Only winners have a share,
-- so a play adds winners x winners rows (one, without a tie).
with games as (
    select * from stg_games
),

products as (
    select g.game, g.run_id, a.seat_a, b.seat_b, 1.0 / (len(g.winners) * len(g.winners)) as product
    from games as g,
        lateral (select unnest(g.winners) as seat_a) as a,
        lateral (select unnest(g.winners) as seat_b) as b
),

final as (
    select game, run_id, seat_a::int as seat_a, seat_b::int as seat_b, sum(product) as product_sum
    from products
    group by all
)

select * from final
