-- Burgenland, the joker economy per seat-play by policy and set-up, each distinct play once
-- (int_burgenland_measure_stats): where jokers come from (walls: one per wall in the castle built in; spots:
-- joker spots; tiles: Zwei Joker bonus tiles; exchanged: bought for coins), gained (their sum), used (paid for
-- buildings) and left at the end; means with 95% intervals, the share of seat-plays with at least one (Wilson),
-- and each measure as a share of all the jokers a seat had (the one dealt + gained, so the sources and the dealt
-- joker add up to 1, and so do used and left).
with stats as (
    select * from int_burgenland_measure_stats
),

jokers as (
    select *, sum(total) filter (where measure = 'jokers_gained') over (partition by setup_id, policy_spec) as gained
    from stats
    where among = 'all' and measure like 'jokers_%'
),

final as (
    select
        'burgenland' as game,
        setup_id, setup_label, players, start_hands, policy, policy_spec,
        replace(measure, 'jokers_', '') as measure,
        n_runs,
        n_plays,
        seat_plays,
        mean as mean_jokers,
        mean_lo as mean_jokers_lo,
        mean_hi as mean_jokers_hi,
        holder_share, holder_share_lo, holder_share_hi,
        total / (seat_plays + gained) as share_of_jokers
    from jokers
)

select * from final
