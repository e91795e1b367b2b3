-- Burgenland, how much the central castle is used: per play (all seats) the pieces built there, the share of
-- plays with any, and their share of all pieces the seats placed; per seat-play of each policy the pieces it
-- built there, the share of seats that used it, their share of the policy's pieces placed, and the win rates
-- of the seats that used it and of those that did not; by set-up (players, starting hands, line-up, other
-- options), runs of the same set-up pooled. Shares of pieces are ratios of sums, their 95% intervals by the
-- delta method: var(R) = sum((x - R y)^2) / (n (n - 1) mean(y)^2).
with counts as (
    select * from int_burgenland_central_counts
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
        sum(p.n_plays)::bigint as n,
        sum(p.central_sum)::bigint as x_s,
        sum(p.central_sq_sum)::hugeint as x_ss,
        sum(p.placed_sum)::bigint as y_s,
        sum(p.placed_sq_sum)::hugeint as y_ss,
        sum(p.central_placed_sum)::hugeint as xy_s,
        sum(p.plays_with_central)::bigint as with_central
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
        sum(c.central_built::bigint * c.n_seat_plays)::bigint as x_s,
        sum(c.central_built::hugeint * c.central_built * c.n_seat_plays) as x_ss,
        sum(c.score_sum)::bigint as y_s,
        sum(c.score_sq_sum)::hugeint as y_ss,
        sum(c.central_built::hugeint * c.score_sum) as xy_s,
        coalesce(sum(c.n_seat_plays) filter (where c.central_built > 0), 0)::bigint as users,
        coalesce(sum(c.n_seat_plays) filter (where c.central_built > 0 and c.winner), 0)::bigint as user_wins,
        coalesce(sum(c.n_seat_plays) filter (where c.central_built = 0), 0)::bigint as non_users,
        coalesce(sum(c.n_seat_plays) filter (where c.central_built = 0 and c.winner), 0)::bigint as non_user_wins
    from counts as c
    join runs as r using (run_id)
    group by all
),

ratio_half as (
    select
        s.*,
        s.x_s / nullif(s.y_s, 0) as ratio,
        1.96 * sqrt(greatest(0, (s.x_ss - 2 * (s.x_s / s.y_s) * s.xy_s + (s.x_s / s.y_s) ^ 2 * s.y_ss)
            / (s.n * (s.n - 1.0)))) / nullif(s.y_s / s.n, 0) as ratio_half,
        p.n as n_plays,
        p.x_s as play_x_s,
        p.x_ss as play_x_ss,
        p.x_s / nullif(p.y_s, 0) as play_ratio,
        1.96 * sqrt(greatest(0, (p.x_ss - 2 * (p.x_s / p.y_s) * p.xy_s + (p.x_s / p.y_s) ^ 2 * p.y_ss)
            / (p.n * (p.n - 1.0)))) / nullif(p.y_s / p.n, 0) as play_ratio_half,
        p.with_central
    from sums as s
    join per_play as p using (players, start_hands, lineup_spec, other_options)
),

final as (
    select
        'burgenland' as game,
        players,
        start_hands,
        lineup,
        lineup_spec,
        other_options,
        policy,
        policy_spec,
        n_runs,
        n_plays,
        play_x_s / n_plays as central_per_play,
        mean_lo_int(n_plays, play_x_s, play_x_ss) as central_per_play_lo,
        mean_hi_int(n_plays, play_x_s, play_x_ss) as central_per_play_hi,
        with_central / n_plays as play_share,
        wilson_lo(with_central, n_plays) as play_share_lo,
        wilson_hi(with_central, n_plays) as play_share_hi,
        play_ratio as placed_share,
        play_ratio - play_ratio_half as placed_share_lo,
        play_ratio + play_ratio_half as placed_share_hi,
        n as seat_plays,
        x_s / n as mean_central,
        mean_lo_int(n, x_s, x_ss) as mean_central_lo,
        mean_hi_int(n, x_s, x_ss) as mean_central_hi,
        users / n as user_share,
        wilson_lo(users, n) as user_share_lo,
        wilson_hi(users, n) as user_share_hi,
        ratio as policy_placed_share,
        ratio - ratio_half as policy_placed_share_lo,
        ratio + ratio_half as policy_placed_share_hi,
        users,
        user_wins / nullif(users, 0) as user_win_rate,
        case when users > 0 then wilson_lo(user_wins, users) end as user_win_rate_lo,
        case when users > 0 then wilson_hi(user_wins, users) end as user_win_rate_hi,
        non_users,
        non_user_wins / nullif(non_users, 0) as non_user_win_rate,
        case when non_users > 0 then wilson_lo(non_user_wins, non_users) end as non_user_win_rate_lo,
        case when non_users > 0 then wilson_hi(non_user_wins, non_users) end as non_user_win_rate_hi
    from ratio_half
)

select * from final
