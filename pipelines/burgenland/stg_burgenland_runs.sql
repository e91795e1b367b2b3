-- Burgenland's runs: the option the analysis compares (start_hands) taken out of the run's JSON configuration,
-- the other options as one text (runs are pooled only when it matches; the map and data files' texts, options
-- named *_text, are left out: data_id, their hash, stands for them), and the policies by seat, with and
-- without their parameters.
with source as (
    select * from lake_burgenland_runs
),

final as (
    select
        run_id::varchar as run_id,
        players::int as players,
        json_extract_string(config, '$.options.start_hands') as start_hands,
        array_to_string(list_transform(
            list_sort(list_filter(json_keys(config, '$.options'),
                lambda k: k != 'start_hands' and not suffix(k, '_text'))),
            lambda k: k || '=' || json_extract_string(config, '$.options.' || k)), ' ') as other_options,
        coalesce(json_extract(config, '$.events')::boolean, false) as events,
        string_split(policies, ',') as policy_specs,
        list_transform(string_split(policies, ','), lambda spec: split_part(spec, ':', 1)) as policy_names,
        plays,
        status
    from source
)

select * from final
