-- Toy dice: seat-plays per total, per run.
with seats as (
    select * from stg_toydice_seats
),

counts as (
    select run_id, total, count(*) as n_seat_plays
    from seats
    group by all
),

final as (
    select
        'toydice' as game,
        run_id,
        total,
        n_seat_plays,
        sum(n_seat_plays) over (partition by run_id)::bigint as n_plays,
        n_seat_plays / sum(n_seat_plays) over (partition by run_id) as share
    from counts
)

select * from final
