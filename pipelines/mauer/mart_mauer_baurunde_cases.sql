-- Die Mauer: how Baurunden resolve (builder builds, competitors build, builder outguessed, illegal plan, hollow-hand
-- cases 1-3), per run simulated with --events. A share of Baurunden is a ratio of two sums over plays, and the play
-- is the unit: a play's Baurunden share its hands, so they are not independent draws. The interval is Wilson's at
-- the effective number of Baurunden (macros ratio_share_lo/hi: the ratio estimator's variance over plays, k a
-- play's Baurunden of the outcome, m all its Baurunden); where nothing varies, the Baurunden themselves.
with case_sums as (
    select * from int_mauer_case_play_sums
),

games as (
    select * from stg_games where game = 'mauer'
),

plays as (
    select run_id, count(*) as n_plays
    from games
    group by all
),

sums as (
    select
        run_id,
        outcome,
        sum(n_plays)::bigint as plays_with_events,
        sum(n_baurunden_with_outcome)::bigint as n_baurunden_with_outcome,
        sum(outcome_sq_sum)::bigint as outcome_sq_sum,
        sum(outcome_by_baurunden_sum)::bigint as outcome_by_baurunden_sum,
        sum(n_baurunden)::bigint as n_baurunden,
        sum(baurunden_sq_sum)::bigint as baurunden_sq_sum,
        sum(pieces_built)::bigint as pieces_built
    from case_sums
    group by all
),

final as (
    select
        'mauer' as game,
        e.run_id,
        e.outcome,
        e.n_baurunden_with_outcome,
        e.n_baurunden,
        p.n_plays,
        e.n_baurunden_with_outcome / e.n_baurunden as share,
        ratio_share_lo(e.n_baurunden_with_outcome, e.outcome_sq_sum, e.outcome_by_baurunden_sum,
                       e.n_baurunden, e.baurunden_sq_sum) as share_lo,
        ratio_share_hi(e.n_baurunden_with_outcome, e.outcome_sq_sum, e.outcome_by_baurunden_sum,
                       e.n_baurunden, e.baurunden_sq_sum) as share_hi,
        e.n_baurunden_with_outcome / p.n_plays as per_play,
        e.pieces_built
    from sums as e
    join plays as p using (run_id)
    where e.n_baurunden_with_outcome > 0
)

select * from final
