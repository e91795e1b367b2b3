-- Mauerbruch: how often jokers and bans decide pairs, per run with --events. A joker decides a pair it
-- is part of (it matches any number card); a ban decides a pair whose kind it changed (a same-symbol
-- pair whose only common divisor is the banned 2 or 5 becomes single); two bans make a ban pair.
with events as (
    select * from stg_mauerbruch_events
),

plays as (
    select run_id, count(*) as n_plays
    from stg_mauerbruch_games
    group by all
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

final as (
    select
        'mauerbruch' as game,
        run_id,
        count(*) as n_pairs,
        any_value(p.n_plays) as n_plays,
        avg((pair_kind = 'double')::int) as double_share,
        avg(joker_pair::int) as joker_share,
        wilson_lo(count(*) filter (where joker_pair), count(*)) as joker_share_lo,
        wilson_hi(count(*) filter (where joker_pair), count(*)) as joker_share_hi,
        avg(ban_pair::int) as ban_pair_share,
        avg(ban_decided::int) as ban_decided_share,
        wilson_lo(count(*) filter (where ban_decided), count(*)) as ban_decided_share_lo,
        wilson_hi(count(*) filter (where ban_decided), count(*)) as ban_decided_share_hi,
        avg((ban2 or ban5)::int) as ban_in_force_share,
        avg(swapped::int) as swap_share
    from classified
    join plays as p using (run_id)
    group by run_id
)

select * from final
