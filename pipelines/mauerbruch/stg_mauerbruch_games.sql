-- Mauerbruch's plays with how they ended.
with source as (
    select * from lake_mauerbruch_games
),

final as (
    select
        run_id::varchar as run_id,
        play_index,
        players::int as players,
        first_player::int as first_player,
        opener_seat::int as opener_seat,
        turns::int as turns,
        opening_pairs::int as opening_pairs,
        end_reason::varchar as end_reason,
        stack_emptied::int as stack_emptied,
        bonus_stack::int as bonus_stack,
        bonus_cards::int as bonus_cards,
        cards_left::int as cards_left,
        deck_name::varchar as deck_name,
        deck_id::varchar as deck_id,
        winners::int[] as winners
    from source
)

select * from final
