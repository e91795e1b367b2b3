-- Per run and seat: how one `focal` policy fares at a table of another (`field`), for runs where exactly one
-- seat plays a different policy from the rest, or everybody plays the same policy (int_run_lineups says
-- which). Sums (from int_seat_policy_sums, added up over the run's parts), so that mart_policy_strength can
-- add runs up. The focal policy's seat may change from play to play (Die Mauer's next round starts with the
-- next player): a row per seat it sat in.
with part_sums as (
    select * from int_seat_policy_sums
),

lineups as (
    select * from int_run_lineups
),

runs as (
    select game, run_id, players from stg_runs
),

sums as (
    select
        game, run_id, seat, policy_spec,
        sum(n_plays)::bigint as n_plays,
        sum(wins)::bigint as wins,
        sum(win_share_sum) as win_share_sum,
        sum(score_sum) as score_sum,
        sum(score_sq_sum) as score_sq_sum
    from part_sums
    group by all
),

final as (
    select
        s.game,
        s.run_id,
        r.players,
        l.focal,
        l.focal_spec,
        l.field,
        l.field_spec,
        s.seat,
        s.n_plays,
        s.wins,
        s.win_share_sum,
        s.score_sum,
        s.score_sq_sum
    from sums as s
    join lineups as l
        on s.game = l.game and s.run_id = l.run_id and s.policy_spec = l.focal_spec
    join runs as r
        on s.game = r.game and s.run_id = r.run_id
    where l.lineup_kind in ('one_policy', 'one_vs_field')
)

select * from final
