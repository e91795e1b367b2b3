-- Die Mauerspechte: where the winners' points come from. Mean points per seat-play by source (the points_*
-- columns, which add up to the points) for the winners and for the other seats, per run, with 95%
-- intervals and each source's share of the side's points. Sums per run and side first, then one row per
-- source (memory does not grow with the plays).
with seats as (
    select * from stg_mauerspechte_seats
),

plays as (
    select * from int_mauerspechte_plays
),

sums as (
    select
        run_id,
        case when winner then 'winners' else 'others' end as side,
        count(*) as seat_plays,
        sum(points)::bigint as total_sum,
        sum(points_settlements)::bigint as settlements, sum(points_settlements::bigint * points_settlements) as settlements_sq,
        sum(points_cities)::bigint as cities, sum(points_cities::bigint * points_cities) as cities_sq,
        sum(points_longest_route)::bigint as longest_route,
        sum(points_longest_route::bigint * points_longest_route) as longest_route_sq,
        sum(points_army)::bigint as army, sum(points_army::bigint * points_army) as army_sq,
        sum(points_dev_cards)::bigint as dev_cards, sum(points_dev_cards::bigint * points_dev_cards) as dev_cards_sq,
        sum(points_wall)::bigint as wall, sum(points_wall::bigint * points_wall) as wall_sq,
        sum(points_chips)::bigint as chips, sum(points_chips::bigint * points_chips) as chips_sq,
        sum(points_mauerspecht)::bigint as mauerspecht, sum(points_mauerspecht::bigint * points_mauerspecht) as mauerspecht_sq,
        sum(points_raver)::bigint as raver, sum(points_raver::bigint * points_raver) as raver_sq,
        sum(points_hotels)::bigint as hotels, sum(points_hotels::bigint * points_hotels) as hotels_sq
    from seats
    group by all
),

by_source as (
    unpivot sums
    on (settlements, settlements_sq) as settlements,
       (cities, cities_sq) as cities,
       (longest_route, longest_route_sq) as longest_route,
       (army, army_sq) as army,
       (dev_cards, dev_cards_sq) as dev_cards,
       (wall, wall_sq) as wall,
       (chips, chips_sq) as chips,
       (mauerspecht, mauerspecht_sq) as mauerspecht,
       (raver, raver_sq) as raver,
       (hotels, hotels_sq) as hotels
    into name source value points_sum, points_sq_sum
),

final as (
    select
        'mauerspechte' as game,
        b.run_id,
        b.side,
        b.source,
        p.n_plays,
        b.seat_plays,
        b.points_sum / b.seat_plays as mean_points,
        mean_lo_int(b.seat_plays, b.points_sum, b.points_sq_sum) as mean_points_lo,
        mean_hi_int(b.seat_plays, b.points_sum, b.points_sq_sum) as mean_points_hi,
        b.points_sum / nullif(b.total_sum, 0) as points_share,
        b.total_sum / b.seat_plays as mean_total_points
    from by_source as b
    join plays as p using (run_id)
)

select * from final
