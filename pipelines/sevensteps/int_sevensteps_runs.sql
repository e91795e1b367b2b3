-- 7 Steps, one row per run: its set-up as the marts pool runs by it (side, players, the line-up of policies
-- from the shared int_run_lineups, tile_threshold and the other options). Runs of one set-up (e.g. the same
-- table with and without events) are pooled by the marts.
with runs as (
    select * from stg_sevensteps_runs
),

lineups as (
    select * from int_run_lineups
),

final as (
    select
        r.run_id,
        r.players,
        r.side,
        r.tile_threshold,
        r.other_options,
        r.events,
        r.plays,
        l.policies,
        l.lineup_kind,
        l.lineup,
        l.lineup_spec,
        l.focal,
        l.focal_spec,
        l.field,
        l.field_spec,
        l.focal_seat
    from runs as r
    join lineups as l using (run_id)
)

select * from final
