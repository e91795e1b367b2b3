-- Burgenland, do seats that build wells win? The win share (a win split among its winners; a Burgenland play has one
-- winner at most, so it is the win rate) and pieces placed of seats by the number of wells they built, with the
-- reward coins their wells paid, per policy and set-up, each distinct play once (int_burgenland_setups). A seat wins
-- only by placing every piece, so a seat that built fewer wells than its supply (wells_supply) never wins: the rows
-- show how many seats the wells held back. A well that is the seat's last piece ends the play unpaid (no reward
-- after the last piece). Each figure has its 95% interval clustered by play (int_burgenland_measure_stats: a play's
-- seats may build as many wells), the win share's Wilson's at its effective size.
with stats as (
    select * from int_burgenland_measure_stats
),

supply as (
    select * from int_burgenland_supply where kind = 'well'
),

setup_runs as (
    select * from int_burgenland_setups
),

supplies as (
    select u.setup_id, max(s.supply) as wells_supply
    from setup_runs as u
    join supply as s using (run_id)
    group by u.setup_id
),

by_wells as (
    select
        setup_id, setup_label, players, start_hands, n_plays, policy, policy_spec, level as wells_built,
        any_value(seat_plays) as seat_plays,
        any_value(holders) filter (where measure = 'win_share') as wins,
        any_value(mean) filter (where measure = 'win_share') as win_share,
        any_value(share_lo) filter (where measure = 'win_share') as win_share_lo,
        any_value(share_hi) filter (where measure = 'win_share') as win_share_hi,
        any_value(mean) filter (where measure = 'placed') as mean_placed,
        any_value(mean_lo) filter (where measure = 'placed') as mean_placed_lo,
        any_value(mean_hi) filter (where measure = 'placed') as mean_placed_hi,
        any_value(mean) filter (where measure = 'well_coins') as mean_well_coins,
        any_value(mean_lo) filter (where measure = 'well_coins') as mean_well_coins_lo,
        any_value(mean_hi) filter (where measure = 'well_coins') as mean_well_coins_hi
    from stats
    where among = 'wells'
    group by all
),

final as (
    select
        'burgenland' as game,
        b.setup_id, b.setup_label, b.players, b.start_hands, b.policy, b.policy_spec,
        b.wells_built,
        s.wells_supply,
        b.n_plays,
        b.seat_plays,
        b.seat_plays / sum(b.seat_plays) over (partition by b.setup_id, b.policy_spec) as seat_play_share,
        b.wins,
        b.win_share, b.win_share_lo, b.win_share_hi,
        1.0 / b.players as fair_share,
        b.mean_placed, b.mean_placed_lo, b.mean_placed_hi,
        b.mean_well_coins, b.mean_well_coins_lo, b.mean_well_coins_hi
    from by_wells as b
    join supplies as s using (setup_id)
)

select * from final
