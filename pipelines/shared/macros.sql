-- Statistics used by several models, defined once. z = 1.96 gives 95% intervals.

-- Wilson score interval for k successes in n trials (clamped: at k = 0 or k = n rounding can stray
-- past 0 or 1 by 1e-17).
create or replace macro wilson_lo(k, n) as greatest(0.0,
    ((k::double / n) + 1.96 * 1.96 / (2 * n)
     - 1.96 * sqrt((k::double / n) * (1 - k::double / n) / n + 1.96 * 1.96 / (4.0 * n * n)))
    / (1 + 1.96 * 1.96 / n));

create or replace macro wilson_hi(k, n) as least(1.0,
    ((k::double / n) + 1.96 * 1.96 / (2 * n)
     + 1.96 * sqrt((k::double / n) * (1 - k::double / n) / n + 1.96 * 1.96 / (4.0 * n * n)))
    / (1 + 1.96 * 1.96 / n));

-- Half width of the normal-approximation interval of a mean.
create or replace macro mean_ci_half(sd, n) as
    case when n > 1 then 1.96 * coalesce(sd, 0) / sqrt(n) else null end;

-- Sample standard deviation from a count, a sum and a sum of squares (for aggregates over runs).
create or replace macro sd_from_sums(n, s, ss) as
    case when n > 1 then sqrt(greatest((ss - s * s / n) / (n - 1), 0)) else null end;

-- Sample standard deviation from a count, a sum and a sum of squares of integers, exactly: n*ss - s*s is
-- worked out in HUGEINT, so nothing cancels however many plays there are.
create or replace macro sd_from_int_sums(n, s, ss) as
    case when n > 1 then sqrt((n::hugeint * ss - s::hugeint * s)::double / (n * (n - 1.0))) else null end;

-- The 95% interval of a mean, from a count, a sum and a sum of squares of integers.
create or replace macro mean_lo_int(n, s, ss) as s / n - mean_ci_half(sd_from_int_sums(n, s, ss), n);
create or replace macro mean_hi_int(n, s, ss) as s / n + mean_ci_half(sd_from_int_sums(n, s, ss), n);

-- The 95% interval of a mean, from a count, a sum and a sum of squares (of fractions and other doubles).
create or replace macro mean_lo(n, s, ss) as s / n - mean_ci_half(sd_from_sums(n, s, ss), n);
create or replace macro mean_hi(n, s, ss) as s / n + mean_ci_half(sd_from_sums(n, s, ss), n);

-- The q-quantile of a distribution given as counts (quantile_disc: the smallest value with at least a share q
-- of the plays at or below it), an aggregate over rows of value, the plays up to it and the plays in all.
create or replace macro disc_quantile(value, up_to, total, q) as min(value) filter (where up_to >= total * q);

-- A run's options ('name=value ...') without the game's match parameters: the options of the tables of one
-- rung that a head-to-head table is compared with (the ladder marts).
create or replace macro without_match_parameters(options, match_parameters) as
    array_to_string(list_filter(string_split(options, ' '),
                                lambda o: o <> '' and not list_contains(match_parameters, split_part(o, '=', 1))),
                    ' ');

-- A mean share (a seat's win share: 1/winners when it wins, else 0) from its count n, sum s and sum of squares ss
-- over plays: Wilson's interval at the effective size, n p(1-p) over the shares' own variance (ties split a win,
-- so shares vary less than wins; without ties it is n; where nothing varies, n). The score test whose inversion it
-- is gives share_p. Twins: simlib/analysis/estimators.py (effective_n, share_interval, share_p_value).
create or replace macro share_effective_n(n, s, ss) as
    case
        when n <= 0 then n::double
        when (s::double / n) * (1 - s::double / n) <= 1e-12 then n::double
        when ss::double / n - (s::double / n) ^ 2 <= 1e-12 * (s::double / n) * (1 - s::double / n) then n::double
        else n * (s::double / n) * (1 - s::double / n) / (ss::double / n - (s::double / n) ^ 2)
    end;

create or replace macro share_lo(n, s, ss) as
    wilson_lo(s::double / n * share_effective_n(n, s, ss), share_effective_n(n, s, ss));

create or replace macro share_hi(n, s, ss) as
    wilson_hi(s::double / n * share_effective_n(n, s, ss), share_effective_n(n, s, ss));

create or replace macro share_p(n, s, ss, p0) as
    2 * norm_sf(abs(s::double / n - p0) / sqrt(p0 * (1 - p0) / share_effective_n(n, s, ss)));

-- The 90% interval's half width of a mean (TOST at 5%: the interval inside +/- a margin rules out a larger change).
create or replace macro mean_ci90_half(sd, n) as
    case when n > 1 then 1.6448536269514722 * coalesce(sd, 0) / sqrt(n) else null end;

-- A ratio of two sums over plays, R = k / m (a mean per seat-play: k a play's measure over a group's seats, m those
-- seats; a share of events counted within plays; cards received over cards promised), with the play as the unit:
-- from n plays, the sums k, m and the sums of squares and cross products kk, km, mm over plays.
-- ratio_pvar: sum (k_i - R m_i)^2 / m^2, the ratio's per-play variance (as share_effective_n's, without n / (n - 1));
-- ratio_se: the ratio estimator's standard error, sqrt(ratio_pvar n / (n - 1)) (null with one play); a mean's
-- interval is R -/+ 1.96 ratio_se (ratio_mean_lo, ratio_mean_hi). A share gets Wilson's interval at the effective
-- size R(1 - R) / ratio_pvar, the m units themselves where nothing varies: with one unit a play, exactly
-- share_lo's. Twins: simlib/analysis/estimators.py (ratio_se, ratio_share_interval).
create or replace macro ratio_pvar(k, kk, km, m, mm) as
    greatest(kk - 2 * (k::double / m) * km + (k::double / m) ^ 2 * mm, 0) / (m::double * m);

create or replace macro ratio_se(n, k, kk, km, m, mm) as
    case when n > 1 and m > 0 then sqrt(ratio_pvar(k, kk, km, m, mm) * n / (n - 1.0)) end;

create or replace macro ratio_mean_lo(n, k, kk, km, m, mm) as k::double / m - 1.96 * ratio_se(n, k, kk, km, m, mm);

create or replace macro ratio_mean_hi(n, k, kk, km, m, mm) as k::double / m + 1.96 * ratio_se(n, k, kk, km, m, mm);

create or replace macro ratio_effective_n(k, kk, km, m, mm) as
    case
        when (k::double / m) * (1 - k::double / m) <= 1e-12 then m::double
        when ratio_pvar(k, kk, km, m, mm) <= 1e-12 * (k::double / m) * (1 - k::double / m) / m then m::double
        else (k::double / m) * (1 - k::double / m) / ratio_pvar(k, kk, km, m, mm)
    end;

create or replace macro ratio_share_lo(k, kk, km, m, mm) as
    wilson_lo(k::double / m * ratio_effective_n(k, kk, km, m, mm), ratio_effective_n(k, kk, km, m, mm));

create or replace macro ratio_share_hi(k, kk, km, m, mm) as
    wilson_hi(k::double / m * ratio_effective_n(k, kk, km, m, mm), ratio_effective_n(k, kk, km, m, mm));
