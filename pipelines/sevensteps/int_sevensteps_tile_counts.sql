-- 7 Steps, per part of a run, policy, kind of tile (aid = build-aid B1-B5, bonus = victory-point S1-S10,
-- any = both), number taken and whether the seat won: seat-plays, with the sums of the tiles played and held
-- at the end and of the score. Computed one part at a time (per_part): each seat's tiles are set beside its
-- policy, score and win (the shared stg_seats), which a part holds few enough plays for. Counts per value,
-- so the tile marts' means and win rates do not grow with the plays.
with tiles as (
    select * from stg_sevensteps_seats
),

seats as (
    select * from stg_seats
),

seat_tiles as (
    select t.*, s.policy, s.policy_spec, s.winner, s.score::int as score
    from tiles as t
    join seats as s using (run_id, play_index, seat)
),

by_kind as (
    select run_id, policy_spec, policy, 'aid' as kind, aids_taken as taken, aids_played as played,
           aid_left::int as left_over, winner, score
    from seat_tiles
    union all
    select run_id, policy_spec, policy, 'bonus' as kind, bonuses_taken as taken, bonuses_played as played,
           bonus_left::int as left_over, winner, score
    from seat_tiles
    union all
    select run_id, policy_spec, policy, 'any' as kind, tiles_taken as taken, tiles_played as played,
           tiles_left as left_over, winner, score
    from seat_tiles
),

final as (
    select
        run_id,
        policy_spec,
        kind,
        taken,
        winner,
        any_value(policy) as policy,
        count(*) as n_seat_plays,
        sum(played)::bigint as played_sum,
        sum(played::bigint * played) as played_sq_sum,
        sum(left_over)::bigint as left_sum,
        sum(left_over::bigint * left_over) as left_sq_sum,
        count(*) filter (where left_over > 0) as holders,
        sum(score)::bigint as score_sum,
        sum(score::bigint * score) as score_sq_sum
    from by_kind
    group by run_id, policy_spec, kind, taken, winner
)

select * from final
