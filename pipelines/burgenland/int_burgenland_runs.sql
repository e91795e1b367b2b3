-- Burgenland, one row per run: its set-up as the marts pool runs by it (players, start_hands, the line-up of
-- policies from the shared int_run_lineups, and the other options). Runs of one set-up (e.g. the focal policy
-- in each seat) are pooled by the marts.
with runs as (
    select * from stg_burgenland_runs
),

lineups as (
    select * from int_run_lineups
),

final as (
    select
        r.run_id,
        r.players,
        r.start_hands,
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
