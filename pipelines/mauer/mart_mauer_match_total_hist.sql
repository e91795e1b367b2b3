-- Die Mauer: the distribution of penalty totals over a match, by table position, per run.
with match_counts as (
    select * from int_mauer_match_counts
),

final as (
    select
        'mauer' as game,
        run_id,
        player,
        policy,
        total,
        n_matches::bigint as n_matches_with_total,
        sum(n_matches::bigint) over (partition by run_id, player, policy) as n_matches,
        sum(n_matches::bigint) over (partition by run_id, player, policy) * rounds as n_plays,
        n_matches / sum(n_matches::bigint) over (partition by run_id, player, policy) as share
    from match_counts
)

select * from final
