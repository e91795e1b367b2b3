-- Per part of a run, seat and policy: plays, wins, win shares and score sums. Computed one part at a
-- time (per_part): each seat row is joined to its play for the win share (1 / number of winners), and
-- a part holds few enough plays for that join; int_policy_pairs adds the parts up.
with seats as (
    select * from stg_seats
),

games as (
    select * from stg_games
),

win_shares as (
    select game, run_id, play_index, 1.0 / len(winners) as share
    from games
),

final as (
    select
        s.game,
        s.run_id,
        s.seat,
        s.policy_spec,
        any_value(s.policy) as policy,
        count(*) as n_plays,
        count(*) filter (where s.winner) as wins,
        sum(case when s.winner then w.share else 0 end) as win_share_sum,
        sum(s.score) as score_sum,
        sum(s.score * s.score) as score_sq_sum
    from seats as s
    join win_shares as w
        on s.game = w.game and s.run_id = w.run_id and s.play_index = w.play_index
    group by s.game, s.run_id, s.seat, s.policy_spec
)

select * from final
