-- Per part of a run, seat and policy: plays, wins, win shares and score sums, and the seat's lead over the
-- other seats of its play: lead = players x score - the play's total score = (players - 1) x (the seat's score
-- minus the other seats' mean), paired per play. Computed one part at a time (per_part): each seat row is
-- set beside its play's seats (the win share is 1 / the play's winners: its seats with winner set, as the games
-- table's winners list them; a window over the play's rows, not a join with the games table, which took half
-- the time); int_policy_pairs and mart_seat_advantage add the parts up.
with seats as (
    select * from stg_seats
),

with_play as (
    select
        game,
        run_id,
        seat,
        policy_spec,
        policy,
        winner,
        score,
        case when winner then 1.0 / count(*) filter (where winner) over play else 0 end as share,
        count(*) over play * score - sum(score) over play as lead
    from seats
    window play as (partition by game, run_id, play_index)
),

final as (
    select
        game,
        run_id,
        seat,
        policy_spec,
        any_value(policy) as policy,
        count(*) as n_plays,
        count(*) filter (where winner) as wins,
        count(*) filter (where winner and share < 1) as shared_wins,
        sum(share) as win_share_sum,
        sum(share * share) as win_share_sq_sum,
        sum(score) as score_sum,
        sum(score * score) as score_sq_sum,
        sum(lead) as lead_sum,
        sum(lead * lead) as lead_sq_sum
    from with_play
    group by game, run_id, seat, policy_spec
)

select * from final
