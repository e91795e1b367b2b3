-- Die Mauer's seats with its own columns.
with source as (
    select * from lake_mauer_seats
),

final as (
    select
        run_id::varchar as run_id,
        play_index,
        match_id,
        round::int as round,
        seat::int as seat,
        player::int as player,
        policy::varchar as policy,
        policy_spec::varchar as policy_spec,
        penalty::int as penalty,
        winner
    from source
)

select * from final
