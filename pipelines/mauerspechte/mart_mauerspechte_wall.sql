-- Die Mauerspechte: the wall per run. How often and when it opens (the first lower piece: mean turn with a
-- 95% interval, quartiles off the counts per turn, and as a share of the play's length), how many of its 12
-- pieces are bought, and how the holder of Bester Mauerspecht (most pieces, alone) fares against the seats
-- without the card: their win shares (a win split among its winners), the seats without it with an interval
-- clustered by play (int_mauerspechte_group_stats: several of a play's seats lack the card).
with open_counts as (
    select * from int_mauerspechte_wall_open_counts
),

games as (
    select * from stg_mauerspechte_games
),

stats as (
    select * from int_mauerspechte_group_stats
),

pieces as (
    select
        run_id,
        count(*) as n_plays,
        sum(wall_pieces)::bigint as pieces_sum,
        sum(wall_pieces::bigint * wall_pieces) as pieces_sq_sum,
        count(*) filter (where wall_pieces = 12) as n_all_pieces
    from games
    group by all
),

opened as (
    select
        run_id,
        sum(n_plays_opened)::bigint as n_opened,
        sum(opened_turn::bigint * n_plays_opened) as turn_sum,
        sum(opened_turn::hugeint * opened_turn * n_plays_opened) as turn_sq_sum,
        sum(opened_fraction_sum) as fraction_sum,
        sum(opened_fraction_sq_sum) as fraction_sq_sum
    from open_counts
    where opened_turn is not null
    group by all
),

quartiles as (
    select
        run_id,
        min(opened_turn) filter (where up_to >= total * 0.25) as p25_opened_turn,
        min(opened_turn) filter (where up_to >= total * 0.5) as median_opened_turn,
        min(opened_turn) filter (where up_to >= total * 0.75) as p75_opened_turn
    from (
        select
            *,
            sum(n_plays_opened) over (partition by run_id order by opened_turn) as up_to,
            sum(n_plays_opened) over (partition by run_id) as total
        from open_counts
        where opened_turn is not null
    )
    group by all
),

holders as (
    select
        run_id,
        any_value(seat_plays) filter (where among = 'mauerspecht') as holder_plays,
        any_value(mean) filter (where among = 'mauerspecht') as holder_win_share,
        any_value(share_lo) filter (where among = 'mauerspecht') as holder_win_share_lo,
        any_value(share_hi) filter (where among = 'mauerspecht') as holder_win_share_hi,
        any_value(mean) filter (where among = 'no_mauerspecht') as without_win_share,
        any_value(share_lo) filter (where among = 'no_mauerspecht') as without_win_share_lo,
        any_value(share_hi) filter (where among = 'no_mauerspecht') as without_win_share_hi
    from stats
    where among in ('mauerspecht', 'no_mauerspecht') and measure = 'win_share'
    group by run_id
),

final as (
    select
        'mauerspechte' as game,
        p.run_id,
        p.n_plays,
        coalesce(o.n_opened, 0) as opened_plays,
        coalesce(o.n_opened, 0) / p.n_plays as opened_share,
        wilson_lo(coalesce(o.n_opened, 0), p.n_plays) as opened_share_lo,
        wilson_hi(coalesce(o.n_opened, 0), p.n_plays) as opened_share_hi,
        o.turn_sum / o.n_opened as mean_opened_turn,
        mean_lo_int(o.n_opened, o.turn_sum, o.turn_sq_sum) as mean_opened_turn_lo,
        mean_hi_int(o.n_opened, o.turn_sum, o.turn_sq_sum) as mean_opened_turn_hi,
        q.p25_opened_turn,
        q.median_opened_turn,
        q.p75_opened_turn,
        o.fraction_sum / o.n_opened as mean_opened_fraction,
        o.fraction_sum / o.n_opened
            - mean_ci_half(sd_from_sums(o.n_opened, o.fraction_sum, o.fraction_sq_sum), o.n_opened)
            as mean_opened_fraction_lo,
        o.fraction_sum / o.n_opened
            + mean_ci_half(sd_from_sums(o.n_opened, o.fraction_sum, o.fraction_sq_sum), o.n_opened)
            as mean_opened_fraction_hi,
        p.pieces_sum / p.n_plays as mean_pieces,
        mean_lo_int(p.n_plays, p.pieces_sum, p.pieces_sq_sum) as mean_pieces_lo,
        mean_hi_int(p.n_plays, p.pieces_sum, p.pieces_sq_sum) as mean_pieces_hi,
        p.n_all_pieces / p.n_plays as all_pieces_share,
        coalesce(h.holder_plays, 0) as holder_plays,
        coalesce(h.holder_plays, 0) / p.n_plays as holder_share,
        h.holder_win_share,
        h.holder_win_share_lo,
        h.holder_win_share_hi,
        h.without_win_share,
        h.without_win_share_lo,
        h.without_win_share_hi
    from pieces as p
    left join opened as o using (run_id)
    left join quartiles as q using (run_id)
    left join holders as h using (run_id)
)

select * from final
