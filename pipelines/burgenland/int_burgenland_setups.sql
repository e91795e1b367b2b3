-- Burgenland's counted runs (mart_run_setups: per set-up and seed the run that holds every other's plays, so
-- each distinct play counts once) with what the marts pool and compare them by: the set-up, its label, the
-- starting hands (option_values), and for pairing set-ups that differ only in their hands the policies by seat
-- (stg_runs) and the other options' values; the run's seed and plays, and the set-up's runs and plays.
with setups as (
    select * from mart_run_setups
),

runs as (
    select * from stg_runs
),

final as (
    select
        u.run_id,
        u.seed,
        u.setup_id,
        u.setup_label,
        u.players,
        r.policies,
        u.option_values->>'start_hands' as start_hands,
        json_merge_patch(u.option_values, '{"start_hands": null}')::varchar as other_option_values,
        u.n_plays as run_plays,
        count(*) over setup as n_runs,
        (sum(u.n_plays) over setup)::bigint as n_plays
    from setups as u
    join runs as r using (game, run_id)
    where u.game = 'burgenland' and u.counted
    window setup as (partition by u.setup_id)
)

select * from final
