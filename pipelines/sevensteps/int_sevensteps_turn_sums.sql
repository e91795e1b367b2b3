-- 7 Steps, per part of a run (runs with events only), seat policy, build-aid tile played at the start of
-- the turn, victory-point tile played after placing, and tile taken at the end of it ('none' for none):
-- turns, with the sums of their scores, discs placed and bonus points. Computed one part at a time
-- (per_part): each turn is joined to its seat (the shared stg_seats) for the policy, which a part holds few
-- enough plays for.
with turns as (
    select * from stg_sevensteps_turns
),

seats as (
    select * from stg_seats
),

final as (
    select
        t.run_id,
        s.policy_spec,
        coalesce(t.aid, 'none') as aid,
        coalesce(t.bonus, 'none') as bonus,
        coalesce(t.taken, 'none') as taken,
        coalesce(t.taken_tile, 'none') as taken_tile,
        any_value(s.policy) as policy,
        count(*) as n_turns,
        sum(t.turn_score)::bigint as score_sum,
        sum(t.turn_score::bigint * t.turn_score) as score_sq_sum,
        sum(t.placed)::bigint as placed_sum,
        sum(t.bonus_points)::bigint as bonus_points_sum
    from turns as t
    join seats as s
        on t.run_id = s.run_id and t.play_index = s.play_index and t.seat = s.seat
    group by t.run_id, s.policy_spec, coalesce(t.aid, 'none'), coalesce(t.bonus, 'none'), coalesce(t.taken, 'none'),
        coalesce(t.taken_tile, 'none')
)

select * from final
