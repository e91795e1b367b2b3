-- Die Mauerspechte: who buys hotels and wall pieces, and do buyers win? Per run, item (hotel or wall piece), policy
-- and seat, and per run, item and policy over all its seats (seat null): the share of seat-plays that bought at
-- least one, the mean bought, the seat's or policy's share of all bought, and the win share (a win split among its
-- winners, the estimand every comparison with the fair share uses) of buyers and of non-buyers. The intervals are
-- 95%, clustered by play (int_mauerspechte_group_stats: a play's seats share its dice); a win share's is Wilson's at
-- its effective size. Observational: a seat that is doing well can afford hotels.
with stats as (
    select * from int_mauerspechte_group_stats
),

items as (
    select * from (values
        ('hotel', 'hotels', 'hotel_buyers', 'hotel_non_buyers'),
        ('wall_piece', 'wall_pieces', 'wall_buyers', 'wall_non_buyers')) as i(item, measure, buyers, non_buyers)
),

owned as (
    select i.item, i.buyers, i.non_buyers, s.*
    from stats as s
    join items as i using (measure)
    where s.among = 'all' and s.policy_spec is not null
),

totals as (
    select run_id, item, sum(total) as run_owned
    from owned
    where seat is not null
    group by all
),

final as (
    select
        'mauerspechte' as game,
        o.run_id,
        o.item,
        o.policy,
        o.policy_spec,
        o.seat,
        o.n_plays,
        o.seat_plays,
        o.holders as buyers,
        o.holder_share as buyer_share,
        o.mean as mean_owned,
        o.mean_lo as mean_owned_lo,
        o.mean_hi as mean_owned_hi,
        w.mean as mean_lower,
        o.total / nullif(t.run_owned, 0) as item_share,
        coalesce(b.holders, 0) as buyer_wins,
        b.mean as buyer_win_share,
        b.share_lo as buyer_win_share_lo,
        b.share_hi as buyer_win_share_hi,
        n.mean as non_buyer_win_share,
        n.share_lo as non_buyer_win_share_lo,
        n.share_hi as non_buyer_win_share_hi,
        1.0 / o.players as fair_share
    from owned as o
    join totals as t on t.run_id = o.run_id and t.item = o.item
    left join stats as w
        on o.item = 'wall_piece' and w.run_id = o.run_id and w.policy_spec = o.policy_spec
        and w.seat is not distinct from o.seat and w.among = 'all' and w.measure = 'lower_pieces'
    left join stats as b
        on b.run_id = o.run_id and b.policy_spec = o.policy_spec and b.seat is not distinct from o.seat
        and b.among = o.buyers and b.measure = 'win_share'
    left join stats as n
        on n.run_id = o.run_id and n.policy_spec = o.policy_spec and n.seat is not distinct from o.seat
        and n.among = o.non_buyers and n.measure = 'win_share'
)

select * from final
