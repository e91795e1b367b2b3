-- 7 Steps, per part of a run, policy, kind of tile (aid = build-aid B1-B5, bonus = victory-point S1-S10, any =
-- both), group of the policy's seats and measure: the play as the unit. The seats of a play share its bag, so a
-- per-seat figure's interval counts plays (docs/statistics.md): per play the group's seats (m), the measure summed
-- over them (y) and the seats with the measure above 0 (h), and over the plays the sums of m, y, h, their squares
-- and the products m y, m h: what a ratio of sums (a mean per seat-play = sum y / sum m) needs for its interval
-- clustered by play (int_sevensteps_setup_tiles). Groups (`among`): all (every seat of the policy), with the
-- measures taken, played and held (tiles of the kind held at the end); taken (the seats that took `level` tiles
-- of the kind), with the measures win_share (1 / winners for a winner: ties split) and score. Computed one part at
-- a time (per_part): each seat's tiles are set beside its policy, score and win (the shared stg_seats), which a
-- part holds few enough plays for.
with tiles as (
    select * from stg_sevensteps_seats
),

seats as (
    select * from stg_seats
),

shared as (
    select
        *,
        case when winner then 1.0 / sum(winner::int) over (partition by run_id, play_index) else 0.0 end as win_share
    from seats
),

seat_tiles as (
    select t.*, s.policy, s.policy_spec, s.win_share, s.score
    from tiles as t
    join shared as s using (run_id, play_index, seat)
),

by_kind as (
    select run_id, play_index, policy_spec, policy, 'aid' as kind, aids_taken as taken, aids_played as played,
           aid_left::int as left_over, win_share, score
    from seat_tiles
    union all
    select run_id, play_index, policy_spec, policy, 'bonus' as kind, bonuses_taken as taken,
           bonuses_played as played, bonus_left::int as left_over, win_share, score
    from seat_tiles
    union all
    select run_id, play_index, policy_spec, policy, 'any' as kind, tiles_taken as taken, tiles_played as played,
           tiles_left as left_over, win_share, score
    from seat_tiles
),

measures as (
    unpivot (
        select
            run_id, play_index, policy_spec, policy, kind, taken as level,
            taken::double as taken, played::double as played, left_over::double as held, win_share, score
        from by_kind
    )
    on taken, played, held, win_share, score
    into name measure value amount
),

grouped as (
    select *, 'all' as among from measures where measure in ('taken', 'played', 'held')
    union all
    select *, 'taken' from measures where measure in ('win_share', 'score')
),

per_play as (
    -- the group's seats in each play: `level` counts only for the seats grouped by the tiles they took
    select
        run_id, policy_spec, kind, among, case when among = 'taken' then level else 0 end as level, measure,
        any_value(policy) as policy,
        count(*) as m, sum(amount) as y, count(*) filter (where amount > 0) as h
    from grouped
    group by run_id, play_index, policy_spec, kind, among, case when among = 'taken' then level else 0 end, measure
),

final as (
    select
        run_id, policy_spec, kind, among, level, measure,
        any_value(policy) as policy,
        count(*) as n_plays,
        sum(m)::bigint as seats_sum, sum(m * m)::bigint as seats_sq_sum,
        sum(y) as value_sum, sum(y * y) as value_sq_sum, sum(m * y) as seats_value_sum,
        sum(h)::bigint as holders_sum, sum(h * h)::bigint as holders_sq_sum, sum(m * h)::bigint as seats_holders_sum
    from per_play
    group by run_id, policy_spec, kind, among, level, measure
)

select * from final
