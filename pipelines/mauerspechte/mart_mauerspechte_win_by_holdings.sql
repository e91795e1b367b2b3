-- Die Mauerspechte: do hotels and wall pieces win games? The win rate of seats by the number of hotels they
-- owned, and by the number of wall pieces they bought, per run and policy, with 95% Wilson intervals and
-- the mean points. From the per-part counts of int_mauerspechte_seat_holdings.
with holdings as (
    select * from int_mauerspechte_seat_holdings
),

plays as (
    select * from int_mauerspechte_plays
),

owned as (
    select run_id, 'hotels' as item, policy_spec, policy, hotels as owned, winner, n_seat_plays, points_sum,
           points_sq_sum
    from holdings
    union all
    select run_id, 'wall_pieces' as item, policy_spec, policy, wall_pieces as owned, winner, n_seat_plays,
           points_sum, points_sq_sum
    from holdings
),

sums as (
    select
        run_id,
        item,
        policy_spec,
        any_value(policy) as policy,
        owned,
        sum(n_seat_plays)::bigint as seat_plays,
        sum(n_seat_plays) filter (where winner)::bigint as wins,
        sum(points_sum)::bigint as points_sum,
        sum(points_sq_sum)::bigint as points_sq_sum
    from owned
    group by run_id, item, policy_spec, owned
),

final as (
    select
        'mauerspechte' as game,
        s.run_id,
        s.item,
        s.policy,
        s.policy_spec,
        s.owned,
        p.n_plays,
        s.seat_plays,
        s.seat_plays / sum(s.seat_plays) over (partition by s.run_id, s.item, s.policy_spec) as seat_play_share,
        coalesce(s.wins, 0) as wins,
        coalesce(s.wins, 0) / s.seat_plays as win_rate,
        wilson_lo(coalesce(s.wins, 0), s.seat_plays) as win_rate_lo,
        wilson_hi(coalesce(s.wins, 0), s.seat_plays) as win_rate_hi,
        1.0 / p.players as fair_share,
        s.points_sum / s.seat_plays as mean_points,
        mean_lo_int(s.seat_plays, s.points_sum, s.points_sq_sum) as mean_points_lo,
        mean_hi_int(s.seat_plays, s.points_sum, s.points_sq_sum) as mean_points_hi
    from sums as s
    join plays as p using (run_id)
)

select * from final
