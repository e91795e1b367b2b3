-- Catan: how often the holder of the longest-route card and of the largest-army card at the end wins,
-- per run, against the seats without the card. A card has at most one holder per play, so the plays
-- with a holder are the holders' seat-plays (no count of distinct plays).
with seats as (
    select * from stg_catan_seats
),

games as (
    select * from stg_catan_games
),

plays as (
    select run_id, count(*) as n_plays
    from games
    group by all
),

cards as (
    select run_id, 'longest_route' as card, longest_route_card as holds, winner from seats
    union all
    select run_id, 'largest_army' as card, largest_army_card as holds, winner from seats
),

sums as (
    select
        run_id,
        card,
        count(*) filter (where holds) as plays_with_holder,
        count(*) filter (where holds and winner) as holder_wins,
        count(*) filter (where not holds) as seat_plays_without,
        count(*) filter (where not holds and winner) as wins_without
    from cards
    group by all
),

final as (
    select
        'catan' as game,
        s.run_id,
        s.card,
        p.n_plays,
        s.plays_with_holder,
        s.plays_with_holder / p.n_plays as holder_share,
        s.holder_wins,
        s.holder_wins / nullif(s.plays_with_holder, 0) as holder_win_rate,
        wilson_lo(s.holder_wins, nullif(s.plays_with_holder, 0)) as holder_win_rate_lo,
        wilson_hi(s.holder_wins, nullif(s.plays_with_holder, 0)) as holder_win_rate_hi,
        s.seat_plays_without,
        s.wins_without,
        s.wins_without / nullif(s.seat_plays_without, 0) as without_win_rate,
        wilson_lo(s.wins_without, nullif(s.seat_plays_without, 0)) as without_win_rate_lo,
        wilson_hi(s.wins_without, nullif(s.seat_plays_without, 0)) as without_win_rate_hi
    from sums as s
    join plays as p using (run_id)
)

select * from final
