-- Mauerbruch: how often jokers and bans decide pairs, per run with --events (int_mauerbruch_pair_play_sums
-- classifies the pairs). A share of pairs is a ratio of two sums over plays (pairs of a kind / pairs), and the
-- play is the unit: a play's pairs share its deal, so they are not independent draws. The interval is Wilson's at
-- the effective number of pairs (macros ratio_share_lo/hi: the ratio estimator's variance over plays, k and m a
-- play's pairs of the kind and all its pairs); where nothing varies, the pairs themselves.
with pair_sums as (
    select * from int_mauerbruch_pair_play_sums
),

games as (
    select * from stg_mauerbruch_games
),

plays as (
    select run_id, count(*) as n_plays
    from games
    group by all
),

sums as (
    select
        run_id,
        sum(n_pairs)::bigint as n_pairs,
        sum(pairs_sq_sum)::bigint as pairs_sq_sum,
        sum(doubles)::bigint as doubles,
        sum(jokers)::bigint as jokers,
        sum(jokers_sq_sum)::bigint as jokers_sq_sum,
        sum(jokers_by_pairs_sum)::bigint as jokers_by_pairs_sum,
        sum(ban_pairs)::bigint as ban_pairs,
        sum(ban_decided)::bigint as ban_decided,
        sum(ban_decided_sq_sum)::bigint as ban_decided_sq_sum,
        sum(ban_decided_by_pairs_sum)::bigint as ban_decided_by_pairs_sum,
        sum(ban_in_force)::bigint as ban_in_force,
        sum(swaps)::bigint as swaps
    from pair_sums
    group by all
),

ratios as (
    select
        s.*,
        p.n_plays,
        s.jokers / s.n_pairs as joker_share,
        s.ban_decided / s.n_pairs as ban_decided_share
    from sums as s
    join plays as p using (run_id)
),

final as (
    select
        'mauerbruch' as game,
        run_id,
        n_pairs,
        n_plays,
        doubles / n_pairs as double_share,
        joker_share,
        ratio_share_lo(jokers, jokers_sq_sum, jokers_by_pairs_sum, n_pairs, pairs_sq_sum) as joker_share_lo,
        ratio_share_hi(jokers, jokers_sq_sum, jokers_by_pairs_sum, n_pairs, pairs_sq_sum) as joker_share_hi,
        ban_pairs / n_pairs as ban_pair_share,
        ban_decided_share,
        ratio_share_lo(ban_decided, ban_decided_sq_sum, ban_decided_by_pairs_sum, n_pairs, pairs_sq_sum)
            as ban_decided_share_lo,
        ratio_share_hi(ban_decided, ban_decided_sq_sum, ban_decided_by_pairs_sum, n_pairs, pairs_sq_sum)
            as ban_decided_share_hi,
        ban_in_force / n_pairs as ban_in_force_share,
        swaps / n_pairs as swap_share
    from ratios
)

select * from final
