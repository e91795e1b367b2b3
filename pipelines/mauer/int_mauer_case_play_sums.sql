-- Die Mauer, per part of a run with --events and Baurunde outcome: the Baurunden that resolved that way and the
-- pieces they built, with each play's count squared and multiplied by the play's Baurunden, and the play sums of
-- the Baurunden themselves. The play is the unit (a play's Baurunden share its hands), so a share of Baurunden is
-- a ratio of two sums over plays, whose variance needs these. Every outcome of the rule text has a row, zero where
-- it did not happen in the part: the plays without it still count in its variance.
with events as (
    select * from stg_mauer_events
),

outcomes as (
    select unnest(['builder_builds', 'competitors_build', 'builder_outguessed', 'illegal_plan', 'hollow_1',
                   'hollow_2', 'hollow_3']) as outcome
),

per_play as (
    select run_id, play_index, count(*) as baurunden
    from events
    group by all
),

per_play_outcome as (
    select run_id, play_index, outcome, count(*) as k, sum(pieces_built) as pieces
    from events
    group by all
),

filled as (
    -- every play with every outcome, 0 where it did not happen
    select p.run_id, o.outcome, p.baurunden as m, coalesce(c.k, 0) as k, coalesce(c.pieces, 0) as pieces
    from per_play as p
    cross join outcomes as o
    left join per_play_outcome as c using (run_id, play_index, outcome)
),

final as (
    select
        run_id,
        outcome,
        count(*) as n_plays,
        sum(k)::bigint as n_baurunden_with_outcome,
        sum(k * k)::bigint as outcome_sq_sum,
        sum(k * m)::bigint as outcome_by_baurunden_sum,
        sum(m)::bigint as n_baurunden,
        sum(m * m)::bigint as baurunden_sq_sum,
        sum(pieces)::bigint as pieces_built
    from filled
    group by all
)

select * from final
