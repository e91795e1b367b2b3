-- Who leads as the play goes on (docs/statistics.md, "How a play feels"), as counts for mart_setup_feel_tenths to
-- pool: per run and tenth of the play (1 .. 10), the plays with a single winner and those in which the winner led
-- alone at that tenth (games.winner_leads_at). A game whose games table has no features gives no rows.
with games as (
    select game, run_id, winner_leads_at from lake_games
    where worst_rank is not null
),

wide as (
    select
        game::varchar as game,
        run_id::varchar as run_id,
        count(*) as n_plays,
        count(*) filter (where winner_leads_at[1]) as t1,
        count(*) filter (where winner_leads_at[2]) as t2,
        count(*) filter (where winner_leads_at[3]) as t3,
        count(*) filter (where winner_leads_at[4]) as t4,
        count(*) filter (where winner_leads_at[5]) as t5,
        count(*) filter (where winner_leads_at[6]) as t6,
        count(*) filter (where winner_leads_at[7]) as t7,
        count(*) filter (where winner_leads_at[8]) as t8,
        count(*) filter (where winner_leads_at[9]) as t9,
        count(*) filter (where winner_leads_at[10]) as t10
    from games
    group by all
),

final as (
    select game, run_id, n_plays, substr(tenth, 2)::tinyint as tenth, winner_leads
    from (unpivot wide on t1, t2, t3, t4, t5, t6, t7, t8, t9, t10 into name tenth value winner_leads)
)

select * from final
