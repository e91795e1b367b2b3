-- Catan: cards received from rolls against what the dice promised (pips/36 per roll), per run, building
-- kind and resource. The gap is what the robber and the bank shortage take. The interval is that of the
-- mean difference per seat-play, from sums (a seat-play without a row received and was promised
-- nothing: a difference of 0), so memory does not grow with the plays.
with production as (
    select * from stg_catan_production
),

games as (
    select * from stg_catan_games
),

plays as (
    select run_id, count(*) as n_plays, sum(players)::bigint as n_seat_plays
    from games
    group by all
),

sums as (
    select
        run_id,
        building,
        resource,
        sum(amount)::bigint as received,
        sum(expected) as expected,
        sum(difference) as difference_sum,
        sum(difference * difference) as difference_sq_sum
    from production
    group by all
),

differences as (
    select
        s.*,
        p.n_plays,
        p.n_seat_plays,
        s.difference_sum / p.n_seat_plays as mean_difference,
        sd_from_sums(p.n_seat_plays, s.difference_sum, s.difference_sq_sum) as sd_difference,
        mean_ci_half(sd_from_sums(p.n_seat_plays, s.difference_sum, s.difference_sq_sum), p.n_seat_plays)
            as half_width
    from sums as s
    join plays as p using (run_id)
),

final as (
    select
        'catan' as game,
        run_id,
        building,
        resource,
        n_plays,
        n_seat_plays,
        received,
        expected,
        received / n_plays as received_per_play,
        expected / n_plays as expected_per_play,
        mean_difference,
        mean_difference - half_width as mean_difference_lo,
        mean_difference + half_width as mean_difference_hi,
        sd_difference,
        received / nullif(expected, 0) as ratio,
        1 + (mean_difference - half_width) * n_seat_plays / nullif(expected, 0) as ratio_lo,
        1 + (mean_difference + half_width) * n_seat_plays / nullif(expected, 0) as ratio_hi
    from differences
)

select * from final
