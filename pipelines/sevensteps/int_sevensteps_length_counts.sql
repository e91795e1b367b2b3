-- 7 Steps, per run: plays per length (rounds and turns) and completion, with the towers that collapsed.
-- Counts per value, so the length marts' means and quantiles do not grow with the plays.
with games as (
    select * from stg_sevensteps_games
),

final as (
    select
        run_id,
        rounds,
        turns,
        completed,
        count(*) as n_plays,
        sum(collapses)::bigint as collapses_sum,
        sum(collapses::bigint * collapses) as collapses_sq_sum
    from games
    group by run_id, rounds, turns, completed
)

select * from final
