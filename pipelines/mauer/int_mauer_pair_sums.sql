-- Die Mauer, per part of a run: every pair of seats' penalty points compared play by play, and every pair of table
-- positions' penalty totals compared match by match (a part holds whole matches), as sums: the pairs' units, each
-- side's sum, and the sum and sum of squares of the difference (b - a, integers: exact). A play's seats share its
-- deal, so two seats are compared by their paired difference, whose variance is over plays (over matches for the
-- positions). Computed one part at a time (per_part): each seat is joined to the other seats of its play.
with seats as (
    select * from stg_mauer_seats
),

match_totals as (
    select run_id, match_id, player, sum(penalty) as total
    from seats
    group by all
),

pairs as (
    select a.run_id, 'seat' as compared, a.seat as a, b.seat as b, a.penalty as x_a, b.penalty as x_b
    from seats as a
    join seats as b on a.run_id = b.run_id and a.play_index = b.play_index and a.seat < b.seat
    union all
    select a.run_id, 'position' as compared, a.player as a, b.player as b, a.total as x_a, b.total as x_b
    from match_totals as a
    join match_totals as b on a.run_id = b.run_id and a.match_id = b.match_id and a.player < b.player
),

final as (
    select
        run_id,
        compared,
        a,
        b,
        count(*) as n_units,
        sum(x_a)::bigint as a_sum,
        sum(x_b)::bigint as b_sum,
        sum(x_b - x_a)::bigint as difference_sum,
        sum((x_b - x_a)::bigint * (x_b - x_a)) as difference_sq_sum
    from pairs
    group by all
)

select * from final
