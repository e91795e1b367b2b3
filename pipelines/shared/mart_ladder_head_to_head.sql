-- The skill ladder, head to head: one player of each rung at a table of the nearest rung below it that was
-- played (int_ladder_rungs orders the rungs), per players and rule options, the pairing's runs pooled over seats
-- (mart_policy_strength: each distinct play counted once, its win share's interval and effective plays). A step
-- pays (`beats_below`) when the rung's win share exceeds the fair share by more than the least effect that counts
-- (1 percentage point), by a one-sided score test Holm-adjusted over the steps of the ladder (its players and
-- options): the skill depth counts such steps, so it does not grow with the plays alone. below_share_of_fair is
-- what each player of the rung below wins as a fraction of a fair share: 100% when the step up gives no edge, 0
-- when the rung below never wins.
-- `table_options` leaves out the game's match parameters, as the set-ups of tables of one rung do (a table
-- of one policy is the same however rounds make matches), so that mart_ladder_depth can match the two.
with rungs as (
    select * from int_ladder_rungs
),

pairs as (
    select
        p.*,
        f.rung,
        f.rung_label,
        b.rung as below_rung,
        b.rung_label as below_label,
        without_match_parameters(p.options, f.match_parameters) as table_options
    from mart_policy_strength as p
    join rungs as f on f.game = p.game and f.rung_spec = p.focal_spec
    join rungs as b on b.game = p.game and b.rung_spec = p.field_spec
    where b.rung < f.rung and not p.fixed_opening  -- one opening repeated says nothing of skill
),

nearest as (
    select *
    from pairs
    qualify row_number() over (partition by game, players, options, rung order by below_rung desc) = 1
),

tested as (
    select
        *,
        norm_sf((win_share - (fair_share + 0.01)) / sqrt((fair_share + 0.01) * (1 - fair_share - 0.01)
                                                          / effective_plays)) as p_one_sided
    from nearest
),

adjusted as (
    -- Holm over a ladder's steps: the i-th smallest p times (steps - i + 1), kept non-decreasing.
    select
        *,
        max(least(1.0, (n_steps - step_rank + 1) * p_one_sided)) over (
            partition by game, players, table_options order by p_one_sided, rung rows unbounded preceding) as p_holm
    from (select *,
                 count(*) over (partition by game, players, table_options) as n_steps,
                 row_number() over (partition by game, players, table_options order by p_one_sided, rung)
                     as step_rank
          from tested)
),

final as (
    select
        game,
        players,
        options,
        options_label,
        table_options,
        rung,
        rung_label,
        below_rung,
        below_label,
        pairing_id,
        pairing_label,
        n_plays,
        fair_share,
        win_share,
        win_share_lo,
        win_share_hi,
        p_one_sided,
        p_holm,
        p_holm < 0.05 as beats_below,
        (1 - win_share) * players / (players - 1) as below_share_of_fair,
        (1 - win_share_hi) * players / (players - 1) as below_share_of_fair_lo,
        (1 - win_share_lo) * players / (players - 1) as below_share_of_fair_hi,
        seats_covered,
        seat_balance
    from adjusted
)

select * from final
