-- 7 Steps, what each special tile is worth, from the turns of runs with events, by policy, side, players,
-- line-up and tile threshold: how often each tile (build-aid B1-B5, victory-point S1-S10) was taken and
-- played, the share of takings that ended in a play (a seat holds at most one tile of each kind, so each
-- taking is played or held to the end), the mean score of the turns it was played in against the turns of
-- the same policy that played no tile of its kind (difference with a 95% Welch interval), the discs placed,
-- and the bonus paid. Observational: the policy chooses when to play a tile, so the difference is what
-- playing it went with, not what it caused.
with turn_sums as (
    select * from int_sevensteps_turn_sums
),

runs as (
    select * from int_sevensteps_runs
),

turns as (
    select
        r.side, r.players, r.lineup, r.lineup_spec, r.tile_threshold, r.other_options, t.*
    from turn_sums as t
    join runs as r using (run_id)
),

plays as (
    -- Plays of the set-up's runs with events (the turns come from them only).
    select
        side, players, lineup_spec, tile_threshold, other_options,
        count(*) as n_runs,
        sum(plays)::bigint as n_plays
    from runs
    where events
    group by all
),

played as (
    select
        side, players, lineup, lineup_spec, tile_threshold, other_options, policy_spec,
        'aid' as kind, aid as tile,
        any_value(policy) as policy,
        sum(n_turns)::bigint as n, sum(score_sum)::bigint as s, sum(score_sq_sum)::hugeint as ss,
        sum(placed_sum)::bigint as placed_s, sum(bonus_points_sum)::bigint as bonus_s
    from turns
    where aid <> 'none'
    group by all
    union all
    select
        side, players, lineup, lineup_spec, tile_threshold, other_options, policy_spec,
        'bonus' as kind, bonus as tile,
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
        side, players, lineup_spec, tile_threshold, other_options, policy_spec, 'aid' as kind,
        sum(n_turns)::bigint as n, sum(score_sum)::bigint as s, sum(score_sq_sum)::hugeint as ss,
        sum(placed_sum)::bigint as placed_s
    from turns
    where aid = 'none'
    group by all
    union all
    select
        side, players, lineup_spec, tile_threshold, other_options, policy_spec, 'bonus' as kind,
        sum(n_turns)::bigint as n, sum(score_sum)::bigint as s, sum(score_sq_sum)::hugeint as ss,
        sum(placed_sum)::bigint as placed_s
    from turns
    where bonus = 'none'
    group by all
),

taken as (
    select
        side, players, lineup, lineup_spec, tile_threshold, other_options, policy_spec, taken as kind,
        taken_tile as tile,
        any_value(policy) as policy,
        sum(n_turns)::bigint as n_taken
    from turns
    where taken_tile <> 'none'
    group by all
),

tiles as (
    select
        coalesce(t.side, p.side) as side,
        coalesce(t.players, p.players) as players,
        coalesce(t.lineup, p.lineup) as lineup,
        coalesce(t.lineup_spec, p.lineup_spec) as lineup_spec,
        coalesce(t.tile_threshold, p.tile_threshold) as tile_threshold,
        coalesce(t.other_options, p.other_options) as other_options,
        coalesce(t.policy, p.policy) as policy,
        coalesce(t.policy_spec, p.policy_spec) as policy_spec,
        coalesce(t.kind, p.kind) as kind,
        coalesce(t.tile, p.tile) as tile,
        coalesce(t.n_taken, 0) as n_taken,
        coalesce(p.n, 0) as n_played,
        p.s, p.ss, p.placed_s, p.bonus_s
    from taken as t
    full join played as p
        on t.side = p.side and t.players = p.players and t.lineup_spec = p.lineup_spec
        and t.tile_threshold = p.tile_threshold and t.other_options = p.other_options
        and t.policy_spec = p.policy_spec and t.kind = p.kind and t.tile = p.tile
),

stats as (
    select
        x.*,
        x.s / nullif(x.n_played, 0) as mean_turn_score,
        sd_from_int_sums(x.n_played, x.s, x.ss) as sd,
        b.n as base_turns,
        b.s / nullif(b.n, 0) as base_mean_turn_score,
        sd_from_int_sums(b.n, b.s, b.ss) as base_sd,
        b.placed_s / nullif(b.n, 0) as base_mean_placed
    from tiles as x
    left join baseline as b
        on x.side = b.side and x.players = b.players and x.lineup_spec = b.lineup_spec
        and x.tile_threshold = b.tile_threshold and x.other_options = b.other_options
        and x.policy_spec = b.policy_spec and x.kind = b.kind
),

final as (
    select
        'sevensteps' as game,
        s.side,
        s.players,
        s.lineup,
        s.lineup_spec,
        s.tile_threshold,
        s.other_options,
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
        s.base_turns,
        s.base_mean_turn_score,
        s.base_mean_placed,
        s.mean_turn_score - s.base_mean_turn_score as difference,
        s.mean_turn_score - s.base_mean_turn_score
            - 1.96 * sqrt(s.sd ^ 2 / s.n_played + s.base_sd ^ 2 / s.base_turns) as difference_lo,
        s.mean_turn_score - s.base_mean_turn_score
            + 1.96 * sqrt(s.sd ^ 2 / s.n_played + s.base_sd ^ 2 / s.base_turns) as difference_hi
    from stats as s
    join plays as p using (side, players, lineup_spec, tile_threshold, other_options)
)

select * from final
