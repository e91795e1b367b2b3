-- Burgenland, per set-up (its counted runs: each distinct play once), for every seat together (policy_spec null)
-- and for each policy's seats, the per-play sums of int_burgenland_play_sums added up: plays, the central castle's
-- pieces and all pieces placed (sums, squares, products), plays with a central piece, wells built and their coins
-- (sums, squares, products). What the wells and central-castle marts' per-play figures and ratios come from.
with play_sums as (
    select * from int_burgenland_play_sums
),

setup_runs as (
    select * from int_burgenland_setups
),

final as (
    select
        u.setup_id,
        p.policy_spec,
        sum(p.n_plays)::bigint as n_plays,
        sum(p.central_sum)::bigint as central_sum, sum(p.central_sq_sum)::hugeint as central_sq_sum,
        sum(p.placed_sum)::bigint as placed_sum, sum(p.placed_sq_sum)::hugeint as placed_sq_sum,
        sum(p.central_placed_sum)::hugeint as central_placed_sum,
        sum(p.plays_with_central)::bigint as plays_with_central,
        sum(p.wells_sum)::bigint as wells_sum, sum(p.wells_sq_sum)::hugeint as wells_sq_sum,
        sum(p.coins_sum)::bigint as coins_sum, sum(p.coins_sq_sum)::hugeint as coins_sq_sum,
        sum(p.wells_coins_sum)::hugeint as wells_coins_sum
    from setup_runs as u
    join play_sums as p using (run_id)
    group by u.setup_id, p.policy_spec
)

select * from final
