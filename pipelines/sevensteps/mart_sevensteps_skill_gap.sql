-- 7 Steps, does a side reward skill? At tables of one focal player (greedy or climber) among a field of
-- another policy (random), per policy pairing: the shared mart_policy_strength's pairing (players, policies
-- and options, the focal player's seat rotated over the runs on purpose, each distinct play counted once),
-- with the side and tile threshold of its runs (option_values). The skill gap is the focal player's score
-- minus the mean score of the field players in the same play, paired per play (mean with its 95% interval,
-- from the shared int_seat_policy_sums' lead: players x score - the play's total); relative_gap divides it by
-- the field's mean score, for sides on which everyone scores differently. Who wins is told by the win share (a
-- win split among its tied winners, the estimand every comparison with the fair share uses): the focal player's with
-- its interval and test against the fair share (mart_policy_strength, the play as the unit), a field player's mean
-- share per seat-play, and share_gap, the one minus the other.
with strength as (
    select * from mart_policy_strength
),

seat_sums as (
    select * from int_seat_policy_sums
),

setups as (
    select * from mart_run_setups where game = 'sevensteps' and lineup_kind = 'one_vs_field'
),

pairings as (
    select
        pairing_id,
        any_value(option_values ->> 'side') as side,
        any_value((option_values ->> 'tile_threshold')::int) as tile_threshold
    from setups
    group by pairing_id
),

by_role as (
    -- The focal seat's sums and the field seats' sums of each pairing's counted runs.
    select
        u.pairing_id,
        s.policy_spec = u.focal_spec as is_focal,
        sum(s.n_plays)::bigint as n,
        sum(s.win_share_sum) as share_s,
        sum(s.score_sum) as score_s,
        sum(s.lead_sum) as lead_s,
        sum(s.lead_sq_sum) as lead_ss
    from seat_sums as s
    join setups as u using (game, run_id)
    where u.counted
    group by all
),

final as (
    select
        p.game,
        p.pairing_id,
        p.pairing_label,
        p.players,
        p.focal,
        p.field,
        p.focal_spec,
        p.field_spec,
        r.side,
        r.tile_threshold,
        p.n_runs,
        p.seats_covered,
        p.seat_balance,
        p.n_plays,
        p.mean_score as focal_mean_score,
        p.mean_score_lo as focal_mean_score_lo,
        p.mean_score_hi as focal_mean_score_hi,
        d.score_s / d.n as field_mean_score,
        f.lead_s / f.n / (p.players - 1) as gap,
        (f.lead_s / f.n - mean_ci_half(sd_from_sums(f.n, f.lead_s, f.lead_ss), f.n)) / (p.players - 1) as gap_lo,
        (f.lead_s / f.n + mean_ci_half(sd_from_sums(f.n, f.lead_s, f.lead_ss), f.n)) / (p.players - 1) as gap_hi,
        f.lead_s / f.n / (p.players - 1) / (d.score_s / d.n) as relative_gap,
        p.win_share as focal_win_share,
        p.win_share_lo as focal_win_share_lo,
        p.win_share_hi as focal_win_share_hi,
        p.p_value as focal_p_value,
        p.effective_plays as focal_effective_plays,
        d.share_s / d.n as field_win_share,
        p.fair_share,
        p.win_share - d.share_s / d.n as share_gap
    from strength as p
    join pairings as r using (pairing_id)
    join by_role as f on f.pairing_id = p.pairing_id and f.is_focal
    join by_role as d on d.pairing_id = p.pairing_id and not d.is_focal
    where p.game = 'sevensteps'
)

select * from final
