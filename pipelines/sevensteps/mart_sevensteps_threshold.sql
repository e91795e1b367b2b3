-- 7 Steps, what the tile threshold does: a tile after a turn scoring fewer than 7 points (the rule text's
-- reading, the default: base_threshold) against another threshold (8: "7 or fewer"), at tables of one policy
-- with the same side, players and other options (option_values but the threshold), per pair of set-ups. One
-- row per metric, each read from the mart that gives it per set-up with its 95% interval: tiles_taken per
-- seat-play (mart_sevensteps_tiles), score per seat-play (mart_policy_strength's table of one policy),
-- seat0_advantage (seat 0's win share minus 1/players) and seat0_margin (seat 0's score minus the other seats'
-- mean, paired per play; both mart_seat_advantage) and turns per play (mart_sevensteps_length: the game's one unit
-- of length). The difference (other minus base) has the 95% interval of independent samples (the half widths in
-- quadrature) and its two-sided p; `equivalent` says whether two one-sided tests at 5% rule out a change larger than
-- `margin` (1 percentage point for seat 0's advantage, 1% of the base value otherwise: docs/statistics.md), the
-- 90% interval inside +/- margin. Which changes are significant is the page's to say, Holm over its table's tests.
-- Every metric's interval is the normal one of a mean, seat0_advantage's too (from seat 0's pooled win-share sums,
-- as mart_seat_advantage pools them; that mart gives the win share a Wilson interval, which is not symmetric).
-- tiles_taken per seat-play comes clustered by play (mart_sevensteps_tiles).
with tiles as (
    select * from mart_sevensteps_tiles
),

strength as (
    select * from mart_policy_strength
),

seat_advantage as (
    select * from mart_seat_advantage
),

lengths as (
    select * from mart_sevensteps_length
),

seat0_shares as (
    -- seat 0's win shares per set-up, each distinct play once: the normal half width of their mean
    select
        d.setup_id,
        mean_ci_half(sd_from_sums(sum(s.n_plays), sum(s.win_share_sum), sum(s.win_share_sq_sum)), sum(s.n_plays))
            as half
    from int_seat_policy_sums as s
    join mart_run_setups as d using (game, run_id)
    where s.game = 'sevensteps' and s.seat = 0 and d.counted
    group by d.setup_id
),

setups as (
    select distinct
        setup_id, pairing_id, players, focal, focal_spec,
        option_values ->> 'side' as side,
        (option_values ->> 'tile_threshold')::int as tile_threshold,
        json_merge_patch(option_values, '{"tile_threshold": null}') as other_options
    from mart_run_setups
    where game = 'sevensteps' and lineup_kind = 'one_policy'
),

metrics as (
    select setup_id, 'tiles_taken' as metric, seat_plays as n, mean_taken as value, mean_taken_lo as lo,
           mean_taken_hi as hi
    from tiles
    where kind = 'any'
    union all
    select u.setup_id, 'score', p.n_plays, p.mean_score, p.mean_score_lo, p.mean_score_hi
    from strength as p
    join setups as u using (pairing_id)
    union all
    select a.setup_id, 'seat0_advantage', a.n_plays, a.advantage, a.advantage - h.half, a.advantage + h.half
    from seat_advantage as a
    join seat0_shares as h using (setup_id)
    where a.game = 'sevensteps' and a.seat = 0
    union all
    select setup_id, 'seat0_margin', n_plays, margin, margin_lo, margin_hi
    from seat_advantage
    where game = 'sevensteps' and seat = 0
    union all
    select setup_id, 'turns', n_plays, mean_turns, mean_turns_lo, mean_turns_hi
    from lengths
),

pairs as (
    select a.*, b.setup_id as base_setup_id, b.tile_threshold as base_threshold
    from setups as a
    join setups as b
        on a.players = b.players and a.focal_spec = b.focal_spec and a.other_options = b.other_options
    where b.tile_threshold = 7 and a.tile_threshold <> 7
),

final as (
    select
        'sevensteps' as game,
        p.setup_id,
        l.setup_label,
        p.base_setup_id,
        p.players,
        p.side,
        p.focal as policy,
        p.focal_spec as policy_spec,
        m.metric,
        p.base_threshold,
        p.tile_threshold,
        bl.n_plays as base_n_plays,
        l.n_plays,
        bm.n as base_n,
        m.n,
        bm.value as base_value,
        bm.lo as base_value_lo,
        bm.hi as base_value_hi,
        m.value,
        m.lo as value_lo,
        m.hi as value_hi,
        m.value - bm.value as difference,
        m.value - bm.value - 1.96 * h.se as difference_lo,
        m.value - bm.value + 1.96 * h.se as difference_hi,
        case when h.se > 0 then 2 * norm_sf(abs(m.value - bm.value) / h.se)
            when h.se is null then null when m.value = bm.value then 1.0 else 0.0 end as p_value,
        h.margin,
        abs(m.value - bm.value) + 1.6448536269514722 * h.se < h.margin as equivalent
    from pairs as p
    join metrics as m on m.setup_id = p.setup_id
    join metrics as bm on bm.setup_id = p.base_setup_id and bm.metric = m.metric
    join lengths as l on l.setup_id = p.setup_id
    join lengths as bl on bl.setup_id = p.base_setup_id
    cross join lateral (
        select
            sqrt(((m.hi - m.lo) / 2) ^ 2 + ((bm.hi - bm.lo) / 2) ^ 2) / 1.96 as se,
            case when m.metric = 'seat0_advantage' then 0.01 else 0.01 * abs(bm.value) end as margin
    ) as h
)

select * from final
