-- What if? Per sweep, variant, player count and metric: the variant's mean, the baseline's, and their
-- difference over paired plays (play i of each on the same seed) with its 95% interval and a two-sided
-- p-value (normal approximation: every sweep has thousands of pairs). The unpaired interval, as if the two
-- runs had independent seeds, stands beside it: how much the common random numbers narrowed it.
with sums as (
    select * from int_variant_pair_sums
),

sweeps as (
    select * from stg_sweeps
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

final as (
    select
        s.game,
        s.sweep_id,
        w.parameters,
        w.variant,
        w.variant_order,
        w.variant_values,
        w.is_baseline,
        s.players,
        w.policies,
        s.metric,
        s.seat,
        s.run_id,
        w.baseline_run_id,
        s.n_pairs as n_plays,
        s.variant_mean,
        s.variant_mean - mean_ci_half(s.v_sd, s.n_pairs) as variant_mean_lo,
        s.variant_mean + mean_ci_half(s.v_sd, s.n_pairs) as variant_mean_hi,
        s.baseline_mean,
        s.difference,
        s.difference - mean_ci_half(s.d_sd, s.n_pairs) as difference_lo,
        s.difference + mean_ci_half(s.d_sd, s.n_pairs) as difference_hi,
        case
            when w.is_baseline then null
            when coalesce(s.d_sd, 0) = 0 then (s.difference = 0)::int::double
            else 2 * norm_sf(abs(s.difference) / (s.d_sd / sqrt(s.n_pairs)))
        end as p_value,
        s.difference - 1.96 * sqrt((s.v_sd ^ 2 + s.b_sd ^ 2) / s.n_pairs) as unpaired_lo,
        s.difference + 1.96 * sqrt((s.v_sd ^ 2 + s.b_sd ^ 2) / s.n_pairs) as unpaired_hi,
        case when s.d_sd > 0 then sqrt(s.v_sd ^ 2 + s.b_sd ^ 2) / s.d_sd end as pairing_gain
    from stats as s
    join sweeps as w using (game, sweep_id, run_id)
)

select * from final
