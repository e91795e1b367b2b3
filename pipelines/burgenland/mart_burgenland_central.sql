-- Burgenland, how much the central castle is used: per play (all seats) the pieces built there, the share of
-- plays with any, and their share of all pieces the seats placed; per seat-play of each policy the pieces it
-- built there, the share of seats that used it, their share of the policy's pieces placed, and the win rates
-- of the seats that used it and of those that did not; by set-up, each distinct play once
-- (int_burgenland_setups, int_burgenland_setup_plays). Each figure is followed by its 95% interval.
with counts as (
    select * from int_burgenland_seat_counts
),

setup_plays as (
    select * from int_burgenland_setup_plays
),

setup_runs as (
    select * from int_burgenland_setups
),

per_play as (
    -- x: pieces in the central castle, y: pieces placed, per play
    select
        setup_id, n_plays as n, plays_with_central as with_central,
        central_sum as x_s, central_sq_sum as x_ss, placed_sum as y_s, placed_sq_sum as y_ss, central_placed_sum as xy_s
    from setup_plays
),

per_seat as (
    -- the same per seat-play of a policy, with the win counts of the seats that used the castle and did not
    select
        u.setup_id, u.setup_label, u.players, u.start_hands, u.n_runs, u.n_plays, c.policy_spec,
        any_value(c.policy) as policy,
        sum(c.n_seat_plays)::bigint as n,
        sum(c.central_built::bigint * c.n_seat_plays) as x_s,
        sum(c.central_built::hugeint * c.central_built * c.n_seat_plays) as x_ss,
        sum(c.placed_sum) as y_s, sum(c.placed_sq_sum)::hugeint as y_ss,
        sum(c.central_built::hugeint * c.placed_sum) as xy_s,
        coalesce(sum(c.n_seat_plays) filter (where c.central_built > 0), 0)::bigint as users,
        coalesce(sum(c.n_seat_plays) filter (where c.central_built > 0 and c.winner), 0)::bigint as user_wins,
        coalesce(sum(c.n_seat_plays) filter (where c.central_built = 0), 0)::bigint as non_users,
        coalesce(sum(c.n_seat_plays) filter (where c.central_built = 0 and c.winner), 0)::bigint as non_user_wins
    from setup_runs as u
    join counts as c using (run_id)
    group by all
),

shares as (
    -- The central castle's share of the pieces placed, per play and per seat-play of a policy: a ratio of sums
    -- R = sum(x) / sum(y), its 95% interval by the delta method: var(R) = sum((x - R y)^2) / (n (n - 1) mean(y)^2).
    select
        unit, setup_id, policy_spec,
        x_s / nullif(y_s, 0) as ratio,
        1.96 * sqrt(greatest(0, (x_ss - 2 * (x_s / y_s) * xy_s + (x_s / y_s) ^ 2 * y_ss) / (n * (n - 1.0))))
            / nullif(y_s / n, 0) as half
    from (
        select 'play' as unit, setup_id, null as policy_spec, n, x_s, x_ss, y_s, y_ss, xy_s from per_play
        union all
        select 'seat' as unit, setup_id, policy_spec, n, x_s, x_ss, y_s, y_ss, xy_s from per_seat
    )
),

final as (
    select
        'burgenland' as game,
        s.setup_id, s.setup_label, s.players, s.start_hands, s.policy, s.policy_spec,
        s.n_runs, s.n_plays,
        p.x_s / p.n as central_per_play,
        mean_lo_int(p.n, p.x_s, p.x_ss) as central_per_play_lo, mean_hi_int(p.n, p.x_s, p.x_ss) as central_per_play_hi,
        p.with_central / p.n as play_share,
        wilson_lo(p.with_central, p.n) as play_share_lo, wilson_hi(p.with_central, p.n) as play_share_hi,
        pr.ratio as placed_share,
        pr.ratio - pr.half as placed_share_lo, pr.ratio + pr.half as placed_share_hi,
        s.n as seat_plays,
        s.x_s / s.n as mean_central,
        mean_lo_int(s.n, s.x_s, s.x_ss) as mean_central_lo, mean_hi_int(s.n, s.x_s, s.x_ss) as mean_central_hi,
        sr.ratio as policy_placed_share,
        sr.ratio - sr.half as policy_placed_share_lo, sr.ratio + sr.half as policy_placed_share_hi,
        s.users / s.n as user_share,
        wilson_lo(s.users, s.n) as user_share_lo, wilson_hi(s.users, s.n) as user_share_hi,
        s.users,
        s.user_wins / nullif(s.users, 0) as user_win_rate,
        case when s.users > 0 then wilson_lo(s.user_wins, s.users) end as user_win_rate_lo,
        case when s.users > 0 then wilson_hi(s.user_wins, s.users) end as user_win_rate_hi,
        s.non_users,
        s.non_user_wins / nullif(s.non_users, 0) as non_user_win_rate,
        case when s.non_users > 0 then wilson_lo(s.non_user_wins, s.non_users) end as non_user_win_rate_lo,
        case when s.non_users > 0 then wilson_hi(s.non_user_wins, s.non_users) end as non_user_win_rate_hi
    from per_seat as s
    join per_play as p using (setup_id)
    join shares as pr on pr.unit = 'play' and pr.setup_id = s.setup_id
    join shares as sr on sr.unit = 'seat' and sr.setup_id = s.setup_id and sr.policy_spec = s.policy_spec
)

select * from final
