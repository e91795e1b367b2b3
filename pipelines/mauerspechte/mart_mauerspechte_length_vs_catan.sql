-- Die Mauerspechte against the base game: game length in turns (one player's roll and actions, in both
-- games) per Die Mauerspechte set-up, beside the Catan set-up of the same players and line-up at Catan's
-- default options. The same line-up: at every seat the same policy with the same values of the parameters
-- Catan's policy has (the scenario's own, such as max_bid or hotel_site, aside), so builder:max_bid=2:variety=2
-- meets Catan's builder:variety=2 and not builder:variety=3. Both sides come from the shared
-- mart_setup_length: counted runs only (each distinct play once), one set-up never pooled with another (a
-- Die Mauerspechte set-up with hotel_points 2 has its own row; Catan's victory_points 12 is never its
-- partner). A set-up without a Catan partner has null Catan columns. The difference has the normal interval of
-- independent samples and a two-sided p (the page adjusts it over its figure's set-ups, Holm); `equivalent` says
-- whether two one-sided tests at 5% rule out a difference larger than `margin`, 1% of Catan's mean (the 90%
-- interval inside +/- margin: docs/statistics.md). The one model of this folder that reads another game's (Catan's)
-- rows.
with setup_length as (
    select * from mart_setup_length
),

setups as (
    select * from mart_run_setups
),

runs as (
    select * from stg_runs
),

setup_policies as (
    -- the policy specs by seat of each set-up (part of its id, so one list per set-up)
    select s.game, s.setup_id, any_value(s.options) as options, any_value(string_split(r.policies, ',')) as specs
    from setups as s
    join runs as r using (game, run_id)
    where s.counted and s.game in ('mauerspechte', 'catan')
    group by all
),

scenario as (
    select l.*, p.specs
    from setup_length as l
    join setup_policies as p using (game, setup_id)
    where l.game = 'mauerspechte'
),

base as (
    select l.*, p.specs
    from setup_length as l
    join setup_policies as p using (game, setup_id)
    where l.game = 'catan' and p.options = ''
),

partners as (
    select s.setup_id, b.setup_id as catan_setup_id
    from scenario as s
    join base as b
        on b.players = s.players
        and list_bool_and(list_transform(generate_series(1, s.players), lambda i:
            split_part(s.specs[i], ':', 1) = split_part(b.specs[i], ':', 1)
            and list_has_all(string_split(s.specs[i], ':'), string_split(b.specs[i], ':'))))
),

final as (
    select
        'mauerspechte' as game,
        s.setup_id,
        s.setup_label,
        s.players,
        s.lineup_kind,
        s.n_runs,
        s.n_plays,
        s.mean_turns,
        s.mean_turns_lo,
        s.mean_turns_hi,
        s.median_turns,
        c.setup_id as catan_setup_id,
        c.setup_label as catan_setup_label,
        c.n_runs as catan_n_runs,
        c.n_plays as catan_n_plays,
        c.mean_turns as catan_mean_turns,
        c.mean_turns_lo as catan_mean_turns_lo,
        c.mean_turns_hi as catan_mean_turns_hi,
        c.median_turns as catan_median_turns,
        s.mean_turns - c.mean_turns as difference,
        s.mean_turns - c.mean_turns - 1.96 * h.se as difference_lo,
        s.mean_turns - c.mean_turns + 1.96 * h.se as difference_hi,
        case when h.se > 0 then 2 * norm_sf(abs(s.mean_turns - c.mean_turns) / h.se)
            when s.mean_turns = c.mean_turns then 1.0 when h.se = 0 then 0.0 end as p_value,
        h.margin,
        abs(s.mean_turns - c.mean_turns) + 1.6448536269514722 * h.se < h.margin as equivalent,
        s.mean_turns / c.mean_turns as ratio
    from scenario as s
    left join partners as p on p.setup_id = s.setup_id
    left join base as c on c.setup_id = p.catan_setup_id
    cross join lateral (
        select
            sqrt(s.sd_turns ^ 2 / s.n_plays + c.sd_turns ^ 2 / c.n_plays) as se,
            0.01 * c.mean_turns as margin
    ) as h
)

select * from final
