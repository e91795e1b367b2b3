-- Per run and seat: how one `focal` policy fares at a table of another (`field`), for runs where
-- exactly one seat plays a different policy from the rest, or everybody plays the same policy.
-- Sums (from int_seat_policy_sums, added up over the run's parts), so that mart_policy_strength can
-- add runs up.
with part_sums as (
    select * from int_seat_policy_sums
),

runs as (
    select game, run_id, players from stg_runs
),

sums as (
    select
        game, run_id, seat, policy_spec,
        any_value(policy) as policy,
        sum(n_plays)::bigint as n_plays,
        sum(wins)::bigint as wins,
        sum(win_share_sum) as win_share_sum,
        sum(score_sum) as score_sum,
        sum(score_sq_sum) as score_sq_sum
    from part_sums
    group by all
),

seats_per_policy as (
    -- How many seats of each play a policy holds (seat numbers may rotate from play to play; the
    -- policies of the table positions do not): its seat-plays over the run's plays.
    select
        s.game, s.run_id, s.policy_spec,
        any_value(s.policy) as policy,
        sum(s.n_plays) / (any_value(t.n_seat_plays) / any_value(r.players)) as n_seats
    from sums as s
    join runs as r using (game, run_id)
    join (select game, run_id, sum(n_plays) as n_seat_plays from sums group by all) as t using (game, run_id)
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

final as (
    select
        s.game,
        s.run_id,
        r.players,
        p.focal,
        p.focal_spec,
        p.field,
        p.field_spec,
        s.seat,
        s.n_plays,
        s.wins,
        s.win_share_sum,
        s.score_sum,
        s.score_sq_sum
    from sums as s
    join pairs as p
        on s.game = p.game and s.run_id = p.run_id and s.policy_spec = p.focal_spec
    join runs as r
        on s.game = r.game and s.run_id = r.run_id
)

select * from final
