-- Die Mauerspechte's headline for what-if sweeps: do hotels pay? Per play, the hotels' yield less their
-- price in cards, averaged over the hotels bought (no row for a play without a hotel).
with hotels as (
    select * from stg_mauerspechte_hotels
),

final as (
    select
        'mauerspechte' as game,
        run_id,
        play_index,
        'hotel net yield (cards earned - price, per hotel)' as headline,
        avg(yield - cost)::double as value
    from hotels
    group by run_id, play_index
)

select * from final
