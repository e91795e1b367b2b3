-- One row per run, every status; models keep only complete runs (the runner passes complete runs).
with source as (
    select * from lake_runs
),

final as (
    select
        game::varchar as game,
        run_id::varchar as run_id,
        rules_version::int as rules_version,
        rules_versions,
        simlib_version,
        config,
        seed,
        players::int as players,
        policies,
        plays,
        started_at,
        ended_at,
        status
    from source
)

select * from final
