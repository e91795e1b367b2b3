-- The skill ladder in one row per game, players and rule options: how many steps up the ladder pay (the skill
-- depth: steps whose rung beats the rung below by more than 1 percentage point, Holm-adjusted over the steps;
-- mart_ladder_head_to_head), what the rung below still wins at the top step, and how seat 0's advantage moves
-- up the ladder: the weighted least-squares slope of its advantage over every rung played alone (rungs in ladder
-- order, 0, 1, 2, ...; each weighted by its interval's precision), with the slope's 95% interval and p (the twin
-- of estimators.weighted_trend), beside the advantage at the lowest and the highest rung for the words. Options
-- are those of the tables of one rung: head-to-head tables that differ only in the game's match parameters count
-- with them (mart_ladder_head_to_head.table_options).
with steps as (
    select * exclude (options, options_label), table_options as options from mart_ladder_head_to_head
),

alone as (
    select
        *,
        row_number() over (partition by game, players, options order by rung) - 1 as position,
        1 / power((seat0_advantage_hi - seat0_advantage_lo) / (2 * 1.96), 2) as weight
    from mart_ladder_balance
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
        arg_max(below_share_of_fair, rung) as top_below_share_of_fair,
        arg_max(below_share_of_fair_lo, rung) as top_below_share_of_fair_lo,
        arg_max(below_share_of_fair_hi, rung) as top_below_share_of_fair_hi
    from steps
    group by all
),

centred as (
    select
        *,
        sum(weight * position) over w / sum(weight) over w as x_bar,
        sum(weight * seat0_advantage) over w / sum(weight) over w as y_bar
    from alone
    window w as (partition by game, players, options)
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
        arg_max(seat0_advantage_hi, rung) as top_advantage_hi,
        sum(weight * (position - x_bar) * (seat0_advantage - y_bar)) as sxy,
        sum(weight * (position - x_bar) ^ 2) as sxx
    from centred
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
        d.top_below_share_of_fair,
        d.top_below_share_of_fair_lo,
        d.top_below_share_of_fair_hi,
        coalesce(e.n_rungs_alone, 0) as n_rungs_alone,
        e.bottom_rung,
        e.bottom_advantage,
        e.bottom_advantage_lo,
        e.bottom_advantage_hi,
        e.top_rung,
        e.top_advantage,
        e.top_advantage_lo,
        e.top_advantage_hi,
        case when e.sxx > 0 then e.sxy / e.sxx end as edge_slope,
        case when e.sxx > 0 then e.sxy / e.sxx - 1.96 / sqrt(e.sxx) end as edge_slope_lo,
        case when e.sxx > 0 then e.sxy / e.sxx + 1.96 / sqrt(e.sxx) end as edge_slope_hi,
        case when e.sxx > 0 then 2 * norm_sf(abs(e.sxy / e.sxx) * sqrt(e.sxx)) end as edge_slope_p
    from ends as e
    full join depth as d using (game, players, options)
)

select * from final
