-- 7 Steps, the distribution of game length: plays per number of rounds, by side, players, line-up of
-- policies and tile threshold, runs of the same set-up pooled (for histograms).
with counts as (
    select * from int_sevensteps_length_counts
),

runs as (
    select * from int_sevensteps_runs
),

by_rounds as (
    select
        r.side, r.players, r.lineup, r.lineup_spec, r.tile_threshold, r.other_options, c.rounds,
        sum(c.n_plays)::bigint as n_plays_with_rounds
    from counts as c
    join runs as r using (run_id)
    group by all
),

final as (
    select
        'sevensteps' as game,
        side,
        players,
        lineup,
        lineup_spec,
        tile_threshold,
        other_options,
        rounds,
        n_plays_with_rounds,
        sum(n_plays_with_rounds) over setup as n_plays,
        n_plays_with_rounds / sum(n_plays_with_rounds) over setup as share
    from by_rounds
    window setup as (partition by side, players, lineup_spec, tile_threshold, other_options)
)

select * from final
