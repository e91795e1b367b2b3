-- Burgenland, how much the central castle is used: per play (all seats) the pieces built there, the share of plays
-- with any, and their share of all pieces the seats placed; per seat-play of each policy the pieces it built there,
-- the share of seats that used it, their share of the policy's pieces placed, and the win shares of the seats that
-- used it and of those that did not (a win split among its winners; one winner at most a play); by set-up, each
-- distinct play once (int_burgenland_setups). The play is the unit of every interval (its seats share its cards):
-- per-play figures from int_burgenland_setup_plays, per-seat ones clustered by play (int_burgenland_measure_stats).
with stats as (
    select * from int_burgenland_measure_stats
),

setup_plays as (
    select * from int_burgenland_setup_plays
),

central as (
    select * from stats where among = 'all' and measure = 'central_built'
),

users as (
    select * from stats where among = 'central_users' and measure = 'win_share'
),

non_users as (
    select * from stats where among = 'central_non_users' and measure = 'win_share'
),

shares as (
    -- The central castle's share of the pieces placed, per play (all seats: policy_spec null) and of a policy's
    -- seats: a ratio of per-play sums R = sum(x) / sum(y), its 95% interval by the delta method with the play as
    -- the unit: var(R) = sum((x - R y)^2) / (n (n - 1) mean(y)^2).
    select
        setup_id, policy_spec, n_plays, central_sum, central_sq_sum, plays_with_central,
        central_sum / nullif(placed_sum, 0) as ratio,
        1.96 * sqrt(greatest(0, (central_sq_sum - 2 * (central_sum / placed_sum) * central_placed_sum
                                 + (central_sum / placed_sum) ^ 2 * placed_sq_sum) / (n_plays * (n_plays - 1.0))))
            / nullif(placed_sum / n_plays, 0) as half
    from setup_plays
),

final as (
    select
        'burgenland' as game,
        c.setup_id, c.setup_label, c.players, c.start_hands, c.policy, c.policy_spec,
        c.n_runs, c.n_plays,
        p.central_sum / p.n_plays as central_per_play,
        mean_lo_int(p.n_plays, p.central_sum, p.central_sq_sum) as central_per_play_lo,
        mean_hi_int(p.n_plays, p.central_sum, p.central_sq_sum) as central_per_play_hi,
        p.plays_with_central / p.n_plays as play_share,
        wilson_lo(p.plays_with_central, p.n_plays) as play_share_lo,
        wilson_hi(p.plays_with_central, p.n_plays) as play_share_hi,
        p.ratio as placed_share,
        p.ratio - p.half as placed_share_lo, p.ratio + p.half as placed_share_hi,
        c.seat_plays,
        c.mean as mean_central, c.mean_lo as mean_central_lo, c.mean_hi as mean_central_hi,
        r.ratio as policy_placed_share,
        r.ratio - r.half as policy_placed_share_lo, r.ratio + r.half as policy_placed_share_hi,
        c.holder_share as user_share, c.holder_share_lo as user_share_lo, c.holder_share_hi as user_share_hi,
        c.holders as users,
        u.mean as user_win_share, u.share_lo as user_win_share_lo, u.share_hi as user_win_share_hi,
        c.seat_plays - c.holders as non_users,
        o.mean as non_user_win_share, o.share_lo as non_user_win_share_lo, o.share_hi as non_user_win_share_hi,
        1.0 / c.players as fair_share
    from central as c
    join shares as p on p.setup_id = c.setup_id and p.policy_spec is null
    join shares as r on r.setup_id = c.setup_id and r.policy_spec = c.policy_spec
    left join users as u on u.setup_id = c.setup_id and u.policy_spec = c.policy_spec
    left join non_users as o on o.setup_id = c.setup_id and o.policy_spec = c.policy_spec
)

select * from final
