-- Length statistics (the game's turns: Baurunden for Die Mauer) of every run and every set-up, from their
-- histograms, so memory does not grow with the number of plays: mean with its 95% interval, standard
-- deviation and exact quantiles (disc_quantile). One computation for both grains: mart_game_length reads the
-- runs', mart_setup_length the set-ups' (each distinct play once).
with units as (
    select game, 'run' as grain, run_id as unit_id, turns, n_plays_with_turns from mart_game_length_hist
    union all
    select game, 'setup' as grain, setup_id as unit_id, turns, n_plays_with_turns from mart_setup_length_hist
),

cumulative as (
    select
        *,
        sum(n_plays_with_turns) over (partition by game, grain, unit_id order by turns) as plays_up_to,
        sum(n_plays_with_turns) over (partition by game, grain, unit_id) as n_plays
    from units
),

sums as (
    select
        game, grain, unit_id,
        any_value(n_plays)::bigint as n_plays,
        sum(turns::bigint * n_plays_with_turns) as s,
        sum(turns::hugeint * turns * n_plays_with_turns) as ss,
        min(turns) as min_turns,
        disc_quantile(turns, plays_up_to, n_plays, 0.05) as p05_turns,
        disc_quantile(turns, plays_up_to, n_plays, 0.25) as p25_turns,
        disc_quantile(turns, plays_up_to, n_plays, 0.5) as median_turns,
        disc_quantile(turns, plays_up_to, n_plays, 0.75) as p75_turns,
        disc_quantile(turns, plays_up_to, n_plays, 0.95) as p95_turns,
        max(turns) as max_turns
    from cumulative
    group by all
),

final as (
    select
        game,
        grain,
        unit_id,
        n_plays,
        s / n_plays as mean_turns,
        mean_lo_int(n_plays, s, ss) as mean_turns_lo,
        mean_hi_int(n_plays, s, ss) as mean_turns_hi,
        sd_from_int_sums(n_plays, s, ss) as sd_turns,
        min_turns,
        p05_turns,
        p25_turns,
        median_turns,
        p75_turns,
        p95_turns,
        max_turns
    from sums
)

select * from final
