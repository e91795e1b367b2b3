-- 7 Steps, what each special tile is worth, from the turns of runs with events, by policy, per set-up: how
-- often each tile (build-aid B1-B5, victory-point S1-S10) was taken and played, the share of takings that
-- ended in a play (a seat holds at most one tile of each kind, so each taking is played or held to the end),
-- the mean score of the turns it was played in against the turns of the same policy that played no tile of its
-- kind (difference with a 95% Welch interval), the discs placed, and the bonus paid. Observational: the policy
-- chooses when to play a tile, so the difference is what playing it went with, not what it caused.
with turn_sums as (
    select * from int_sevensteps_turn_sums
),

event_runs as (
    -- Per set-up and seed the longest run with events: a shorter one repeats its plays. (mart_run_setups'
    -- counted run may be a longer run without events, which has no turns.)
    select
        run_id, setup_id, setup_label, players, lineup_kind, n_plays,
        option_values ->> 'side' as side,
        (option_values ->> 'tile_threshold')::int as tile_threshold
    from mart_run_setups
    where game = 'sevensteps' and events
    qualify row_number() over (partition by setup_id, seed order by n_plays desc, run_id) = 1
),

turns as (
    select r.setup_id, t.*
    from turn_sums as t
    join event_runs as r using (run_id)
),

plays as (
    select
        setup_id, setup_label, players, lineup_kind, side, tile_threshold,
        count(*) as n_runs,
        sum(n_plays)::bigint as n_plays
    from event_runs
    group by all
),

played as (
    select
        setup_id, policy_spec, 'aid' as kind, aid as tile,
        any_value(policy) as policy,
        sum(n_turns)::bigint as n, sum(score_sum)::bigint as s, sum(score_sq_sum)::hugeint as ss,
        sum(placed_sum)::bigint as placed_s, sum(bonus_points_sum)::bigint as bonus_s
    from turns
    where aid <> 'none'
    group by all
    union all
    select
        setup_id, policy_spec, 'bonus' as kind, bonus as tile,
        any_value(policy) as policy,
        sum(n_turns)::bigint as n, sum(score_sum)::bigint as s, sum(score_sq_sum)::hugeint as ss,
        sum(placed_sum)::bigint as placed_s, sum(bonus_points_sum)::bigint as bonus_s
    from turns
    where bonus <> 'none'
    group by all
),

baseline as (
    -- The turns of the policy that played no tile of the kind.
    select
        setup_id, policy_spec, kind,
        sum(n_turns)::bigint as base_n, sum(score_sum)::bigint as base_s, sum(score_sq_sum)::hugeint as base_ss,
        sum(placed_sum)::bigint as base_placed_s
    from turns, (values ('aid'), ('bonus')) as kinds(kind)
    where (kind = 'aid' and aid = 'none') or (kind = 'bonus' and bonus = 'none')
    group by all
),

taken as (
    select setup_id, policy_spec, taken as kind, taken_tile as tile, any_value(policy) as policy,
           sum(n_turns)::bigint as n_taken
    from turns
    where taken_tile <> 'none'
    group by all
),

tiles as (
    select
        setup_id, policy_spec, kind, tile,
        coalesce(t.policy, p.policy) as policy,
        coalesce(t.n_taken, 0) as n_taken,
        coalesce(p.n, 0) as n_played,
        p.s, p.ss, p.placed_s, p.bonus_s
    from taken as t
    full join played as p using (setup_id, policy_spec, kind, tile)
),

stats as (
    select
        x.*,
        x.s / nullif(x.n_played, 0) as mean_turn_score,
        sd_from_int_sums(x.n_played, x.s, x.ss) as sd,
        b.base_n,
        b.base_s / b.base_n as base_mean_turn_score,
        sd_from_int_sums(b.base_n, b.base_s, b.base_ss) as base_sd,
        b.base_placed_s / b.base_n as base_mean_placed
    from tiles as x
    left join baseline as b using (setup_id, policy_spec, kind)
),

final as (
    select
        'sevensteps' as game,
        s.setup_id,
        p.setup_label,
        p.players,
        p.lineup_kind,
        p.side,
        p.tile_threshold,
        s.policy,
        s.policy_spec,
        s.kind,
        s.tile,
        p.n_runs,
        p.n_plays,
        s.n_taken,
        s.n_played,
        s.n_played / nullif(s.n_taken, 0) as played_share,
        wilson_lo(s.n_played, nullif(s.n_taken, 0)) as played_share_lo,
        wilson_hi(s.n_played, nullif(s.n_taken, 0)) as played_share_hi,
        s.mean_turn_score,
        s.mean_turn_score - mean_ci_half(s.sd, s.n_played) as mean_turn_score_lo,
        s.mean_turn_score + mean_ci_half(s.sd, s.n_played) as mean_turn_score_hi,
        s.placed_s / nullif(s.n_played, 0) as mean_placed,
        s.bonus_s / nullif(s.n_played, 0) as mean_bonus,
        s.base_n as base_turns,
        s.base_mean_turn_score,
        s.base_mean_placed,
        s.mean_turn_score - s.base_mean_turn_score as difference,
        s.mean_turn_score - s.base_mean_turn_score
            - 1.96 * sqrt(s.sd ^ 2 / s.n_played + s.base_sd ^ 2 / s.base_n) as difference_lo,
        s.mean_turn_score - s.base_mean_turn_score
            + 1.96 * sqrt(s.sd ^ 2 / s.n_played + s.base_sd ^ 2 / s.base_n) as difference_hi
    from stats as s
    join plays as p using (setup_id)
)

select * from final
