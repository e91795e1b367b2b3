-- One row per play and seat, the columns every game has.
with source as (
    select * from lake_seats
),

final as (
    select
        game::varchar as game,
        run_id::varchar as run_id,
        play_index,
        seat::int as seat,
        policy::varchar as policy,
        policy_spec::varchar as policy_spec,
        score::double as score,
        rank::int as rank,
        winner
    from source
)

select * from final
