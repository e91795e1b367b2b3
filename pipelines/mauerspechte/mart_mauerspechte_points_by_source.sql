-- Die Mauerspechte: where the winners' points come from. Mean points per seat-play by source (the points_*
-- columns, which add up to the points) for the winners and for the other seats, per run, with 95% intervals
-- clustered by play (int_mauerspechte_group_stats: the other seats of a play share its dice) and each source's share
-- of the side's points.
with stats as (
    select * from int_mauerspechte_group_stats
),

sides as (
    select * from stats where among in ('winners', 'others')
),

final as (
    select
        'mauerspechte' as game,
        s.run_id,
        s.among as side,
        substr(s.measure, length('points_') + 1) as source,
        s.n_plays,
        s.seat_plays,
        s.mean as mean_points,
        s.mean_lo as mean_points_lo,
        s.mean_hi as mean_points_hi,
        s.total / nullif(t.total, 0) as points_share,
        t.mean as mean_total_points
    from sides as s
    join sides as t on t.run_id = s.run_id and t.among = s.among and t.measure = 'points'
    where s.measure like 'points_%'
)

select * from final
