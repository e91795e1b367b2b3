-- Die Mauer: does the seat (or the table position over a match) matter for penalty points? Per run, every pair of
-- seats compared play by play (compared = 'seat', unit a play) and every pair of table positions compared match by
-- match (compared = 'position', unit a match): b's mean minus a's, with the 95% interval and two-sided p of the
-- paired difference (the seats of a play share its deal: their difference varies over plays, not seats), and its
-- 90% interval for the TOST against a margin of 1% of the run's mean (docs/statistics.md). The report adjusts the
-- p-values over every pair its figure draws (Holm).
with pair_sums as (
    select * from int_mauer_pair_sums
),

sums as (
    select
        run_id,
        compared,
        a,
        b,
        sum(n_units)::bigint as n_units,
        sum(a_sum)::bigint as a_sum,
        sum(b_sum)::bigint as b_sum,
        sum(difference_sum)::bigint as difference_sum,
        sum(difference_sq_sum) as difference_sq_sum
    from pair_sums
    group by all
),

scales as (
    -- the mean a seat (a position) of the run: every seat is in as many pairs, each pair has n units a side
    select run_id, compared, sum(a_sum + b_sum) / (2 * sum(n_units)) as run_mean
    from sums
    group by all
),

plays as (
    -- the plays the run's rows rest on: every play has every pair of seats
    select run_id, max(n_units) as n_plays
    from sums
    where compared = 'seat'
    group by all
),

differences as (
    select
        s.*,
        c.run_mean,
        p.n_plays,
        s.difference_sum / s.n_units as difference,
        sd_from_int_sums(s.n_units, s.difference_sum, s.difference_sq_sum) as sd_difference
    from sums as s
    join scales as c using (run_id, compared)
    join plays as p using (run_id)
),

final as (
    select
        'mauer' as game,
        run_id,
        compared,
        case when compared = 'seat' then 'play' else 'match' end as unit,
        a,
        b,
        n_plays,
        n_units,
        a_sum / n_units as mean_a,
        b_sum / n_units as mean_b,
        difference,
        difference - mean_ci_half(sd_difference, n_units) as difference_lo,
        difference + mean_ci_half(sd_difference, n_units) as difference_hi,
        difference - mean_ci90_half(sd_difference, n_units) as difference_lo90,
        difference + mean_ci90_half(sd_difference, n_units) as difference_hi90,
        case
            when n_units < 2 then null
            when sd_difference > 0 then 2 * norm_sf(abs(difference) / (sd_difference / sqrt(n_units)))
            when difference = 0 then 1.0
            else 0.0
        end as p_value,
        0.01 * run_mean as margin,
        difference - mean_ci90_half(sd_difference, n_units) > -0.01 * run_mean
            and difference + mean_ci90_half(sd_difference, n_units) < 0.01 * run_mean as equivalent
    from differences
)

select * from final
