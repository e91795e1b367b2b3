-- Burgenland, is the extra card fair compensation? Two set-ups that differ only in their starting hands (the
-- same players, policies by seat and other options; staggered: seat k starts with 4 + k colour cards, equal: 4
-- each) are joined, and per seat their win shares (a win split among its winners, the estimand every fairness
-- figure compares with the fair 1/players), the tests against the fair share and the margins
-- (mart_seat_advantage: each distinct play once) set side by side: the difference staggered - equal with its 95%
-- interval and p-value. The difference takes the two samples as independent, each share's variance p (1 - p) over
-- its effective plays (mart_seat_advantage.effective_plays: the variance of its per-play shares). Runs at the same
-- seed start each play index from the same shuffles, so where the set-ups share seeds (same_seed_plays > 0) their
-- plays are paired, not independent: the sweep's paired difference (mart_variant_effects) is the exact one. Which
-- seats are favoured is the page's to say: its tests share one error rate (Holm over the figure's tests).
with seats as (
    select * from mart_seat_advantage
),

setup_runs as (
    select * from int_burgenland_setups
),

pairs as (
    select distinct
        s.setup_id as staggered_setup_id,
        e.setup_id as equal_setup_id,
        s.setup_label,
        e.setup_label as equal_setup_label,
        s.players
    from setup_runs as s
    join setup_runs as e
        on e.players = s.players and e.policies = s.policies and e.other_option_values = s.other_option_values
    where s.start_hands = 'staggered' and e.start_hands = 'equal'
),

same_seed as (
    -- Plays both set-ups have at one seed and play index (one counted run per set-up and seed, plays 0 .. n - 1).
    select p.staggered_setup_id, p.equal_setup_id, sum(least(a.run_plays, b.run_plays))::bigint as same_seed_plays
    from pairs as p
    join setup_runs as a on a.setup_id = p.staggered_setup_id
    join setup_runs as b on b.setup_id = p.equal_setup_id and b.seed = a.seed
    group by all
),

final as (
    select
        'burgenland' as game,
        p.staggered_setup_id, p.equal_setup_id, p.setup_label, p.equal_setup_label, p.players,
        s.seat,
        s.fair_share,
        s.n_plays + e.n_plays as n_plays,
        s.n_plays as staggered_n_plays, e.n_plays as equal_n_plays, coalesce(d.same_seed_plays, 0) as same_seed_plays,
        -- the win shares with their intervals and tests against the fair share, and their difference (normal,
        -- independent samples)
        s.win_share as staggered_win_share,
        s.win_share_lo as staggered_win_share_lo, s.win_share_hi as staggered_win_share_hi,
        s.p_value as staggered_p_value, s.effective_plays as staggered_effective_plays,
        e.win_share as equal_win_share,
        e.win_share_lo as equal_win_share_lo, e.win_share_hi as equal_win_share_hi,
        e.p_value as equal_p_value, e.effective_plays as equal_effective_plays,
        s.win_share - e.win_share as difference,
        s.win_share - e.win_share - 1.96 * h.se as difference_lo,
        s.win_share - e.win_share + 1.96 * h.se as difference_hi,
        case when h.se > 0 then 2 * norm_sf(abs(s.win_share - e.win_share) / h.se)
            when s.win_share = e.win_share then 1.0 else 0.0 end as difference_p_value,
        -- the margins (pieces placed - the other seats' mean, paired within each play), and their difference
        s.margin as staggered_margin, e.margin as equal_margin, s.margin - e.margin as margin_difference,
        s.margin - e.margin - h.margin_half as margin_difference_lo,
        s.margin - e.margin + h.margin_half as margin_difference_hi
    from pairs as p
    join seats as s on s.game = 'burgenland' and s.setup_id = p.staggered_setup_id
    join seats as e on e.game = 'burgenland' and e.setup_id = p.equal_setup_id and e.seat = s.seat
    cross join lateral (
        select
            sqrt(s.win_share * (1 - s.win_share) / s.effective_plays
                 + e.win_share * (1 - e.win_share) / e.effective_plays) as se,
            sqrt((s.margin_hi - s.margin) ^ 2 + (e.margin_hi - e.margin) ^ 2) as margin_half
    ) as h
    left join same_seed as d using (staggered_setup_id, equal_setup_id)
)

select * from final
