-- Burgenland, which kind of piece holds players back: the pieces left in the supply at the end by the seats
-- that did not win (the winner has none left), by kind (wall, house, palas, well; any = all four), policy and
-- set-up, each distinct play once (int_burgenland_measure_stats). The mean left with its 95% interval, the share
-- of the kind's supply left (mean left / the pieces of the kind a seat starts with), the share of seats stuck
-- with at least one (Wilson) and the kind's share of all pieces left.
with stats as (
    select * from int_burgenland_measure_stats
),

supply as (
    select * from int_burgenland_supply
),

setup_runs as (
    select * from int_burgenland_setups
),

kinds as (
    select * from (values
        ('walls_left', 'wall'), ('houses_left', 'house'), ('palases_left', 'palas'), ('wells_left', 'well'),
        ('pieces_left', 'any')) as k(measure, kind)
),

supplies as (
    -- One map per set-up (its data_id is part of the set-up): the pieces of each kind a seat starts with.
    select u.setup_id, s.kind, max(s.supply) as supply
    from setup_runs as u
    join supply as s using (run_id)
    group by u.setup_id, s.kind
),

final as (
    select
        'burgenland' as game,
        s.setup_id, s.setup_label, s.players, s.start_hands, s.policy, s.policy_spec,
        k.kind,
        s.n_runs,
        s.n_plays,
        s.seat_plays,
        p.supply,
        s.mean as mean_left,
        s.mean_lo as mean_left_lo,
        s.mean_hi as mean_left_hi,
        s.mean / p.supply as left_share,
        s.mean_lo / p.supply as left_share_lo,
        s.mean_hi / p.supply as left_share_hi,
        s.holder_share, s.holder_share_lo, s.holder_share_hi,
        s.total / nullif(sum(s.total) filter (where k.kind = 'any') over (partition by s.setup_id, s.policy_spec), 0)
            as share_of_left
    from stats as s
    join kinds as k using (measure)
    join supplies as p using (setup_id, kind)
    where s.among = 'non_winners'
)

select * from final
