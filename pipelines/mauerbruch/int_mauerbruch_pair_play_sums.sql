-- Mauerbruch, per part of a run with --events: what decided each pair, summed over the part's plays. A joker
-- decides a pair it is part of (it matches any number card); a ban decides a pair whose kind it changed (a
-- same-symbol pair whose only common divisor is the banned 2 or 5 becomes single); two bans make a ban pair.
-- The play is the unit (a play's pairs share its deal): besides the counts, each play's pairs, jokers and
-- ban-decided pairs are summed squared and multiplied, what the shares' intervals over plays need.
with events as (
    select * from stg_mauerbruch_events
),

cards as (
    select
        *,
        split_part(label_a, ':', 1) as symbol_a,
        split_part(label_b, ':', 1) as symbol_b,
        try_cast(split_part(label_a, ':', 2) as int) as value_a,
        try_cast(split_part(label_b, ':', 2) as int) as value_b
    from events
),

classified as (
    select
        *,
        label_a like '%:joker' or label_b like '%:joker' as joker_pair,
        label_a in ('ban2', 'ban5') and label_a = label_b as ban_pair,
        value_a is not null and value_b is not null and symbol_a = symbol_b
            and ((gcd(value_a, value_b) = 2 and ban2) or (gcd(value_a, value_b) = 5 and ban5)) as ban_decided
    from cards
),

per_play as (
    select
        run_id,
        play_index,
        count(*) as pairs,
        count(*) filter (where pair_kind = 'double') as doubles,
        count(*) filter (where joker_pair) as jokers,
        count(*) filter (where ban_pair) as ban_pairs,
        count(*) filter (where ban_decided) as ban_decided,
        count(*) filter (where ban2 or ban5) as ban_in_force,
        count(*) filter (where swapped) as swaps
    from classified
    group by all
),

final as (
    select
        run_id,
        count(*) as plays_with_pairs,
        sum(pairs)::bigint as n_pairs,
        sum(pairs * pairs)::bigint as pairs_sq_sum,
        sum(doubles)::bigint as doubles,
        sum(jokers)::bigint as jokers,
        sum(jokers * jokers)::bigint as jokers_sq_sum,
        sum(jokers * pairs)::bigint as jokers_by_pairs_sum,
        sum(ban_pairs)::bigint as ban_pairs,
        sum(ban_decided)::bigint as ban_decided,
        sum(ban_decided * ban_decided)::bigint as ban_decided_sq_sum,
        sum(ban_decided * pairs)::bigint as ban_decided_by_pairs_sum,
        sum(ban_in_force)::bigint as ban_in_force,
        sum(swaps)::bigint as swaps
    from per_play
    group by all
)

select * from final
