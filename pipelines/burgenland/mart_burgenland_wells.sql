-- Burgenland, what wells are worth: wells built per play (all seats), and per seat-play of each policy the
-- wells built, the share of seats building one, the reward coins their wells paid (the k-th well built in a
-- play pays the k-th of 5, 4, 3, 3, 2, 2, 1, 1) and the coins per well (a ratio of sums, its interval by the
-- delta method), by set-up (players, starting hands, line-up, other options), runs of the same set-up pooled.
-- mart_burgenland_win_by_wells has the win rate by the number of wells a seat built.
with counts as (
    select * from int_burgenland_well_counts
),

play_sums as (
    select * from int_burgenland_play_sums
),

runs as (
    select * from int_burgenland_runs
),

per_play as (
    select
        r.players, r.start_hands, r.lineup_spec, r.other_options,
        sum(p.n_plays)::bigint as n_plays,
        sum(p.wells_sum)::bigint as wells_s,
        sum(p.wells_sq_sum)::hugeint as wells_ss
    from play_sums as p
    join runs as r using (run_id)
    group by all
),

sums as (
    select
        r.players, r.start_hands, r.lineup, r.lineup_spec, r.other_options, c.policy_spec,
        any_value(c.policy) as policy,
        count(distinct c.run_id) as n_runs,
        sum(c.n_seat_plays)::bigint as n,
        sum(c.wells_built::bigint * c.n_seat_plays)::bigint as wells_s,
        sum(c.wells_built::hugeint * c.wells_built * c.n_seat_plays) as wells_ss,
        coalesce(sum(c.n_seat_plays) filter (where c.wells_built > 0), 0)::bigint as builders,
        sum(c.well_coins_sum)::bigint as coins_s,
        sum(c.well_coins_sq_sum)::hugeint as coins_ss,
        sum(c.wells_built::hugeint * c.well_coins_sum) as coins_wells_s
    from counts as c
    join runs as r using (run_id)
    group by all
),

final as (
    select
        'burgenland' as game,
        s.players,
        s.start_hands,
        s.lineup,
        s.lineup_spec,
        s.other_options,
        s.policy,
        s.policy_spec,
        s.n_runs,
        p.n_plays,
        p.wells_s / p.n_plays as wells_per_play,
        mean_lo_int(p.n_plays, p.wells_s, p.wells_ss) as wells_per_play_lo,
        mean_hi_int(p.n_plays, p.wells_s, p.wells_ss) as wells_per_play_hi,
        s.n as seat_plays,
        s.wells_s / s.n as mean_wells,
        mean_lo_int(s.n, s.wells_s, s.wells_ss) as mean_wells_lo,
        mean_hi_int(s.n, s.wells_s, s.wells_ss) as mean_wells_hi,
        s.builders / s.n as builder_share,
        wilson_lo(s.builders, s.n) as builder_share_lo,
        wilson_hi(s.builders, s.n) as builder_share_hi,
        s.coins_s / s.n as mean_well_coins,
        mean_lo_int(s.n, s.coins_s, s.coins_ss) as mean_well_coins_lo,
        mean_hi_int(s.n, s.coins_s, s.coins_ss) as mean_well_coins_hi,
        s.coins_s / nullif(s.wells_s, 0) as coins_per_well,
        -- delta method for a ratio of sums R = sum(x) / sum(y): var(R) = sum((x - R y)^2) / (n (n - 1) mean(y)^2)
        s.coins_s / nullif(s.wells_s, 0) - 1.96 * sqrt(greatest(0,
            (s.coins_ss - 2 * (s.coins_s / s.wells_s) * s.coins_wells_s + (s.coins_s / s.wells_s) ^ 2 * s.wells_ss)
            / (s.n * (s.n - 1.0)))) / nullif(s.wells_s / s.n, 0) as coins_per_well_lo,
        s.coins_s / nullif(s.wells_s, 0) + 1.96 * sqrt(greatest(0,
            (s.coins_ss - 2 * (s.coins_s / s.wells_s) * s.coins_wells_s + (s.coins_s / s.wells_s) ^ 2 * s.wells_ss)
            / (s.n * (s.n - 1.0)))) / nullif(s.wells_s / s.n, 0) as coins_per_well_hi
    from sums as s
    join per_play as p using (players, start_hands, lineup_spec, other_options)
)

select * from final
