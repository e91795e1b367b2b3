-- What if? Per sweep, variant, player count and metric: the variant's mean, the baseline's, and their
-- difference over paired plays (play i of each on the same seed) with its 95% interval and a two-sided
-- p-value (normal approximation: every sweep has thousands of pairs). p_holm adjusts the p over a figure's
-- tests (Holm: every variant x metric of one sweep, player count and line-up, seat figures apart); `equivalent`
-- says the 90% interval lies inside +/- the metric's margin (TOST at 5%: a share 1 percentage point, any other
-- mean 1% of the baseline's mean), so "no change larger than the margin" may be said (docs/statistics.md).
-- The unpaired interval, as if the two runs had independent seeds, stands beside it: how much the common random
-- numbers narrowed it. A sweep run again on other seeds (a workbench job's chunks) is one sweep here, its plays
-- added up (int_sweep_families): sweep_id names the family by its first sweep.
with pair_sums as (
    select * from int_variant_pair_sums
),

sweeps as (
    select * from stg_sweeps
),

families as (
    select * from int_sweep_families
),

sums as (
    -- A family's sweeps (one sweep run on several seeds, int_sweep_families) as one: each variant's paired sums
    -- added over the counted sweeps, its run the one of the sweep with the most plays.
    select
        p.game,
        f.family_id as sweep_id,
        w.variant,
        p.players,
        w.policies,
        p.metric,
        p.seat,
        arg_max(p.run_id, (w.plays, w.sweep_id)) as run_id,
        arg_max(w.sweep_id, (w.plays, w.sweep_id)) as source_sweep_id,
        count(*) as n_sweeps,
        sum(p.n_pairs)::bigint as n_pairs,
        sum(p.v_sum) as v_sum,
        sum(p.v_sq_sum) as v_sq_sum,
        sum(p.b_sum) as b_sum,
        sum(p.b_sq_sum) as b_sq_sum,
        sum(p.d_sum) as d_sum,
        sum(p.d_sq_sum) as d_sq_sum
    from pair_sums as p
    join sweeps as w using (game, sweep_id, run_id)
    join families as f using (game, sweep_id)
    where f.counted
    group by p.game, f.family_id, w.variant, p.players, w.policies, p.metric, p.seat
),

stats as (
    select
        *,
        v_sum / n_pairs as variant_mean,
        b_sum / n_pairs as baseline_mean,
        d_sum / n_pairs as difference,
        sd_from_sums(n_pairs, v_sum, v_sq_sum) as v_sd,
        sd_from_sums(n_pairs, b_sum, b_sq_sum) as b_sd,
        sd_from_sums(n_pairs, d_sum, d_sq_sum) as d_sd
    from sums
),

tested as (
    select
        s.*,
        w.parameters, w.variant_order, w.variant_values, w.is_baseline, w.baseline_run_id,
        case
            when w.is_baseline then null
            when coalesce(s.d_sd, 0) = 0 then (s.difference = 0)::int::double
            else 2 * norm_sf(abs(s.difference) / (s.d_sd / sqrt(s.n_pairs)))
        end as p_value,
        case
            when s.metric in ('seat0_advantage', 'win_share') or s.metric like '%rate' then 0.01
            else 0.01 * abs(s.baseline_mean)
        end as margin
    from stats as s
    join sweeps as w on w.game = s.game and w.sweep_id = s.source_sweep_id and w.run_id = s.run_id
),

adjusted as (
    -- Holm over a figure's tests: the i-th smallest p times (tests - i + 1), kept non-decreasing.
    select
        *,
        case when p_value is not null then max(least(1.0, (n_tests - test_rank + 1) * p_value)) over (
            partition by game, sweep_id, players, policies, p_value is null, seat is null
            order by p_value, metric, variant_order rows unbounded preceding) end as p_holm
    from (select *,
                 count(p_value) over (partition by game, sweep_id, players, policies, seat is null) as n_tests,
                 row_number() over (partition by game, sweep_id, players, policies, p_value is null, seat is null
                                    order by p_value, metric, variant_order) as test_rank
          from tested)
),

final as (
    select
        s.game,
        s.sweep_id,
        s.parameters,
        s.variant,
        s.variant_order,
        s.variant_values,
        s.is_baseline,
        s.players,
        s.policies,
        s.metric,
        s.seat,
        s.run_id,
        s.baseline_run_id,
        s.n_sweeps,
        s.n_pairs as n_plays,
        s.variant_mean,
        s.variant_mean - mean_ci_half(s.v_sd, s.n_pairs) as variant_mean_lo,
        s.variant_mean + mean_ci_half(s.v_sd, s.n_pairs) as variant_mean_hi,
        s.baseline_mean,
        s.difference,
        s.difference - mean_ci_half(s.d_sd, s.n_pairs) as difference_lo,
        s.difference + mean_ci_half(s.d_sd, s.n_pairs) as difference_hi,
        s.p_value,
        s.p_holm,
        s.margin,
        s.difference - mean_ci90_half(s.d_sd, s.n_pairs) as difference_lo90,
        s.difference + mean_ci90_half(s.d_sd, s.n_pairs) as difference_hi90,
        not s.is_baseline and -s.margin < s.difference - mean_ci90_half(s.d_sd, s.n_pairs)
            and s.difference + mean_ci90_half(s.d_sd, s.n_pairs) < s.margin as equivalent,
        s.difference - 1.96 * sqrt((s.v_sd ^ 2 + s.b_sd ^ 2) / s.n_pairs) as unpaired_lo,
        s.difference + 1.96 * sqrt((s.v_sd ^ 2 + s.b_sd ^ 2) / s.n_pairs) as unpaired_hi,
        case when s.d_sd > 0 then sqrt(s.v_sd ^ 2 + s.b_sd ^ 2) / s.d_sd end as pairing_gain
    from adjusted as s
)

select * from final
