-- Catan, per part of a run: every pair of seats' cards lost (to the robber and to discards on a 7) compared play by
-- play, as sums: the plays, each side's sum, and the sum and sum of squares of the difference (b - a, integers:
-- exact). A play's seats share its dice and its robber, so two seats are compared by their paired difference,
-- whose variance is over plays. Computed one part at a time (per_part): each seat is joined to the other seats of
-- its play.
with seats as (
    select * from stg_catan_seats
),

losses as (
    select run_id, play_index, seat, robbed + discarded as lost
    from seats
),

final as (
    select
        a.run_id,
        a.seat as seat_a,
        b.seat as seat_b,
        count(*) as n_plays,
        sum(a.lost)::bigint as a_sum,
        sum(b.lost)::bigint as b_sum,
        sum(b.lost - a.lost)::bigint as difference_sum,
        sum((b.lost - a.lost)::bigint * (b.lost - a.lost)) as difference_sq_sum
    from losses as a
    join losses as b on a.run_id = b.run_id and a.play_index = b.play_index and a.seat < b.seat
    group by all
)

select * from final
