-- The skill ladder in one row per game, players and rule options: how many steps up the ladder win significantly
-- more than the fair share against the rung below (the skill depth), the luck share at the top step, and seat
-- 0's advantage at the lowest and the highest rung played alone, with the change between them. The change's
-- interval is normal, from the two advantages' 95% intervals taken as normal (half width / 1.96 each). Options
-- are those of the tables of one rung: head-to-head tables that differ only in the game's match parameters
-- count with them (mart_ladder_head_to_head.table_options).
with steps as (
    select * exclude (options, options_label), table_options as options from mart_ladder_head_to_head
),

alone as (
    select * from mart_ladder_balance
),

depth as (
    select
        game, players, options,
        count(*) as n_steps,
        sum(n_plays) as step_plays,
        count(*) filter (where beats_below) as skill_depth,
        arg_max(rung_label, rung) as top_step_rung,
        arg_max(below_label, rung) as top_step_below,
        arg_max(win_share, rung) as top_step_win_share,
        arg_max(luck_share, rung) as top_luck_share,
        arg_max(luck_share_lo, rung) as top_luck_share_lo,
        arg_max(luck_share_hi, rung) as top_luck_share_hi
    from steps
    group by all
),

ends as (
    select
        game, players, options,
        any_value(options_label) as options_label,
        count(*) as n_rungs_alone,
        sum(n_plays) as alone_plays,
        arg_min(rung_label, rung) as bottom_rung,
        arg_min(seat0_advantage, rung) as bottom_advantage,
        arg_min(seat0_advantage_lo, rung) as bottom_advantage_lo,
        arg_min(seat0_advantage_hi, rung) as bottom_advantage_hi,
        arg_max(rung_label, rung) as top_rung,
        arg_max(seat0_advantage, rung) as top_advantage,
        arg_max(seat0_advantage_lo, rung) as top_advantage_lo,
        arg_max(seat0_advantage_hi, rung) as top_advantage_hi
    from alone
    group by all
),

final as (
    select
        coalesce(e.game, d.game) as game,
        coalesce(e.players, d.players) as players,
        coalesce(e.options, d.options) as options,
        e.options_label,
        (coalesce(d.step_plays, 0) + coalesce(e.alone_plays, 0))::bigint as n_plays,
        coalesce(d.n_steps, 0) as n_steps,
        coalesce(d.skill_depth, 0) as skill_depth,
        d.top_step_rung,
        d.top_step_below,
        d.top_step_win_share,
        d.top_luck_share,
        d.top_luck_share_lo,
        d.top_luck_share_hi,
        coalesce(e.n_rungs_alone, 0) as n_rungs_alone,
        e.bottom_rung,
        e.bottom_advantage,
        e.bottom_advantage_lo,
        e.bottom_advantage_hi,
        e.top_rung,
        e.top_advantage,
        e.top_advantage_lo,
        e.top_advantage_hi,
        case when e.n_rungs_alone > 1 then e.top_advantage - e.bottom_advantage end as edge_change,
        case when e.n_rungs_alone > 1 then e.top_advantage - e.bottom_advantage - sqrt(
            ((e.top_advantage_hi - e.top_advantage_lo) / 2) ^ 2
            + ((e.bottom_advantage_hi - e.bottom_advantage_lo) / 2) ^ 2) end as edge_change_lo,
        case when e.n_rungs_alone > 1 then e.top_advantage - e.bottom_advantage + sqrt(
            ((e.top_advantage_hi - e.top_advantage_lo) / 2) ^ 2
            + ((e.bottom_advantage_hi - e.bottom_advantage_lo) / 2) ^ 2) end as edge_change_hi
    from ends as e
    full join depth as d using (game, players, options)
)

select * from final
