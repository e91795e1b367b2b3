-- Catan: does the holder of the longest-route card (of the largest-army card) at the end win? Per run, the
-- holder's win share over the plays with a holder against a seat's fair share, 1 / players, and the mean win share
-- of the seats without the card, a play the unit (int_catan_card_play_sums). Intervals are Wilson's at the
-- effective number of plays, the p-value the score test against the fair share (docs/statistics.md).
with card_sums as (
    select * from int_catan_card_play_sums
),

games as (
    select * from stg_catan_games
),

plays as (
    select run_id, any_value(players) as players
    from games
    group by all
),

sums as (
    select
        run_id,
        card,
        sum(n_plays)::bigint as n_plays,
        sum(plays_with_holder)::bigint as plays_with_holder,
        sum(holder_wins)::bigint as holder_wins,
        coalesce(sum(holder_share_sum), 0) as holder_share_sum,
        coalesce(sum(holder_share_sq_sum), 0) as holder_share_sq_sum,
        sum(without_share_sum) as without_share_sum,
        sum(without_share_sq_sum) as without_share_sq_sum
    from card_sums
    group by all
),

final as (
    select
        'catan' as game,
        s.run_id,
        s.card,
        s.n_plays,
        s.plays_with_holder,
        s.plays_with_holder / s.n_plays as held_share,
        s.holder_wins,
        1.0 / p.players as fair_share,
        -- no holder, no share: the macros would make [0, 1] of nothing (greatest and least skip nulls)
        s.holder_share_sum / nullif(s.plays_with_holder, 0) as holder_win_share,
        case when s.plays_with_holder > 0 then share_lo(s.plays_with_holder, s.holder_share_sum,
                                                        s.holder_share_sq_sum) end as holder_win_share_lo,
        case when s.plays_with_holder > 0 then share_hi(s.plays_with_holder, s.holder_share_sum,
                                                        s.holder_share_sq_sum) end as holder_win_share_hi,
        case when s.plays_with_holder > 0 then share_effective_n(s.plays_with_holder, s.holder_share_sum,
                                                                 s.holder_share_sq_sum) end as holder_effective_plays,
        case when s.plays_with_holder > 0 then share_p(s.plays_with_holder, s.holder_share_sum, s.holder_share_sq_sum,
                                                       1.0 / p.players) end as holder_p_value,
        s.without_share_sum / s.n_plays as without_win_share,
        share_lo(s.n_plays, s.without_share_sum, s.without_share_sq_sum) as without_win_share_lo,
        share_hi(s.n_plays, s.without_share_sum, s.without_share_sq_sum) as without_win_share_hi
    from sums as s
    join plays as p using (run_id)
)

select * from final
