-- 7 Steps, the seed's claim that the mixed (back) sides reward tactics more than the single-coloured
-- (front) sides: the skill gap of mart_sevensteps_skill_gap on the back minus that on the front, for the same
-- focal and field policies, players, tile threshold and other options, with a 95% interval (independent
-- samples: the half widths of the two intervals added in quadrature). The claim holds where the difference
-- is positive and its interval excludes 0. The same for the win gap and the relative gap (no interval).
with gaps as (
    select * from mart_sevensteps_skill_gap
),

final as (
    select
        'sevensteps' as game,
        f.players,
        f.focal,
        f.field,
        f.focal_spec,
        f.field_spec,
        f.tile_threshold,
        f.other_options,
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
        b.gap - f.gap - sqrt((f.gap_hi - f.gap) ^ 2 + (b.gap_hi - b.gap) ^ 2) as difference_lo,
        b.gap - f.gap + sqrt((f.gap_hi - f.gap) ^ 2 + (b.gap_hi - b.gap) ^ 2) as difference_hi,
        f.relative_gap as front_relative_gap,
        b.relative_gap as back_relative_gap,
        b.relative_gap - f.relative_gap as relative_difference,
        f.win_gap as front_win_gap,
        b.win_gap as back_win_gap,
        b.win_gap - f.win_gap as win_gap_difference,
        b.win_gap - f.win_gap - sqrt((f.win_gap_hi - f.win_gap) ^ 2 + (b.win_gap_hi - b.win_gap) ^ 2)
            as win_gap_difference_lo,
        b.win_gap - f.win_gap + sqrt((f.win_gap_hi - f.win_gap) ^ 2 + (b.win_gap_hi - b.win_gap) ^ 2)
            as win_gap_difference_hi
    from gaps as f
    join gaps as b
        on f.players = b.players and f.focal_spec = b.focal_spec and f.field_spec = b.field_spec
        and f.tile_threshold = b.tile_threshold and f.other_options = b.other_options
    where f.side = 'front' and b.side = 'back'
)

select * from final
