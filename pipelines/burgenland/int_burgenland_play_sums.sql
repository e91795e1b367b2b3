-- Burgenland, per part of a run: plays, and the sums over them of the pieces built in the central castle, of
-- all pieces placed by the seats (pre-placed ones not counted) and of their product, for the central castle's
-- share of the pieces placed (a ratio of sums, its interval by the delta method); plays that used the central
-- castle; wells built. Computed one part at a time (per_part): each play's seats are added up, which a part
-- holds few enough plays for.
with seats as (
    select * from stg_burgenland_seats
),

plays as (
    select
        run_id, play_index,
        sum(central_built)::bigint as central,
        sum(score)::bigint as placed,
        sum(wells_built)::bigint as wells
    from seats
    group by run_id, play_index
),

final as (
    select
        run_id,
        count(*) as n_plays,
        sum(central)::bigint as central_sum, sum(central * central)::bigint as central_sq_sum,
        sum(placed)::bigint as placed_sum, sum(placed * placed)::bigint as placed_sq_sum,
        sum(central * placed)::bigint as central_placed_sum,
        count(*) filter (where central > 0) as plays_with_central,
        sum(wells)::bigint as wells_sum, sum(wells * wells)::bigint as wells_sq_sum
    from plays
    group by run_id
)

select * from final
