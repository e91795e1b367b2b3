-- Every step of every design search, in order, with the recommendation marked: what the report's "Design
-- search" section draws (the search path) and states (the confirmed values and whether each target lies
-- inside the metric's 95% interval there).
with steps as (
    select * from stg_tunes
),

runs as (
    select run_id, ended_at from stg_runs
),

tunes as (
    select
        game, tune_id,
        count(distinct step) as n_steps,
        count(distinct run_id) as n_runs,
        max(step) as last_step,
        max(r.ended_at) as finished_at
    from steps
    left join runs as r using (run_id)
    group by all
),

distinct_runs as (
    select game, tune_id, sum(plays) as plays_simulated
    from (select distinct game, tune_id, run_id, plays from steps)
    group by all
),

final as (
    select
        s.game,
        s.tune_id,
        s.box,
        s.players,
        s.policies,
        s.stage,
        s.step,
        s.step_values,
        s.seed,
        s.plays as n_plays,
        s.run_id,
        s.loss,
        s.metric,
        s.target,
        s.value,
        s.value_lo,
        s.value_hi,
        s.value_lo <= s.target and s.target <= s.value_hi as target_inside,
        s.stage = 'confirm' as is_recommendation,
        t.n_steps,
        t.n_runs,
        t.finished_at,
        d.plays_simulated
    from steps as s
    join tunes as t using (game, tune_id)
    join distinct_runs as d using (game, tune_id)
)

select * from final
