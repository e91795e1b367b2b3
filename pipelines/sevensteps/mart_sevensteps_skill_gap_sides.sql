-- 7 Steps, the rule text's claim that the mixed (back) sides reward tactics more than the single-coloured
-- (front) sides: the skill gap of mart_sevensteps_skill_gap on the back minus that on the front, for the same
-- focal and field policies, players and other options (option_values but the side), with a 95% interval for
-- independent samples (the two intervals' half widths in quadrature) and its two-sided p. The claim holds where
-- the difference is positive and its test, Holm-adjusted over the pairings the page draws, is below 0.05. The same
-- for the relative gap (no interval) and the focal player's win share (a win split among its tied winners; the
-- normal interval of the difference, each share's variance p (1 - p) over its effective plays).
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
        b.gap - f.gap - 1.96 * h.gap_se as difference_lo,
        b.gap - f.gap + 1.96 * h.gap_se as difference_hi,
        case when h.gap_se > 0 then 2 * norm_sf(abs(b.gap - f.gap) / h.gap_se)
            when h.gap_se is null then null when b.gap = f.gap then 1.0 else 0.0 end as difference_p_value,
        f.relative_gap as front_relative_gap,
        b.relative_gap as back_relative_gap,
        b.relative_gap - f.relative_gap as relative_difference,
        f.focal_win_share as front_win_share,
        b.focal_win_share as back_win_share,
        b.focal_win_share - f.focal_win_share as win_share_difference,
        b.focal_win_share - f.focal_win_share - 1.96 * h.share_se as win_share_difference_lo,
        b.focal_win_share - f.focal_win_share + 1.96 * h.share_se as win_share_difference_hi,
        case when h.share_se > 0 then 2 * norm_sf(abs(b.focal_win_share - f.focal_win_share) / h.share_se)
            when b.focal_win_share = f.focal_win_share then 1.0 else 0.0 end as win_share_difference_p_value
    from sided as f
    join sided as b
        on f.players = b.players and f.focal_spec = b.focal_spec and f.field_spec = b.field_spec
        and f.other_options = b.other_options
    cross join lateral (
        select
            sqrt(((b.gap_hi - b.gap_lo) / 2) ^ 2 + ((f.gap_hi - f.gap_lo) / 2) ^ 2) / 1.96 as gap_se,
            sqrt(b.focal_win_share * (1 - b.focal_win_share) / b.focal_effective_plays
                 + f.focal_win_share * (1 - f.focal_win_share) / f.focal_effective_plays) as share_se
    ) as h
    where f.side = 'front' and b.side = 'back'
)

select * from final
