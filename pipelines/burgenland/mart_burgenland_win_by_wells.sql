-- Burgenland, do seats that build wells win? The win rate and pieces placed of seats by the number of wells
-- they built, with the reward coins their wells paid, per policy and set-up (players, starting hands, line-up,
-- other options), runs of the same set-up pooled. A seat wins only by placing every piece, so a seat that
-- built fewer wells than its supply (wells_supply) never wins: the rows show how many seats the wells held
-- back. A well that is the seat's last piece ends the play unpaid (no reward after the last piece).
with counts as (
    select * from int_burgenland_well_counts
),

supply as (
    select run_id, supply from int_burgenland_supply where kind = 'well'
),

runs as (
    select * from int_burgenland_runs
),

plays as (
    select players, start_hands, lineup_spec, other_options, sum(plays)::bigint as n_plays
    from runs
    group by all
),

sums as (
    select
        r.players, r.start_hands, r.lineup, r.lineup_spec, r.other_options, c.policy_spec, c.wells_built,
        any_value(c.policy) as policy,
        max(u.supply) as wells_supply,
        sum(c.n_seat_plays)::bigint as n,
        coalesce(sum(c.n_seat_plays) filter (where c.winner), 0)::bigint as wins,
        sum(c.score_sum)::bigint as score_s,
        sum(c.score_sq_sum)::hugeint as score_ss,
        sum(c.well_coins_sum)::bigint as coins_s,
        sum(c.well_coins_sq_sum)::hugeint as coins_ss
    from counts as c
    join runs as r using (run_id)
    join supply as u using (run_id)
    group by all
),

final as (
    select
        'burgenland' as game,
        s.players,
        s.start_hands,
        s.lineup,
        s.lineup_spec,
        s.other_options,
        s.policy,
        s.policy_spec,
        s.wells_built,
        s.wells_supply,
        p.n_plays,
        s.n as seat_plays,
        s.n / sum(s.n) over (
            partition by s.players, s.start_hands, s.lineup_spec, s.other_options, s.policy_spec) as seat_play_share,
        s.wins,
        s.wins / s.n as win_rate,
        wilson_lo(s.wins, s.n) as win_rate_lo,
        wilson_hi(s.wins, s.n) as win_rate_hi,
        1.0 / s.players as fair_share,
        s.score_s / s.n as mean_placed,
        mean_lo_int(s.n, s.score_s, s.score_ss) as mean_placed_lo,
        mean_hi_int(s.n, s.score_s, s.score_ss) as mean_placed_hi,
        s.coins_s / s.n as mean_well_coins,
        mean_lo_int(s.n, s.coins_s, s.coins_ss) as mean_well_coins_lo,
        mean_hi_int(s.n, s.coins_s, s.coins_ss) as mean_well_coins_hi
    from sums as s
    join plays as p using (players, start_hands, lineup_spec, other_options)
)

select * from final
