-- Die Mauerspechte: the distribution of Love Parade prices, per run: chips sold at each price (in cards),
-- how many of them on a missing 2 or 12, and their share of the run's parades (for histograms).
with parades as (
    select * from stg_mauerspechte_love_parades
),

plays as (
    select * from int_mauerspechte_plays
),

counts as (
    select
        run_id,
        price,
        count(*) as n_parades_at_price,
        count(*) filter (where missing_number) as n_missing_number
    from parades
    group by all
),

final as (
    select
        'mauerspechte' as game,
        c.run_id,
        c.price,
        p.n_plays,
        c.n_parades_at_price,
        c.n_missing_number,
        sum(c.n_parades_at_price) over (partition by c.run_id) as n_parades,
        c.n_parades_at_price / sum(c.n_parades_at_price) over (partition by c.run_id) as share
    from counts as c
    join plays as p using (run_id)
)

select * from final
