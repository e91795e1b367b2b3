-- How each run's plays felt (simlib/core/feel.py; docs/statistics.md, "How a play feels"), as sums for
-- mart_setup_feel to pool: per run, the plays with features (a single winner), each feature's sum and sum of
-- squares, the plays won by the single leader at 1/4, 1/2 and 3/4 of the play, and those won from last place at
-- half-time. A game whose games
-- table has no features gives no rows.
with games as (
    select * from lake_games
    where worst_rank is not null
),

final as (
    select
        game::varchar as game,
        run_id::varchar as run_id,
        count(*) as n_plays,
        sum(lead_changes)::bigint as lead_changes_sum,
        sum(lead_changes::bigint * lead_changes) as lead_changes_sq_sum,
        sum(winner_lead_share) as winner_lead_share_sum,
        sum(winner_lead_share * winner_lead_share) as winner_lead_share_sq_sum,
        sum(decided_at) as decided_at_sum,
        sum(decided_at * decided_at) as decided_at_sq_sum,
        sum(decisive_at) as decisive_at_sum,
        sum(decisive_at * decisive_at) as decisive_at_sq_sum,
        sum(drama) as drama_sum,
        sum(drama * drama) as drama_sq_sum,
        sum(max_deficit) as max_deficit_sum,
        sum(max_deficit * max_deficit) as max_deficit_sq_sum,
        count(*) filter (where leader_at_quarter[1] is not null) as q1_leader_plays,
        count(*) filter (where leader_at_quarter[1] = winners[1]) as q1_leader_wins,
        count(*) filter (where leader_at_quarter[2] is not null) as half_leader_plays,
        count(*) filter (where leader_at_quarter[2] = winners[1]) as half_leader_wins,
        count(*) filter (where leader_at_quarter[3] is not null) as q3_leader_plays,
        count(*) filter (where leader_at_quarter[3] = winners[1]) as q3_leader_wins,
        count(*) filter (where winner_last_at_half) as wins_from_last,
        -- one play of each kind for a designer to replay: a comeback from last place, a runaway leader
        min(play_index) filter (where winner_last_at_half) as comeback_play,
        min(play_index) filter (where decided_at = 0) as runaway_play
    from games
    group by all
)

select * from final
