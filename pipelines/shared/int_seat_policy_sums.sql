-- Per run and seat: how one `focal` policy fares at a table of another (`field`), for runs where
-- exactly one seat plays a different policy from the rest, or everybody plays the same policy.
-- Sums, so that mart_policy_strength can add runs up.
with seats as (
    select * from stg_seats
),

games as (
    select * from stg_games
),

plays as (
    select game, run_id, count(*) as n_plays, any_value(players) as players
    from games
    group by all
),

seats_per_policy as (
    -- How many seats of each play a policy holds (seat numbers may rotate from play to play; the
    -- policies of the table positions do not).
    select s.game, s.run_id, s.policy_spec, any_value(s.policy) as policy,
           count(*) / any_value(p.n_plays) as n_seats
    from seats as s
    join plays as p using (game, run_id)
    group by all
),

run_shape as (
    select
        game, run_id,
        count(*) as n_specs,
        arg_min(policy_spec, n_seats) as focal_spec,
        arg_min(policy, n_seats) as focal,
        min(n_seats) as focal_seats,
        arg_max(policy_spec, n_seats) as field_spec,
        arg_max(policy, n_seats) as field
    from seats_per_policy
    group by all
),

pairs as (
    select game, run_id, focal_spec, focal, field_spec, field
    from run_shape
    where n_specs = 1 or (n_specs = 2 and focal_seats = 1)
),

win_shares as (
    select game, run_id, play_index, 1.0 / len(winners) as share
    from games
),

final as (
    select
        s.game,
        s.run_id,
        g.players,
        p.focal,
        p.focal_spec,
        p.field,
        p.field_spec,
        s.seat,
        count(*) as n_plays,
        count(*) filter (where s.winner) as wins,
        sum(case when s.winner then w.share else 0 end) as win_share_sum,
        sum(s.score) as score_sum,
        sum(s.score * s.score) as score_sq_sum
    from seats as s
    join pairs as p
        on s.game = p.game and s.run_id = p.run_id and s.policy_spec = p.focal_spec
    join win_shares as w
        on s.game = w.game and s.run_id = w.run_id and s.play_index = w.play_index
    join plays as g
        on s.game = g.game and s.run_id = g.run_id
    group by all
)

select * from final
