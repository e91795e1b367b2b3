-- Die Mauerspechte: when the wall opens, per run: plays by the turn the first lower piece was bought, with
-- their share of all the run's plays and the share opened by that turn (plays where it stayed closed count
-- in the shares' denominator only).
with counts as (
    select * from int_mauerspechte_wall_open_counts
),

final as (
    select
        'mauerspechte' as game,
        run_id,
        opened_turn,
        n_plays,
        n_plays_opened,
        n_plays_opened / n_plays as share,
        cumulative / n_plays as opened_share
    from (
        select
            *,
            sum(n_plays_opened) over (partition by run_id) as n_plays,
            sum(n_plays_opened) over (partition by run_id order by opened_turn) as cumulative
        from counts
    )
    where opened_turn is not null
)

select * from final
