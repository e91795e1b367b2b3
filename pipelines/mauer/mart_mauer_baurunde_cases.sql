-- Die Mauer: how Baurunden resolve (builder builds, competitors build, builder outguessed, illegal
-- plan, hollow-hand cases 1-3), per run simulated with --events.
with events as (
    select * from stg_mauer_events
),

counts as (
    select
        run_id,
        outcome,
        count(*) as n_baurunden_with_outcome,
        sum(pieces_built)::bigint as pieces_built
    from events
    group by all
),

plays as (
    select run_id, count(*) as n_plays
    from stg_games
    where game = 'mauer'
    group by all
),

per_run as (
    select e.run_id, count(*) as n_baurunden, any_value(p.n_plays) as n_plays
    from events as e
    join plays as p using (run_id)
    group by all
),

final as (
    select
        'mauer' as game,
        c.run_id,
        c.outcome,
        c.n_baurunden_with_outcome,
        r.n_baurunden,
        r.n_plays,
        c.n_baurunden_with_outcome / r.n_baurunden as share,
        wilson_lo(c.n_baurunden_with_outcome, r.n_baurunden) as share_lo,
        wilson_hi(c.n_baurunden_with_outcome, r.n_baurunden) as share_hi,
        c.n_baurunden_with_outcome / r.n_plays as per_play,
        c.pieces_built
    from counts as c
    join per_run as r using (run_id)
)

select * from final
