-- Burgenland, per part of a run, seat and policy: plays, wins and pieces placed (the score), and the seat's lead
-- over the other seats of its play: lead = players x placed - the play's total placed = (players - 1) x (the
-- seat's pieces placed minus the other seats' mean), an integer so the sums stay exact. A play has one winner
-- (or none when cut by turn_limit or stalled), so the win rate is the win share. Computed one part at a time
-- (per_part): each seat is set beside its play's total, which a part holds few enough plays for.
with seats as (
    select * from stg_burgenland_seats
),

with_play as (
    select
        run_id,
        seat,
        policy,
        policy_spec,
        score,
        winner::int as won,
        count(*) over play as players,
        sum(score) over play as play_score
    from seats
    window play as (partition by run_id, play_index)
),

final as (
    select
        run_id,
        seat,
        policy_spec,
        any_value(policy) as policy,
        count(*) as n_seat_plays,
        sum(won)::bigint as wins,
        sum(score)::bigint as score_sum,
        sum(score::bigint * score) as score_sq_sum,
        sum(players * score - play_score)::bigint as lead_sum,
        sum((players * score - play_score)::bigint * (players * score - play_score)) as lead_sq_sum
    from with_play
    group by run_id, seat, policy_spec
)

select * from final
