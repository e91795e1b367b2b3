-- Die Mauer: how many seat-plays ended with each penalty, by seat and policy, per run (for histograms).
with penalty_counts as (
    select * from int_mauer_penalty_counts
),

counts as (
    select run_id, seat, policy, penalty, sum(n_seat_plays)::bigint as n_seat_plays_with_penalty
    from penalty_counts
    group by all
),

final as (
    select
        'mauer' as game,
        run_id,
        seat,
        policy,
        penalty,
        n_seat_plays_with_penalty,
        sum(n_seat_plays_with_penalty) over (partition by run_id, seat, policy) as n_plays,
        n_seat_plays_with_penalty / sum(n_seat_plays_with_penalty) over (partition by run_id, seat, policy) as share
    from counts
)

select * from final
