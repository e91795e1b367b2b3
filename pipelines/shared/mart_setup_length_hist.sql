-- The distribution of game length per set-up: plays per number of turns, each distinct play counted once
-- (mart_run_setups.counted), for histograms.
with hist as (
    select * from mart_game_length_hist
),

counted_runs as (
    select game, run_id, setup_id from mart_run_setups where counted
),

setups as (
    select distinct game, setup_id, setup_label, players, lineup_kind from mart_run_setups
),

counts as (
    select h.game, d.setup_id, h.turns, sum(h.n_plays_with_turns)::bigint as n_plays_with_turns
    from hist as h
    join counted_runs as d using (game, run_id)
    group by all
),

final as (
    select
        c.game,
        c.setup_id,
        s.setup_label,
        s.players,
        s.lineup_kind,
        c.turns,
        c.n_plays_with_turns,
        sum(c.n_plays_with_turns) over (partition by c.game, c.setup_id) as n_plays,
        c.n_plays_with_turns / sum(c.n_plays_with_turns) over (partition by c.game, c.setup_id) as share
    from counts as c
    join setups as s using (game, setup_id)
)

select * from final
