-- Die Mauerspechte: who buys hotels and wall pieces, and do buyers win? Per run, item (hotel or wall
-- piece), policy and seat, and per run, item and policy over all its seats (seat null): the share of
-- seat-plays that bought at least one, the mean bought with a 95% interval, the seat's or policy's share of
-- all bought, and the win rate of buyers against non-buyers (95% Wilson intervals). From the per-part
-- counts of int_mauerspechte_seat_holdings.
with holdings as (
    select * from int_mauerspechte_seat_holdings
),

plays as (
    select * from int_mauerspechte_plays
),

owned as (
    select run_id, 'hotel' as item, seat, policy_spec, policy, hotels as owned, null::int as lower_owned, winner,
           n_seat_plays
    from holdings
    union all
    select run_id, 'wall_piece' as item, seat, policy_spec, policy, wall_pieces as owned, lower_pieces as lower_owned,
           winner, n_seat_plays
    from holdings
),

sums as (
    select
        run_id,
        item,
        policy_spec,
        seat,
        any_value(policy) as policy,
        sum(n_seat_plays)::bigint as seat_plays,
        coalesce(sum(n_seat_plays) filter (where owned > 0), 0)::bigint as buyers,
        coalesce(sum(n_seat_plays) filter (where owned > 0 and winner), 0)::bigint as buyer_wins,
        coalesce(sum(n_seat_plays) filter (where owned = 0 and winner), 0)::bigint as non_buyer_wins,
        sum(owned::bigint * n_seat_plays)::bigint as owned_sum,
        sum(owned::bigint * owned * n_seat_plays)::bigint as owned_sq_sum,
        sum(lower_owned::bigint * n_seat_plays)::bigint as lower_sum
    from owned
    group by grouping sets ((run_id, item, policy_spec, seat), (run_id, item, policy_spec))
),

totals as (
    select run_id, item, sum(owned_sum) as run_owned
    from sums
    where seat is not null
    group by all
),

final as (
    select
        'mauerspechte' as game,
        s.run_id,
        s.item,
        s.policy,
        s.policy_spec,
        s.seat,
        p.n_plays,
        s.seat_plays,
        s.buyers,
        s.buyers / s.seat_plays as buyer_share,
        s.owned_sum / s.seat_plays as mean_owned,
        mean_lo_int(s.seat_plays, s.owned_sum, s.owned_sq_sum) as mean_owned_lo,
        mean_hi_int(s.seat_plays, s.owned_sum, s.owned_sq_sum) as mean_owned_hi,
        s.lower_sum / s.seat_plays as mean_lower,
        s.owned_sum / nullif(t.run_owned, 0) as item_share,
        s.buyer_wins,
        s.buyer_wins / nullif(s.buyers, 0) as buyer_win_rate,
        wilson_lo(s.buyer_wins, nullif(s.buyers, 0)) as buyer_win_rate_lo,
        wilson_hi(s.buyer_wins, nullif(s.buyers, 0)) as buyer_win_rate_hi,
        s.non_buyer_wins / nullif(s.seat_plays - s.buyers, 0) as non_buyer_win_rate,
        wilson_lo(s.non_buyer_wins, nullif(s.seat_plays - s.buyers, 0)) as non_buyer_win_rate_lo,
        wilson_hi(s.non_buyer_wins, nullif(s.seat_plays - s.buyers, 0)) as non_buyer_win_rate_hi,
        1.0 / p.players as fair_share
    from sums as s
    join plays as p using (run_id)
    join totals as t using (run_id, item)
)

select * from final
