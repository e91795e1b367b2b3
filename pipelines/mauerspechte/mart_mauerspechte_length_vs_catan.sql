-- Die Mauerspechte against the base game: game length in turns (one player's roll and actions, in both
-- games) at the same table, i.e. the same number of players and the same policy names by seat (the
-- scenario's policies are Catan's taught the scenario). Pooled over the runs of each table from the shared
-- marts, which hold every game's runs keyed by game and run_id: means from each run's n, mean and sd, the
-- medians from the pooled histograms. Tables of Die Mauerspechte without a Catan run have no Catan columns.
-- A `table` model: it reads the shared per-run marts of both games, so it is rebuilt over all runs.
with game_length as (
    select * from mart_game_length
),

game_length_hist as (
    select * from mart_game_length_hist
),

runs as (
    select * from stg_runs
),

run_tables as (
    select
        game,
        run_id,
        players,
        array_to_string(list_transform(string_split(policies, ','), lambda spec: split_part(spec, ':', 1)), ',')
            as policies
    from runs
    where game in ('mauerspechte', 'catan')
),

pooled as (
    select
        t.game,
        t.players,
        t.policies,
        count(*) as n_runs,
        sum(l.n_plays)::bigint as n_plays,
        sum(l.mean_turns * l.n_plays) as turns_sum,
        sum(coalesce(l.sd_turns, 0) ^ 2 * (l.n_plays - 1) + l.mean_turns ^ 2 * l.n_plays) as turns_sq_sum
    from game_length as l
    join run_tables as t using (game, run_id)
    group by all
),

medians as (
    select
        game, players, policies,
        min(turns) filter (where up_to >= total * 0.5) as median_turns
    from (
        select
            *,
            sum(n) over (partition by game, players, policies order by turns) as up_to,
            sum(n) over (partition by game, players, policies) as total
        from (
            select t.game, t.players, t.policies, h.turns, sum(h.n_plays_with_turns) as n
            from game_length_hist as h
            join run_tables as t using (game, run_id)
            group by all
        )
    )
    group by all
),

stats as (
    select
        p.game,
        p.players,
        p.policies,
        p.n_runs,
        p.n_plays,
        p.turns_sum / p.n_plays as mean_turns,
        sd_from_sums(p.n_plays, p.turns_sum, p.turns_sq_sum) as sd_turns,
        m.median_turns
    from pooled as p
    join medians as m using (game, players, policies)
),

final as (
    select
        'mauerspechte' as game,
        s.players,
        s.policies,
        s.n_runs,
        s.n_plays,
        s.mean_turns,
        s.mean_turns - mean_ci_half(s.sd_turns, s.n_plays) as mean_turns_lo,
        s.mean_turns + mean_ci_half(s.sd_turns, s.n_plays) as mean_turns_hi,
        s.median_turns,
        c.n_runs as catan_n_runs,
        c.n_plays as catan_n_plays,
        c.mean_turns as catan_mean_turns,
        c.mean_turns - mean_ci_half(c.sd_turns, c.n_plays) as catan_mean_turns_lo,
        c.mean_turns + mean_ci_half(c.sd_turns, c.n_plays) as catan_mean_turns_hi,
        c.median_turns as catan_median_turns,
        s.mean_turns - c.mean_turns as difference,
        s.mean_turns - c.mean_turns
            - 1.96 * sqrt(s.sd_turns ^ 2 / s.n_plays + c.sd_turns ^ 2 / c.n_plays) as difference_lo,
        s.mean_turns - c.mean_turns
            + 1.96 * sqrt(s.sd_turns ^ 2 / s.n_plays + c.sd_turns ^ 2 / c.n_plays) as difference_hi,
        s.mean_turns / c.mean_turns as ratio
    from stats as s
    left join stats as c
        on c.game = 'catan' and c.players = s.players and c.policies = s.policies
    where s.game = 'mauerspechte'
)

select * from final
