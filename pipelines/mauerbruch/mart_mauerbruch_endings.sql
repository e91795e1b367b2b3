-- Mauerbruch: how games end, per run: how often the wall is blocked, what breaking it is worth,
-- and whether the breaker wins.
with games as (
    select * from stg_mauerbruch_games
),

seats as (
    select * from stg_mauerbruch_seats
),

breakers as (
    select run_id, play_index, seat as breaker_seat, winner as breaker_won
    from seats
    where bonus_cards > 0
),

joined as (
    select g.*, b.breaker_seat, b.breaker_won
    from games as g
    left join breakers as b using (run_id, play_index)
),

final as (
    select
        'mauerbruch' as game,
        run_id,
        any_value(players) as players,
        any_value(deck_name) as deck_name,
        any_value(deck_id) as deck_id,
        count(*) as n_plays,
        count(*) filter (where end_reason = 'blocked') as blocked_plays,
        count(*) filter (where end_reason = 'blocked') / count(*) as blocked_rate,
        wilson_lo(count(*) filter (where end_reason = 'blocked'), count(*)) as blocked_rate_lo,
        wilson_hi(count(*) filter (where end_reason = 'blocked'), count(*)) as blocked_rate_hi,
        avg(bonus_cards) filter (where end_reason = 'broken') as mean_bonus,
        avg(bonus_cards) filter (where end_reason = 'broken')
            - mean_ci_half(stddev_samp(bonus_cards) filter (where end_reason = 'broken'),
                           count(*) filter (where end_reason = 'broken')) as mean_bonus_lo,
        avg(bonus_cards) filter (where end_reason = 'broken')
            + mean_ci_half(stddev_samp(bonus_cards) filter (where end_reason = 'broken'),
                           count(*) filter (where end_reason = 'broken')) as mean_bonus_hi,
        max(bonus_cards) as max_bonus,
        count(*) filter (where breaker_won) / nullif(count(*) filter (where breaker_seat is not null), 0)
            as breaker_win_rate,
        avg((breaker_seat = 0)::int) filter (where breaker_seat is not null) as seat0_breaks_rate,
        avg(cards_left) as mean_cards_left,
        avg(opening_pairs) as mean_opening_pairs,
        avg(turns) as mean_turns
    from joined
    group by run_id
)

select * from final
