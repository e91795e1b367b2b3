-- Burgenland, do seats that build wells win? The win rate and pieces placed of seats by the number of wells
-- they built, with the reward coins their wells paid, per policy and set-up, each distinct play once
-- (int_burgenland_setups). A seat wins only by placing every piece, so a seat that built fewer wells than its
-- supply (wells_supply) never wins: the rows show how many seats the wells held back. A well that is the seat's
-- last piece ends the play unpaid (no reward after the last piece). Each figure is followed by its 95% interval.
with counts as (
    select * from int_burgenland_seat_counts
),

supply as (
    select run_id, supply from int_burgenland_supply where kind = 'well'
),

setup_runs as (
    select * from int_burgenland_setups
),

sums as (
    select
        u.setup_id, u.setup_label, u.players, u.start_hands, u.n_plays, c.policy_spec, c.wells_built,
        any_value(c.policy) as policy,
        max(w.supply) as wells_supply,
        sum(c.n_seat_plays)::bigint as n,
        coalesce(sum(c.n_seat_plays) filter (where c.winner), 0)::bigint as wins,
        sum(c.placed_sum) as placed_s, sum(c.placed_sq_sum)::hugeint as placed_ss,
        sum(c.coins_sum) as coins_s, sum(c.coins_sq_sum)::hugeint as coins_ss
    from setup_runs as u
    join counts as c using (run_id)
    join supply as w using (run_id)
    group by all
),

final as (
    select
        'burgenland' as game,
        setup_id, setup_label, players, start_hands, policy, policy_spec,
        wells_built,
        wells_supply,
        n_plays,
        n as seat_plays,
        n / sum(n) over (partition by setup_id, policy_spec) as seat_play_share,
        wins,
        wins / n as win_rate,
        wilson_lo(wins, n) as win_rate_lo, wilson_hi(wins, n) as win_rate_hi,
        1.0 / players as fair_share,
        placed_s / n as mean_placed,
        mean_lo_int(n, placed_s, placed_ss) as mean_placed_lo, mean_hi_int(n, placed_s, placed_ss) as mean_placed_hi,
        coins_s / n as mean_well_coins,
        mean_lo_int(n, coins_s, coins_ss) as mean_well_coins_lo, mean_hi_int(n, coins_s, coins_ss) as mean_well_coins_hi
    from sums
)

select * from final
