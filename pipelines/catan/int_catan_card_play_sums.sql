-- Catan, per part of a run and card (longest route, largest army): per play, the win share of the card's holder at
-- the end and the mean win share of the seats without it, summed over the part's plays with their squares. A win
-- share is 1 / winners for a winner (Catan has one winner, or none on the turn limit), else 0. The play is the
-- unit: the holder and the seats without the card share a play, so the seats without it count as one observation
-- a play (their mean), as a policy's seats do (docs/statistics.md).
with seats as (
    select * from stg_catan_seats
),

cards as (
    select run_id, play_index, 'longest_route' as card, longest_route_card as holds, winner from seats
    union all
    select run_id, play_index, 'largest_army' as card, largest_army_card as holds, winner from seats
),

per_play as (
    select
        run_id,
        card,
        count(*) as seats,
        count(*) filter (where holds) as holders,
        count(*) filter (where winner) as winners,
        count(*) filter (where holds and winner) as holder_won
    from cards
    group by run_id, play_index, card
),

shares as (
    select
        run_id,
        card,
        holders,
        holder_won,
        case when holder_won > 0 then 1.0 / winners else 0.0 end as holder_share,
        -- the seats without the card: what the play's winners won that the holder did not, shared among them
        (case when winners > 0 then 1.0 else 0.0 end - case when holder_won > 0 then 1.0 / winners else 0.0 end)
            / (seats - holders) as without_share
    from per_play
),

final as (
    select
        run_id,
        card,
        count(*) as n_plays,
        count(*) filter (where holders > 0) as plays_with_holder,
        sum(holder_won)::bigint as holder_wins,
        sum(holder_share) filter (where holders > 0) as holder_share_sum,
        sum(holder_share * holder_share) filter (where holders > 0) as holder_share_sq_sum,
        sum(without_share) as without_share_sum,
        sum(without_share * without_share) as without_share_sq_sum
    from shares
    group by all
)

select * from final
