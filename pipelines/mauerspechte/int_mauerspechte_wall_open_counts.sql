-- Die Mauerspechte: plays per turn the wall opened (the first lower piece bought), per run; the plays
-- where it stayed closed have a null turn. Counts, so the wall marts' quantiles do not grow with the plays.
with games as (
    select * from stg_mauerspechte_games
),

final as (
    select
        run_id,
        wall_opened_turn as opened_turn,
        count(*) as n_plays_opened,
        sum(wall_opened_turn / turns) as opened_fraction_sum,
        sum((wall_opened_turn / turns) ^ 2) as opened_fraction_sq_sum
    from games
    group by all
)

select * from final
