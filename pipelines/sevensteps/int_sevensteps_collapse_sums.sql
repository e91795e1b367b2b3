-- 7 Steps, per run: its plays and the towers that collapsed in them (sum and sum of squares), for the mean
-- collapses per play of a set-up (mart_sevensteps_length).
with games as (
    select * from stg_sevensteps_games
),

final as (
    select
        run_id,
        count(*) as n_plays,
        sum(collapses)::bigint as collapses_sum,
        sum(collapses::bigint * collapses) as collapses_sq_sum
    from games
    group by run_id
)

select * from final
