-- The skill ladder's strength test: one player of each rung above the game's best heuristic (Game.best_heuristic:
-- the search at its budgets) at a table of the best heuristic, per players and rule options, seats pooled
-- (mart_policy_strength: each distinct play counted once, its win share's interval). A rung beats the best
-- heuristic (`beats_best`) when its win share exceeds the fair share by a one-sided score test Holm-adjusted over
-- the rungs of its players and options (p_holm < 0.05). `change` compares a rung's win share with that of the
-- next weaker rung played against the same field, its 95% interval normal, the half width the root of the two
-- Wilson half widths' squares: a larger budget is weaker only where the whole interval lies below 0.
-- `table_options` as in mart_ladder_head_to_head: the options without the game's match parameters.
with rungs as (
    select * from int_ladder_rungs
),

against_best as (
    select
        p.game,
        p.players,
        p.options,
        p.options_label,
        without_match_parameters(p.options, f.match_parameters) as table_options,
        f.rung,
        f.rung_label,
        b.rung_label as best_label,
        p.pairing_id,
        p.pairing_label,
        p.n_plays,
        p.fair_share,
        p.win_share,
        p.win_share_lo,
        p.win_share_hi,
        norm_sf((p.win_share - p.fair_share) / sqrt(p.fair_share * (1 - p.fair_share) / p.effective_plays))
            as p_one_sided,
        p.seats_covered,
        p.seat_balance
    from mart_policy_strength as p
    join rungs as f on f.game = p.game and f.rung_spec = p.focal_spec
    join rungs as b on b.game = p.game and b.rung_spec = p.field_spec
    where b.best_heuristic and f.rung > b.rung and not p.fixed_opening  -- one opening repeated: no test
),

with_previous as (
    select
        *,
        lag(rung_label) over w as previous_label,
        win_share - lag(win_share) over w as change,
        sqrt(power((win_share_hi - win_share_lo) / 2, 2)
             + power(lag(win_share_hi - win_share_lo) over w / 2, 2)) as change_half_width
    from against_best
    window w as (partition by game, players, options order by rung)
),

adjusted as (
    -- Holm over a ladder's rungs: the i-th smallest p times (rungs - i + 1), kept non-decreasing.
    select
        *,
        max(least(1.0, (n_rungs - p_rank + 1) * p_one_sided)) over (
            partition by game, players, options order by p_one_sided, rung rows unbounded preceding) as p_holm
    from (select *,
                 count(*) over (partition by game, players, options) as n_rungs,
                 row_number() over (partition by game, players, options order by p_one_sided, rung) as p_rank
          from with_previous)
),

final as (
    select
        * exclude (change_half_width, n_rungs, p_rank),
        p_holm < 0.05 as beats_best,
        change - change_half_width as change_lo,
        change + change_half_width as change_hi,
        change + change_half_width < 0 as significantly_weaker
    from adjusted
)

select * from final
