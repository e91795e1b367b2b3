-- Burgenland, per run: plays by how they ended (last_piece: a seat placed its last piece and won; stalled; or
-- turn_limit), for mart_burgenland_length's shares.
with games as (
    select * from stg_burgenland_games
),

final as (
    select run_id, end_reason, count(*) as n_plays
    from games
    group by run_id, end_reason
)

select * from final
