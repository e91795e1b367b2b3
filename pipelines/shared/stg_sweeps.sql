-- One row per run of a what-if sweep: which sweep, which variant, and the baseline run it is compared with.
with source as (
    select * from lake_sweeps
),

final as (
    select
        game::varchar as game,
        run_id::varchar as run_id,
        sweep_id,
        parameters,
        variant,
        variant_order::int as variant_order,
        variant_values,
        is_baseline,
        baseline_run_id,
        players::int as players,
        policies,
        plays,
        seed
    from source
)

select * from final
