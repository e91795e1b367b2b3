-- One row per run: its line-up of policies, as a game's marts pool runs by it. The line-up is `one_policy`
-- (every seat the same policy spec), `one_vs_field` (one seat of a `focal` policy, every other seat of one
-- `field` policy; at two players the random seat is the field) or `mixed`.
with runs as (
    select
        game,
        run_id,
        players,
        string_split(policies, ',') as policy_specs,
        list_transform(string_split(policies, ','), lambda spec: split_part(spec, ':', 1)) as policy_names
    from stg_runs
),

seats as (
    select
        run_id,
        unnest(policy_specs) as spec,
        unnest(policy_names) as name,
        unnest(generate_series(0, players - 1)) as seat
    from runs
),

specs as (
    select
        run_id,
        spec,
        any_value(name) as name,
        count(*) as n_seats,
        min(seat) as first_seat
    from seats
    group by all
),

ranked as (
    -- The field first: the spec with the most seats, then a random one, then the later seat.
    select
        *,
        row_number() over (
            partition by run_id order by n_seats desc, (name = 'random') desc, first_seat desc) as field_rank,
        count(*) over (partition by run_id) as n_specs
    from specs
),

shape as (
    select
        run_id,
        any_value(n_specs) as n_specs,
        max(spec) filter (where field_rank = 1) as field_spec,
        max(name) filter (where field_rank = 1) as field,
        max(spec) filter (where field_rank = 2) as focal_spec,
        max(name) filter (where field_rank = 2) as focal,
        max(n_seats) filter (where field_rank = 2) as focal_seats,
        max(first_seat) filter (where field_rank = 2) as focal_seat
    from ranked
    group by all
),

final as (
    select
        r.game,
        r.run_id,
        array_to_string(r.policy_names, ',') as policies,
        case
            when s.n_specs = 1 then 'one_policy'
            when s.n_specs = 2 and s.focal_seats = 1 then 'one_vs_field'
            else 'mixed'
        end as lineup_kind,
        case
            when s.n_specs = 1 then s.field
            when s.n_specs = 2 and s.focal_seats = 1 then s.focal || ' + ' || (r.players - 1) || ' ' || s.field
            else array_to_string(r.policy_names, ',')
        end as lineup,
        case
            when s.n_specs = 1 then s.field_spec
            when s.n_specs = 2 and s.focal_seats = 1 then s.focal_spec || ' + ' || s.field_spec
            else array_to_string(r.policy_specs, ',')
        end as lineup_spec,
        case
            when s.n_specs = 1 then s.field
            when s.n_specs = 2 and s.focal_seats = 1 then s.focal
        end as focal,
        case
            when s.n_specs = 1 then s.field_spec
            when s.n_specs = 2 and s.focal_seats = 1 then s.focal_spec
        end as focal_spec,
        case when s.n_specs <= 2 and coalesce(s.focal_seats, 1) = 1 then s.field end as field,
        case when s.n_specs <= 2 and coalesce(s.focal_seats, 1) = 1 then s.field_spec end as field_spec,
        case when s.n_specs = 2 and s.focal_seats = 1 then s.focal_seat end as focal_seat
    from runs as r
    join shape as s using (run_id)
)

select * from final
