-- Burgenland, is the extra card fair compensation? For each seat at tables of one policy, its win rate under
-- staggered starting hands (seat k starts with 4 + k colour cards) beside the same under equal hands (4 each),
-- the difference staggered - equal with its 95% interval (independent samples), and where each stands against
-- the fair 1/players: under equal hands seat 0's lead is what the extra cards are to make up for; under
-- staggered hands a fair seat 0 is `within` the fair share.
with seats as (
    select * from mart_burgenland_seat_advantage
),

staggered as (
    select * from seats where start_hands = 'staggered'
),

equal as (
    select * from seats where start_hands = 'equal'
),

final as (
    select
        'burgenland' as game,
        s.players,
        s.policy,
        s.policy_spec,
        s.other_options,
        s.seat,
        s.fair_share,
        s.n_plays + e.n_plays as n_plays,
        s.n_plays as staggered_n_plays,
        e.n_plays as equal_n_plays,
        s.win_rate as staggered_win_rate,
        s.win_rate_lo as staggered_win_rate_lo,
        s.win_rate_hi as staggered_win_rate_hi,
        e.win_rate as equal_win_rate,
        e.win_rate_lo as equal_win_rate_lo,
        e.win_rate_hi as equal_win_rate_hi,
        s.win_rate - e.win_rate as difference,
        s.win_rate - e.win_rate - 1.96 * sqrt(
            s.win_rate * (1 - s.win_rate) / s.n_plays + e.win_rate * (1 - e.win_rate) / e.n_plays) as difference_lo,
        s.win_rate - e.win_rate + 1.96 * sqrt(
            s.win_rate * (1 - s.win_rate) / s.n_plays + e.win_rate * (1 - e.win_rate) / e.n_plays) as difference_hi,
        case when s.win_rate_lo > s.fair_share then 'above' when s.win_rate_hi < s.fair_share then 'below'
            else 'within' end as staggered_vs_fair,
        case when e.win_rate_lo > e.fair_share then 'above' when e.win_rate_hi < e.fair_share then 'below'
            else 'within' end as equal_vs_fair,
        s.margin as staggered_margin,
        e.margin as equal_margin,
        s.margin - e.margin as margin_difference,
        s.margin - e.margin - sqrt((s.margin_hi - s.margin) ^ 2 + (e.margin_hi - e.margin) ^ 2)
            as margin_difference_lo,
        s.margin - e.margin + sqrt((s.margin_hi - s.margin) ^ 2 + (e.margin_hi - e.margin) ^ 2)
            as margin_difference_hi
    from staggered as s
    join equal as e using (players, policy_spec, other_options, seat)
)

select * from final
