-- Die Mauerspechte, per part of a run, group of seats and measure: the play as the unit. The seats of a play share
-- its dice, so a per-seat figure's interval counts plays (docs/statistics.md): per play the group's seats (m), the
-- measure summed over them (y) and the seats with the measure above 0 (h), and over the plays the sums of m, y, h,
-- their squares and the products m y, m h: what a ratio of sums (a mean per seat-play = sum y / sum m) needs for its
-- interval clustered by play (int_mauerspechte_group_stats). A group is some seats of a play: every seat
-- (policy_spec and seat null), a policy's seats (seat null) or one seat; and among them (`among`) all, the buyers or
-- non-buyers of hotels (owned at the end) or wall pieces, those that owned `level` hotels or bought `level` wall
-- pieces, the holder of Bester Mauerspecht or the seats without it, the winners or the others. Measures: hotels,
-- wall_pieces, lower_pieces, win_share (1 / winners for a winner), points and the points by source (points_<source>).
-- Computed one part at a time (per_part): each seat is joined to the wall pieces it bought in its play.
with seats as (
    select * from stg_mauerspechte_seats
),

wall_pieces as (
    select * from stg_mauerspechte_wall_pieces
),

bought as (
    select
        run_id, play_index, seat,
        count(*) as wall_pieces,
        count(*) filter (where piece = 'lower') as lower_pieces
    from wall_pieces
    group by all
),

seat_plays as (
    select
        s.*,
        coalesce(b.wall_pieces, 0) as wall_pieces,
        coalesce(b.lower_pieces, 0) as lower_pieces,
        case when s.winner then 1.0 / sum(s.winner::int) over (partition by s.run_id, s.play_index) else 0.0 end
            as win_share
    from seats as s
    left join bought as b
        on s.run_id = b.run_id and s.play_index = b.play_index and s.seat = b.seat
),

measures as (
    unpivot (
        select
            run_id, play_index, seat, policy_spec, policy, winner, points_mauerspecht > 0 as mauerspecht,
            hotels as hotels_owned, wall_pieces as pieces_owned,
            hotels::double as hotels, wall_pieces::double as wall_pieces, lower_pieces::double as lower_pieces,
            win_share, points::double as points,
            points_settlements::double as points_settlements, points_cities::double as points_cities,
            points_longest_route::double as points_longest_route, points_army::double as points_army,
            points_dev_cards::double as points_dev_cards, points_wall::double as points_wall,
            points_chips::double as points_chips, points_mauerspecht::double as points_mauerspecht,
            points_raver::double as points_raver, points_hotels::double as points_hotels
        from seat_plays
    )
    on columns(* exclude (run_id, play_index, seat, policy_spec, policy, winner, mauerspecht, hotels_owned,
                          pieces_owned))
    into name measure value amount
),

grouped as (
    -- Each seat's rows in every group it belongs to. `policy_spec` and `seat` are kept where the group is a
    -- policy's seats or one seat, and set to null where it is every seat of the play.
    select run_id, play_index, policy_spec, seat, 'all' as among, 0 as level, measure, policy, amount
    from measures where measure in ('hotels', 'wall_pieces', 'lower_pieces')
    union all
    select run_id, play_index, policy_spec, seat,
           case when hotels_owned > 0 then 'hotel_buyers' else 'hotel_non_buyers' end, 0, measure, policy, amount
    from measures where measure = 'win_share'
    union all
    select run_id, play_index, policy_spec, seat,
           case when pieces_owned > 0 then 'wall_buyers' else 'wall_non_buyers' end, 0, measure, policy, amount
    from measures where measure = 'win_share'
    union all
    select run_id, play_index, policy_spec, null, 'hotels', hotels_owned, measure, policy, amount
    from measures where measure in ('win_share', 'points')
    union all
    select run_id, play_index, policy_spec, null, 'wall_pieces', pieces_owned, measure, policy, amount
    from measures where measure in ('win_share', 'points')
    union all
    select run_id, play_index, null, null, case when mauerspecht then 'mauerspecht' else 'no_mauerspecht' end, 0,
           measure, null, amount
    from measures where measure = 'win_share'
    union all
    select run_id, play_index, null, null, case when winner then 'winners' else 'others' end, 0, measure, null,
           amount
    from measures where measure = 'points' or measure like 'points_%'
),

per_play as (
    -- a group's seats of one play: the policy's (or every seat's) together, and each seat on its own where the group
    -- keeps the seat
    select
        run_id, policy_spec, null::int as seat, among, level, measure, any_value(policy) as policy,
        count(*) as m, sum(amount) as y, count(*) filter (where amount > 0) as h
    from grouped
    group by run_id, play_index, policy_spec, among, level, measure
    union all
    select
        run_id, policy_spec, seat, among, level, measure, any_value(policy) as policy,
        count(*) as m, sum(amount) as y, count(*) filter (where amount > 0) as h
    from grouped
    where seat is not null
    group by run_id, play_index, policy_spec, seat, among, level, measure
),

final as (
    select
        run_id, policy_spec, seat, among, level, measure,
        any_value(policy) as policy,
        count(*) as n_plays,
        sum(m)::bigint as seats_sum, sum(m * m)::bigint as seats_sq_sum,
        sum(y) as value_sum, sum(y * y) as value_sq_sum, sum(m * y) as seats_value_sum,
        sum(h)::bigint as holders_sum, sum(h * h)::bigint as holders_sq_sum, sum(m * h)::bigint as seats_holders_sum
    from per_play
    group by run_id, policy_spec, seat, among, level, measure
)

select * from final
