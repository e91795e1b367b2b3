-- Which sweeps pool into one: a sweep run again on other seeds (the workbench runs a job as one sweep a seed,
-- simlib/serve/jobs.py) is one family, its variants' paired plays added up over its sweeps. A family is every sweep
-- with the same game, table, varied parameters, variants, baseline options and rules: all but the seed and the
-- plays. Per family and seed, the sweep with the most plays holds every other as a prefix (a run plays the indices
-- 0 .. plays - 1): it is the one `counted` (ties: the lowest sweep id), so each paired play counts once. A family
-- is named by its lowest sweep id: a sweep alone keeps its own.
with sweeps as (
    select * from stg_sweeps
),

runs as (
    select run_id, config, rules_versions, simlib_version from stg_runs
),

keys as (
    select
        w.game,
        w.sweep_id,
        any_value(w.seed) as seed,
        any_value(w.plays) as plays,
        -- every table of the sweep (players, line-up) and its variants; the baseline runs' options and versions
        md5(concat_ws('|', w.game, any_value(w.parameters),
                      string_agg(concat_ws(' ', w.players, w.policies, w.variant_values), ';'
                                 order by w.players, w.policies, w.variant_values),
                      string_agg(distinct concat_ws(' ', json_extract(r.config, '$.options')::varchar,
                                                    r.rules_versions, r.simlib_version), ';')
                          filter (where w.is_baseline))) as family_key
    from sweeps as w
    join runs as r using (run_id)
    group by w.game, w.sweep_id
),

final as (
    select
        game,
        sweep_id,
        min(sweep_id) over (partition by game, family_key) as family_id,
        seed,
        plays,
        row_number() over (partition by game, family_key, seed order by plays desc, sweep_id) = 1 as counted
    from keys
)

select * from final
