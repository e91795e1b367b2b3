-- 7 Steps, per part of a run, seat and policy: plays, wins, win shares and scores, and the seat's lead over
-- the other seats of its play: lead = players x score - the play's total score = (players - 1) x (the seat's
-- score minus the mean of the other seats' scores), an integer so the sums stay exact; win_lead likewise
-- from winning (1 or 0). Computed one part at a time (per_part): each seat is set beside its play's totals,
-- which a part holds few enough plays for; the marts add the parts and runs up.
with seats as (
    select * from stg_sevensteps_seats
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
        sum(score) over play as play_score,
        sum(winner::int) over play as play_winners
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
        sum(won / play_winners) as win_share_sum,
        sum((won / play_winners) ^ 2) as win_share_sq_sum,
        sum(score)::bigint as score_sum,
        sum(score::bigint * score) as score_sq_sum,
        sum(players * score - play_score)::bigint as lead_sum,
        sum((players * score - play_score)::bigint * (players * score - play_score)) as lead_sq_sum,
        sum(players * won - play_winners)::bigint as win_lead_sum,
        sum((players * won - play_winners)::bigint * (players * won - play_winners)) as win_lead_sq_sum
    from with_play
    group by run_id, seat, policy_spec
)

select * from final
