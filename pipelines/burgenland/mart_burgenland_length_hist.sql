-- Burgenland, the distribution of game length: plays per number of rounds begun, by players, starting hands,
-- line-up of policies and other options, runs of the same set-up pooled (for histograms).
with counts as (
    select * from int_burgenland_length_counts
),

runs as (
    select * from int_burgenland_runs
),

by_rounds as (
    select
        r.players, r.start_hands, r.lineup, r.lineup_spec, r.other_options, c.rounds,
        sum(c.n_plays)::bigint as n_plays_with_rounds
    from counts as c
    join runs as r using (run_id)
    group by all
),

final as (
    select
        'burgenland' as game,
        players,
        start_hands,
        lineup,
        lineup_spec,
        other_options,
        rounds,
        n_plays_with_rounds,
        sum(n_plays_with_rounds) over setup as n_plays,
        n_plays_with_rounds / sum(n_plays_with_rounds) over setup as share
    from by_rounds
    window setup as (partition by players, start_hands, lineup_spec, other_options)
)

select * from final
