-- The skill ladder, balance at each rung: tables where every seat plays one rung of the game's ladder
-- (int_ladder_rungs), per players and rule options. Seat 0's advantage, the balance over the seats, the mean
-- length and the game's headline at that rung, from the pooled marts (each distinct play counted once, set-ups
-- never pooled together), with 95% intervals; balance and its interval from mart_setup_balance. Set-ups whose
-- plays all open alike (mart_run_setups.fixed_opening) are left out: the ladder reads set-ups whose openings vary.
with rungs as (
    select * from int_ladder_rungs
),

one_policy as (
    select distinct game, setup_id, setup_label, players, options, options_label, focal_spec
    from mart_run_setups
    where lineup_kind = 'one_policy' and not fixed_opening  -- one opening repeated: its seats say nothing of the game
),

rung_setups as (
    select s.*, r.rung, r.rung_label, r.n_rungs
    from one_policy as s
    join rungs as r on r.game = s.game and r.rung_spec = s.focal_spec
),

seats as (
    select * from mart_seat_advantage
),

spread as (
    select game, setup_id, balance, balance_lo, balance_hi from mart_setup_balance
),

counted_runs as (
    select game, run_id, setup_id from mart_run_setups where counted
),

headline as (
    select
        h.game, d.setup_id,
        any_value(h.headline) as headline,
        count(*) as headline_plays,
        avg(h.value) as headline_mean,
        mean_ci_half(stddev_samp(h.value), count(*)) as headline_half
    from int_play_headline as h
    join counted_runs as d using (game, run_id)
    group by all
),

final as (
    select
        r.game,
        r.players,
        r.options,
        r.options_label,
        r.rung,
        r.rung_label,
        r.n_rungs,
        r.setup_id,
        r.setup_label,
        a.n_plays,
        a.fair_share,
        a.win_share as seat0_win_share,
        a.win_share_lo as seat0_win_share_lo,
        a.win_share_hi as seat0_win_share_hi,
        a.advantage as seat0_advantage,
        a.advantage_lo as seat0_advantage_lo,
        a.advantage_hi as seat0_advantage_hi,
        b.balance,
        b.balance_lo,
        b.balance_hi,
        l.mean_turns,
        l.mean_turns_lo,
        l.mean_turns_hi,
        h.headline,
        h.headline_plays,
        h.headline_mean,
        h.headline_mean - h.headline_half as headline_mean_lo,
        h.headline_mean + h.headline_half as headline_mean_hi
    from rung_setups as r
    join seats as a on a.game = r.game and a.setup_id = r.setup_id and a.seat = 0
    join spread as b on b.game = r.game and b.setup_id = r.setup_id
    left join mart_setup_length as l on l.game = r.game and l.setup_id = r.setup_id
    left join headline as h on h.game = r.game and h.setup_id = r.setup_id
)

select * from final
