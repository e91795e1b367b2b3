-- Die Mauerspechte: Love Parades per run. How many a play holds, what a chip costs (mean with a 95%
-- interval, median and the share sold for nothing), how many bid, the share of parades held on a missing
-- 2 or 12, and how often the player on turn, who opens the bidding, takes the chip. Prices are small
-- integers: the median is read off the counts per price (quantile_disc).
with parades as (
    select * from stg_mauerspechte_love_parades
),

games as (
    select * from stg_mauerspechte_games
),

plays as (
    select
        run_id,
        count(*) as n_plays,
        sum(love_parades)::bigint as parades_sum,
        sum(love_parades::bigint * love_parades) as parades_sq_sum,
        sum(tiergarten_left)::bigint as left_sum
    from games
    group by all
),

prices as (
    select run_id, price, count(*) as n
    from parades
    group by all
),

medians as (
    select run_id, min(price) filter (where up_to >= total * 0.5) as median_price, max(price) as max_price
    from (
        select
            *,
            sum(n) over (partition by run_id order by price) as up_to,
            sum(n) over (partition by run_id) as total
        from prices
    )
    group by all
),

sums as (
    select
        run_id,
        count(*) as n_parades,
        sum(price)::bigint as price_sum,
        sum(price::bigint * price) as price_sq_sum,
        count(*) filter (where price = 0) as n_free,
        count(*) filter (where missing_number) as n_missing,
        sum(bidders)::bigint as bidders_sum,
        count(*) filter (where opener_won) as n_opener_won
    from parades
    group by all
),

final as (
    select
        'mauerspechte' as game,
        p.run_id,
        p.n_plays,
        coalesce(s.n_parades, 0) as n_parades,
        p.parades_sum / p.n_plays as parades_per_play,
        mean_lo_int(p.n_plays, p.parades_sum, p.parades_sq_sum) as parades_per_play_lo,
        mean_hi_int(p.n_plays, p.parades_sum, p.parades_sq_sum) as parades_per_play_hi,
        s.price_sum / s.n_parades as mean_price,
        mean_lo_int(s.n_parades, s.price_sum, s.price_sq_sum) as mean_price_lo,
        mean_hi_int(s.n_parades, s.price_sum, s.price_sq_sum) as mean_price_hi,
        sd_from_int_sums(s.n_parades, s.price_sum, s.price_sq_sum) as sd_price,
        m.median_price,
        m.max_price,
        s.n_free / s.n_parades as free_share,
        s.n_missing / s.n_parades as missing_number_share,
        wilson_lo(s.n_missing, s.n_parades) as missing_number_share_lo,
        wilson_hi(s.n_missing, s.n_parades) as missing_number_share_hi,
        s.bidders_sum / s.n_parades as mean_bidders,
        s.n_opener_won / s.n_parades as opener_win_share,
        wilson_lo(s.n_opener_won, s.n_parades) as opener_win_share_lo,
        wilson_hi(s.n_opener_won, s.n_parades) as opener_win_share_hi,
        p.left_sum / p.n_plays as mean_tiergarten_left
    from plays as p
    left join sums as s using (run_id)
    left join medians as m using (run_id)
)

select * from final
