-- Die Mauer: the distribution of penalty totals over a match, by table position, per run.
with seats as (
    select * from stg_mauer_seats
),

matches as (
    select run_id, match_id, player, any_value(policy) as policy, sum(penalty) as total, count(*) as rounds
    from seats
    group by all
),

counts as (
    select run_id, player, policy, total, count(*) as n_matches_with_total, any_value(rounds) as rounds
    from matches
    group by all
),

final as (
    select
        'mauer' as game,
        run_id,
        player,
        policy,
        total,
        n_matches_with_total,
        sum(n_matches_with_total) over (partition by run_id, player, policy) as n_matches,
        sum(n_matches_with_total) over (partition by run_id, player, policy) * rounds as n_plays,
        n_matches_with_total / sum(n_matches_with_total) over (partition by run_id, player, policy) as share
    from counts
)

select * from final
