-- 7 Steps, the rule text's claim that the mixed (back) sides reward tactics more than the single-coloured
-- (front) sides: the skill gap of mart_sevensteps_skill_gap on the back minus that on the front, for the same
-- focal and field policies, players and other options (option_values but the side), with a 95% interval for
-- independent samples (each end from the two intervals' ends in quadrature: for the gaps' symmetric normal
-- intervals the usual one, for the win rates' Wilson intervals Newcombe's). The claim holds where the
-- difference is positive and its interval excludes 0. The same for the relative gap (no interval) and the
-- focal player's win rate.
with gaps as (
    select * from mart_sevensteps_skill_gap
),

setups as (
    select * from mart_run_setups where game = 'sevensteps' and pairing_id is not null
),

other_options as (
    select distinct pairing_id, json_merge_patch(option_values, '{"side": null}') as other_options
    from setups
),

sided as (
    select g.*, o.other_options
    from gaps as g
    join other_options as o using (pairing_id)
),

final as (
    select
        f.game,
        f.pairing_id as front_pairing_id,
        b.pairing_id as back_pairing_id,
        f.pairing_label,
        f.players,
        f.focal,
        f.field,
        f.focal_spec,
        f.field_spec,
        f.tile_threshold,
        f.n_plays + b.n_plays as n_plays,
        f.n_plays as front_n_plays,
        b.n_plays as back_n_plays,
        f.gap as front_gap,
        f.gap_lo as front_gap_lo,
        f.gap_hi as front_gap_hi,
        b.gap as back_gap,
        b.gap_lo as back_gap_lo,
        b.gap_hi as back_gap_hi,
        b.gap - f.gap as difference,
        b.gap - f.gap - sqrt((b.gap - b.gap_lo) ^ 2 + (f.gap_hi - f.gap) ^ 2) as difference_lo,
        b.gap - f.gap + sqrt((b.gap_hi - b.gap) ^ 2 + (f.gap - f.gap_lo) ^ 2) as difference_hi,
        f.relative_gap as front_relative_gap,
        b.relative_gap as back_relative_gap,
        b.relative_gap - f.relative_gap as relative_difference,
        f.focal_win_rate as front_win_rate,
        b.focal_win_rate as back_win_rate,
        b.focal_win_rate - f.focal_win_rate as win_rate_difference,
        b.focal_win_rate - f.focal_win_rate - sqrt((b.focal_win_rate - b.focal_win_rate_lo) ^ 2
                                                   + (f.focal_win_rate_hi - f.focal_win_rate) ^ 2)
            as win_rate_difference_lo,
        b.focal_win_rate - f.focal_win_rate + sqrt((b.focal_win_rate_hi - b.focal_win_rate) ^ 2
                                                   + (f.focal_win_rate - f.focal_win_rate_lo) ^ 2)
            as win_rate_difference_hi
    from sided as f
    join sided as b
        on f.players = b.players and f.focal_spec = b.focal_spec and f.field_spec = b.field_spec
        and f.other_options = b.other_options
    where f.side = 'front' and b.side = 'back'
)

select * from final
