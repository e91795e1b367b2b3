-- Die Mauerspechte, per part of a run: seat-plays by seat, policy, hotels owned, wall pieces bought (and
-- how many of them lower pieces), whether the seat held Bester Mauerspecht, and whether it won; with their
-- points. Computed one part at a time (per_part): each seat is joined to the wall pieces it bought in its
-- play, which a part holds few enough plays for; the marts add the parts up.
with seats as (
    select * from stg_mauerspechte_seats
),

wall_pieces as (
    select * from stg_mauerspechte_wall_pieces
),

bought as (
    select
        run_id,
        play_index,
        seat,
        count(*) as wall_pieces,
        count(*) filter (where piece = 'lower') as lower_pieces
    from wall_pieces
    group by all
),

final as (
    select
        s.run_id,
        s.seat,
        s.policy_spec,
        any_value(s.policy) as policy,
        s.hotels,
        coalesce(b.wall_pieces, 0)::int as wall_pieces,
        coalesce(b.lower_pieces, 0)::int as lower_pieces,
        s.points_mauerspecht > 0 as mauerspecht,
        s.winner,
        count(*) as n_seat_plays,
        sum(s.points)::bigint as points_sum,
        sum(s.points::bigint * s.points) as points_sq_sum
    from seats as s
    left join bought as b
        on s.run_id = b.run_id and s.play_index = b.play_index and s.seat = b.seat
    group by all
)

select * from final
