-- Burgenland, per part of a run, policy, group of its seats and measure: the play as the unit. The seats of a play
-- share its cards, so a per-seat figure's interval counts plays (docs/statistics.md): per play the group's seats (m),
-- the measure summed over them (y) and the seats holding at least one (h), and over the plays the sums of m, y, h,
-- their squares and the products m y, m h: what a ratio of sums (mean per seat-play = sum y / sum m) needs for its
-- interval clustered by play (int_burgenland_measure_stats). Groups (`among`): all (every seat of the policy),
-- non_winners, central_users (a piece in the central castle) and central_non_users, wells (the seats that built
-- `level` wells). Measures: the pieces left by kind (walls_left, houses_left, palases_left, wells_left, pieces_left),
-- the joker economy (jokers_walls, jokers_spots, jokers_tiles, jokers_exchanged, jokers_gained, jokers_used,
-- jokers_left), wells_built, well_coins, central_built, placed (the score), win_share (1 / winners for a winner).
-- Computed one part at a time (per_part): a part holds few enough plays to group each play's seats.
with seats as (
    select * from stg_burgenland_seats
),

shared as (
    select
        *,
        case when winner then 1.0 / sum(winner::int) over (partition by run_id, play_index) else 0.0 end as win_share
    from seats
),

measures as (
    unpivot (
        select
            run_id, play_index, policy_spec, policy, winner, wells_built as wells, central_built > 0 as central_user,
            walls_left::double as walls_left, houses_left::double as houses_left,
            palases_left::double as palases_left, wells_left::double as wells_left,
            pieces_left::double as pieces_left, jokers_walls::double as jokers_walls,
            jokers_spots::double as jokers_spots, jokers_tiles::double as jokers_tiles,
            jokers_exchanged::double as jokers_exchanged, jokers_gained::double as jokers_gained,
            jokers_used::double as jokers_used, jokers_left::double as jokers_left,
            wells_built::double as wells_built, well_coins::double as well_coins,
            central_built::double as central_built, score::double as placed, win_share
        from shared
    )
    on columns(* exclude (run_id, play_index, policy_spec, policy, winner, wells, central_user))
    into name measure value amount
),

grouped as (
    -- Each seat's rows in every group it belongs to: all, its own wins, its use of the castle, its wells.
    select *, 'all' as among, 0 as level from measures where measure not in ('win_share', 'placed')
    union all
    select *, 'non_winners', 0 from measures
    where not winner and measure in ('walls_left', 'houses_left', 'palases_left', 'wells_left', 'pieces_left')
    union all
    select *, case when central_user then 'central_users' else 'central_non_users' end, 0 from measures
    where measure = 'win_share'
    union all
    select *, 'wells', wells from measures where measure in ('win_share', 'placed', 'well_coins')
),

per_play as (
    select
        run_id, policy_spec, among, level, measure, any_value(policy) as policy,
        count(*) as m, sum(amount) as y, count(*) filter (where amount > 0) as h
    from grouped
    group by run_id, play_index, policy_spec, among, level, measure
),

final as (
    select
        run_id, policy_spec, among, level, measure,
        any_value(policy) as policy,
        count(*) as n_plays,
        sum(m)::bigint as seats_sum, sum(m * m)::bigint as seats_sq_sum,
        sum(y) as value_sum, sum(y * y) as value_sq_sum, sum(m * y) as seats_value_sum,
        sum(h)::bigint as holders_sum, sum(h * h)::bigint as holders_sq_sum, sum(m * h)::bigint as seats_holders_sum
    from per_play
    group by run_id, policy_spec, among, level, measure
)

select * from final
