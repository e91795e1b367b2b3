-- 7 Steps' runs: the options the analysis compares (side, tile_threshold) taken out of the run's JSON
-- configuration, the other options as one text (runs are pooled only when it matches; the data files' texts,
-- options named *_text, are left out: data_id, their hash, stands for them), and the policies by seat, with
-- and without their parameters.
with source as (
    select * from lake_sevensteps_runs
),

final as (
    select
        run_id::varchar as run_id,
        players::int as players,
        json_extract_string(config, '$.options.side') as side,
        json_extract(config, '$.options.tile_threshold')::int as tile_threshold,
        array_to_string(list_transform(
            list_sort(list_filter(json_keys(config, '$.options'),
                lambda k: k not in ('side', 'tile_threshold') and not suffix(k, '_text'))),
            lambda k: k || '=' || json_extract_string(config, '$.options.' || k)), ' ') as other_options,
        coalesce(json_extract(config, '$.events')::boolean, false) as events,
        string_split(policies, ',') as policy_specs,
        list_transform(string_split(policies, ','), lambda spec: split_part(spec, ':', 1)) as policy_names,
        plays,
        status
    from source
)

select * from final
