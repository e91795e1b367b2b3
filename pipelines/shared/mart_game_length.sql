-- How long plays last (the game's turns: Baurunden for Die Mauer), per run. Computed from the histogram,
-- so memory does not grow with the number of plays; quantiles are exact (quantile_disc: the smallest
-- length with at least a share q of the plays at or below it).
with hist as (
    select * from mart_game_length_hist
),

cumulative as (
    select
        game, run_id, turns, n_plays_with_turns, n_plays,
        sum(n_plays_with_turns) over (partition by game, run_id order by turns) as plays_up_to
    from hist
),

sums as (
    select
        game, run_id,
        any_value(n_plays)::bigint as n_plays,
        sum(turns::bigint * n_plays_with_turns) as s,
        sum(turns::hugeint * turns * n_plays_with_turns) as ss,
        min(turns) as min_turns,
        min(turns) filter (where plays_up_to >= n_plays * 0.05) as p05_turns,
        min(turns) filter (where plays_up_to >= n_plays * 0.25) as p25_turns,
        min(turns) filter (where plays_up_to >= n_plays * 0.5) as median_turns,
        min(turns) filter (where plays_up_to >= n_plays * 0.75) as p75_turns,
        min(turns) filter (where plays_up_to >= n_plays * 0.95) as p95_turns,
        max(turns) as max_turns
    from cumulative
    group by all
),

final as (
    select
        game,
        run_id,
        n_plays,
        s / n_plays as mean_turns,
        s / n_plays - mean_ci_half(sd_from_int_sums(n_plays, s, ss), n_plays) as mean_turns_lo,
        s / n_plays + mean_ci_half(sd_from_int_sums(n_plays, s, ss), n_plays) as mean_turns_hi,
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
