-- Per part of a run, seat and policy: plays, wins, win shares and score sums, and the seat's lead over the
-- other seats of its play: lead = players x score - the play's total score = (players - 1) x (the seat's score
-- minus the other seats' mean), paired per play. Computed one part at a time (per_part): each seat row is
-- set beside its play (the win share is 1 / number of winners), and a part holds few enough plays for that;
-- int_policy_pairs and mart_seat_advantage add the parts up.
with seats as (
    select * from stg_seats
),

games as (
    select * from stg_games
),

with_play as (
    select
        s.game,
        s.run_id,
        s.seat,
        s.policy_spec,
        s.policy,
        s.winner,
        s.score,
        case when s.winner then 1.0 / len(g.winners) else 0 end as share,
        g.players * s.score - sum(s.score) over (partition by s.game, s.run_id, s.play_index) as lead
    from seats as s
    join games as g
        on s.game = g.game and s.run_id = g.run_id and s.play_index = g.play_index
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
