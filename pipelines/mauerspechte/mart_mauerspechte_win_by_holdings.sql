-- Die Mauerspechte: do hotels and wall pieces win games? The win share (a win split among its winners, the estimand
-- every comparison with the fair share uses) of seats by the number of hotels they owned, and by the number of wall
-- pieces they bought, per run and policy, with the mean points; 95% intervals clustered by play
-- (int_mauerspechte_group_stats: a play's seats may own as many), a win share's Wilson's at its effective size.
-- Observational: a seat that is doing well can afford hotels.
with stats as (
    select * from int_mauerspechte_group_stats
),

by_owned as (
    select
        run_id, n_plays, players, policy, policy_spec, among as item, level as owned,
        any_value(seat_plays) as seat_plays,
        any_value(holders) filter (where measure = 'win_share') as wins,
        any_value(mean) filter (where measure = 'win_share') as win_share,
        any_value(share_lo) filter (where measure = 'win_share') as win_share_lo,
        any_value(share_hi) filter (where measure = 'win_share') as win_share_hi,
        any_value(mean) filter (where measure = 'points') as mean_points,
        any_value(mean_lo) filter (where measure = 'points') as mean_points_lo,
        any_value(mean_hi) filter (where measure = 'points') as mean_points_hi
    from stats
    where among in ('hotels', 'wall_pieces')
    group by all
),

final as (
    select
        'mauerspechte' as game,
        run_id,
        item,
        policy,
        policy_spec,
        owned,
        n_plays,
        seat_plays,
        seat_plays / sum(seat_plays) over (partition by run_id, item, policy_spec) as seat_play_share,
        wins,
        win_share,
        win_share_lo,
        win_share_hi,
        1.0 / players as fair_share,
        mean_points,
        mean_points_lo,
        mean_points_hi
    from by_owned
)

select * from final
