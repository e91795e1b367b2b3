-- Burgenland, what wells are worth: wells built per play (all seats), and per seat-play of each policy the wells
-- built, the share of seats building one, the reward coins their wells paid (the k-th well built in a play pays
-- the k-th of 5, 4, 3, 3, 2, 2, 1, 1) and the coins per well, by set-up, each distinct play once
-- (int_burgenland_setups). The play is the unit of every interval (its seats share its cards): the per-seat
-- figures come clustered by play from int_burgenland_measure_stats, the coins per well is a ratio of the policy's
-- per-play sums (int_burgenland_setup_plays). mart_burgenland_win_by_wells has the win share by the number of
-- wells a seat built.
with stats as (
    select * from int_burgenland_measure_stats
),

setup_plays as (
    select * from int_burgenland_setup_plays
),

wells as (
    select * from stats where among = 'all' and measure = 'wells_built'
),

coins as (
    select * from stats where among = 'all' and measure = 'well_coins'
),

every_seat as (
    select * from setup_plays where policy_spec is null
),

coins_per_well as (
    -- A ratio of the policy's per-play sums R = sum(coins) / sum(wells), its 95% interval by the delta method with
    -- the play as the unit: var(R) = sum((coins - R wells)^2) / (n (n - 1) mean(wells)^2).
    select
        setup_id, policy_spec,
        coins_sum / nullif(wells_sum, 0) as ratio,
        1.96 * sqrt(greatest(0, (coins_sq_sum - 2 * (coins_sum / wells_sum) * wells_coins_sum
                                 + (coins_sum / wells_sum) ^ 2 * wells_sq_sum) / (n_plays * (n_plays - 1.0))))
            / nullif(wells_sum / n_plays, 0) as half
    from setup_plays
    where policy_spec is not null
),

final as (
    select
        'burgenland' as game,
        w.setup_id, w.setup_label, w.players, w.start_hands, w.policy, w.policy_spec,
        w.n_runs, w.n_plays,
        p.wells_sum / p.n_plays as wells_per_play,
        mean_lo_int(p.n_plays, p.wells_sum, p.wells_sq_sum) as wells_per_play_lo,
        mean_hi_int(p.n_plays, p.wells_sum, p.wells_sq_sum) as wells_per_play_hi,
        w.seat_plays,
        w.mean as mean_wells, w.mean_lo as mean_wells_lo, w.mean_hi as mean_wells_hi,
        w.holder_share as builder_share, w.holder_share_lo as builder_share_lo, w.holder_share_hi as builder_share_hi,
        c.mean as mean_well_coins, c.mean_lo as mean_well_coins_lo, c.mean_hi as mean_well_coins_hi,
        r.ratio as coins_per_well,
        r.ratio - r.half as coins_per_well_lo, r.ratio + r.half as coins_per_well_hi
    from wells as w
    join coins as c on c.setup_id = w.setup_id and c.policy_spec = w.policy_spec
    join every_seat as p on p.setup_id = w.setup_id
    join coins_per_well as r on r.setup_id = w.setup_id and r.policy_spec = w.policy_spec
)

select * from final
