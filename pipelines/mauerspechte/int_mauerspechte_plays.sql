-- Die Mauerspechte: plays per run and the player count, the denominator the marts share.
with games as (
    select * from stg_mauerspechte_games
),

final as (
    select run_id, count(*) as n_plays, any_value(players) as players
    from games
    group by all
)

select * from final
