-- The skill ladder, how plays feel at each rung: tables where every seat plays one rung of the game's ladder
-- (int_ladder_rungs), per players and rule options, with mart_setup_feel's figures (each distinct play counted
-- once, 95% intervals). Does the game get decided earlier among good players, and do comebacks get rarer? Set-ups
-- whose plays all open alike (mart_run_setups.fixed_opening) are left out, as in mart_ladder_balance.
with rungs as (
    select * from int_ladder_rungs
),

one_policy as (
    select distinct game, setup_id, players, options, options_label, focal_spec
    from mart_run_setups
    where lineup_kind = 'one_policy' and not fixed_opening
),

feel as (
    select * from mart_setup_feel
),

final as (
    select
        s.game,
        s.players,
        s.options,
        s.options_label,
        r.rung,
        r.rung_label,
        r.n_rungs,
        f.* exclude (game, players, lineup_kind)
    from one_policy as s
    join rungs as r on r.game = s.game and r.rung_spec = s.focal_spec
    join feel as f on f.game = s.game and f.setup_id = s.setup_id
)

select * from final
