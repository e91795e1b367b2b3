-- Burgenland, what wells are worth: wells built per play (all seats), and per seat-play of each policy the
-- wells built, the share of seats building one, the reward coins their wells paid (the k-th well built in a
-- play pays the k-th of 5, 4, 3, 3, 2, 2, 1, 1) and the coins per well, by set-up, each distinct play once
-- (int_burgenland_setups, int_burgenland_setup_plays). mart_burgenland_win_by_wells has the win rate by the
-- number of wells a seat built. Each figure is followed by its 95% interval on the next line.
with counts as (
    select * from int_burgenland_seat_counts
),

setup_plays as (
    select * from int_burgenland_setup_plays
),

setup_runs as (
    select * from int_burgenland_setups
),

sums as (
    select
        u.setup_id, u.setup_label, u.players, u.start_hands, u.n_runs, u.n_plays, c.policy_spec,
        any_value(c.policy) as policy,
        sum(c.n_seat_plays)::bigint as n,
        -- wells (w) and their coins (c) over seat-plays: sums, sums of squares, the sum of the products
        sum(c.wells_built::bigint * c.n_seat_plays) as w_s,
        sum(c.wells_built::hugeint * c.wells_built * c.n_seat_plays) as w_ss,
        sum(c.coins_sum) as c_s, sum(c.coins_sq_sum)::hugeint as c_ss,
        sum(c.wells_built::hugeint * c.coins_sum) as cw_s,
        coalesce(sum(c.n_seat_plays) filter (where c.wells_built > 0), 0)::bigint as builders
    from setup_runs as u
    join counts as c using (run_id)
    group by all
),

coins_per_well as (
    -- A ratio of sums R = sum(coins) / sum(wells) over seat-plays, its 95% interval by the delta method:
    -- var(R) = sum((coins - R wells)^2) / (n (n - 1) mean(wells)^2).
    select
        *,
        c_s / nullif(w_s, 0) as ratio,
        1.96 * sqrt(greatest(0, (c_ss - 2 * (c_s / w_s) * cw_s + (c_s / w_s) ^ 2 * w_ss) / (n * (n - 1.0))))
            / nullif(w_s / n, 0) as half
    from sums
),

final as (
    select
        'burgenland' as game,
        s.setup_id, s.setup_label, s.players, s.start_hands, s.policy, s.policy_spec,
        s.n_runs, s.n_plays,
        p.wells_sum / p.n_plays as wells_per_play,
        mean_lo_int(p.n_plays, p.wells_sum, p.wells_sq_sum) as wells_per_play_lo,
        mean_hi_int(p.n_plays, p.wells_sum, p.wells_sq_sum) as wells_per_play_hi,
        s.n as seat_plays,
        s.w_s / s.n as mean_wells,
        mean_lo_int(s.n, s.w_s, s.w_ss) as mean_wells_lo, mean_hi_int(s.n, s.w_s, s.w_ss) as mean_wells_hi,
        s.builders / s.n as builder_share,
        wilson_lo(s.builders, s.n) as builder_share_lo, wilson_hi(s.builders, s.n) as builder_share_hi,
        s.c_s / s.n as mean_well_coins,
        mean_lo_int(s.n, s.c_s, s.c_ss) as mean_well_coins_lo, mean_hi_int(s.n, s.c_s, s.c_ss) as mean_well_coins_hi,
        s.ratio as coins_per_well,
        s.ratio - s.half as coins_per_well_lo, s.ratio + s.half as coins_per_well_hi
    from coins_per_well as s
    join setup_plays as p using (setup_id)
)

select * from final
