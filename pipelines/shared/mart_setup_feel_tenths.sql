-- Who leads as the play goes on, per set-up (docs/statistics.md, "How a play feels"): at each tenth of the play, the
-- share of plays (with a single winner) in which the eventual winner led alone, with Wilson's 95%
-- interval; each distinct play counted once (mart_run_setups.counted). Near 1 early: the game is decided early.
with counts as (
    select * from int_feel_run_tenths
),

counted_runs as (
    select game, run_id, setup_id from mart_run_setups where counted
),

setups as (  -- the set-ups' words, as mart_setup_feel gives them
    select game, setup_id, setup_label, players, lineup_kind from mart_setup_feel
),

pooled as (
    select
        c.game,
        r.setup_id,
        c.tenth,
        sum(c.n_plays)::bigint as n_plays,
        sum(c.winner_leads)::bigint as winner_leads
    from counts as c
    join counted_runs as r using (game, run_id)
    group by all
),

final as (
    select
        p.game,
        p.setup_id,
        u.setup_label,
        u.players,
        u.lineup_kind,
        p.tenth,
        p.n_plays,
        p.winner_leads,
        p.winner_leads / p.n_plays as winner_leads_share,
        wilson_lo(p.winner_leads, p.n_plays) as winner_leads_share_lo,
        wilson_hi(p.winner_leads, p.n_plays) as winner_leads_share_hi
    from pooled as p
    join setups as u using (game, setup_id)
)

select * from final
