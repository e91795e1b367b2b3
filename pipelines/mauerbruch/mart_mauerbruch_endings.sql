-- Mauerbruch: how games end, per run: how often the wall is blocked, what breaking it is worth,
-- and whether the breaker wins (with its Wilson interval: what decides a play). The breaker is the one
-- seat of a play with bonus cards, so the breaker figures are sums over seats, joined to the play figures
-- per run (no join per play).
with games as (
    select * from stg_mauerbruch_games
),

seats as (
    select * from stg_mauerbruch_seats
),

breakers as (
    select
        run_id,
        count(*) as n_breakers,
        count(*) filter (where winner) as breakers_won,
        count(*) filter (where seat = 0) as seat0_breaks
    from seats
    where bonus_cards > 0
    group by all
),

plays as (
    select
        run_id,
        any_value(players) as players,
        any_value(deck_name) as deck_name,
        any_value(deck_id) as deck_id,
        count(*) as n_plays,
        count(*) filter (where end_reason = 'blocked') as blocked_plays,
        avg(bonus_cards) filter (where end_reason = 'broken') as mean_bonus,
        stddev_samp(bonus_cards) filter (where end_reason = 'broken') as sd_bonus,
        count(*) filter (where end_reason = 'broken') as broken_plays,
        max(bonus_cards) as max_bonus,
        avg(cards_left) as mean_cards_left,
        avg(opening_pairs) as mean_opening_pairs,
        avg(turns) as mean_turns
    from games
    group by run_id
),

final as (
    select
        'mauerbruch' as game,
        p.run_id,
        p.players,
        p.deck_name,
        p.deck_id,
        p.n_plays,
        p.blocked_plays,
        p.blocked_plays / p.n_plays as blocked_rate,
        wilson_lo(p.blocked_plays, p.n_plays) as blocked_rate_lo,
        wilson_hi(p.blocked_plays, p.n_plays) as blocked_rate_hi,
        p.mean_bonus,
        p.mean_bonus - mean_ci_half(p.sd_bonus, p.broken_plays) as mean_bonus_lo,
        p.mean_bonus + mean_ci_half(p.sd_bonus, p.broken_plays) as mean_bonus_hi,
        p.max_bonus,
        b.breakers_won / nullif(b.n_breakers, 0) as breaker_win_rate,
        -- the macros would make [0, 1] of no breaker at all (greatest and least skip nulls)
        case when b.n_breakers > 0 then wilson_lo(b.breakers_won, b.n_breakers) end as breaker_win_rate_lo,
        case when b.n_breakers > 0 then wilson_hi(b.breakers_won, b.n_breakers) end as breaker_win_rate_hi,
        b.seat0_breaks / nullif(b.n_breakers, 0) as seat0_breaks_rate,
        p.mean_cards_left,
        p.mean_opening_pairs,
        p.mean_turns
    from plays as p
    left join breakers as b using (run_id)
)

select * from final
