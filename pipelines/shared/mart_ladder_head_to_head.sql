-- The skill ladder, head to head: one player of each rung at a table of the nearest rung below it that was
-- played (int_ladder_rungs orders the rungs), per players and rule options, the pairing's runs pooled over seats
-- (mart_policy_strength: each distinct play counted once). The win share's interval is Wilson's with the
-- summed shares as successes (as mart_seat_advantage); the luck share is what the weaker rung's players win,
-- each, as a fraction of the fair share: 1 when skill makes no difference, 0 when the weaker rung never wins.
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
    where b.rung < f.rung
),

nearest as (
    select *
    from pairs
    qualify row_number() over (partition by game, players, options, rung order by below_rung desc) = 1
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
        wilson_lo(win_share * n_plays, n_plays) as win_share_lo,
        wilson_hi(win_share * n_plays, n_plays) as win_share_hi,
        wilson_lo(win_share * n_plays, n_plays) > fair_share as beats_below,
        (1 - win_share) * players / (players - 1) as luck_share,
        (1 - wilson_hi(win_share * n_plays, n_plays)) * players / (players - 1) as luck_share_lo,
        (1 - wilson_lo(win_share * n_plays, n_plays)) * players / (players - 1) as luck_share_hi,
        seats_covered,
        seat_balance
    from nearest
)

select * from final
