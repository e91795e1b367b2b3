-- Mauerbruch: how games end, per run: how often the wall is blocked, what breaking it is worth, and the
-- breaker's win share (what decides a play) against a seat's fair share, 1 / players. The share splits a tied
-- win among its winners, as every fairness figure does (docs/statistics.md); its interval is Wilson's at the
-- effective number of plays, and its p the score test against the fair share. The breaker sums come per part
-- (int_mauerbruch_breaker_sums), the play figures from the plays, joined per run (no join per play here).
with games as (
    select * from stg_mauerbruch_games
),

breaker_sums as (
    select * from int_mauerbruch_breaker_sums
),

breakers as (
    select
        run_id,
        sum(n_breaks)::bigint as n_breaks,
        sum(share_sum) as share_sum,
        sum(share_sq_sum) as share_sq_sum,
        sum(seat0_breaks)::bigint as seat0_breaks
    from breaker_sums
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
        coalesce(b.n_breaks, 0) as n_breaks,
        1.0 / p.players as fair_share,
        -- no breaker, no share: the macros would make [0, 1] of nothing (greatest and least skip nulls)
        b.share_sum / nullif(b.n_breaks, 0) as breaker_win_share,
        case when b.n_breaks > 0 then share_lo(b.n_breaks, b.share_sum, b.share_sq_sum) end as breaker_win_share_lo,
        case when b.n_breaks > 0 then share_hi(b.n_breaks, b.share_sum, b.share_sq_sum) end as breaker_win_share_hi,
        case when b.n_breaks > 0 then share_effective_n(b.n_breaks, b.share_sum, b.share_sq_sum) end
            as breaker_effective_plays,
        case when b.n_breaks > 0 then share_p(b.n_breaks, b.share_sum, b.share_sq_sum, 1.0 / p.players) end
            as breaker_p_value,
        b.seat0_breaks / nullif(b.n_breaks, 0) as seat0_breaks_rate,
        p.mean_cards_left,
        p.mean_opening_pairs,
        p.mean_turns
    from plays as p
    left join breakers as b using (run_id)
)

select * from final
