-- One row per play: its length, seat 0's win share and every seat's win, win share and score, in seat order, for
-- comparing a sweep's variant with its baseline play by play (int_variant_pair_sums). Computed one part
-- at a time (per_part): each play's seats are gathered into lists.
with games as (
    select * from stg_games
),

seats as (
    select * from stg_seats
),

seat_lists as (
    select
        s.game, s.run_id, s.play_index,
        list(s.winner order by s.seat) as won,
        list(case when s.winner then 1.0 / len(g.winners) else 0.0 end order by s.seat) as shares,
        list(s.score::double order by s.seat) as scores
    from seats as s
    join games as g using (game, run_id, play_index)
    group by all
),

final as (
    select
        g.game,
        g.run_id,
        g.play_index,
        g.players,
        g.turns,
        case when list_contains(g.winners, 0) then 1.0 / len(g.winners) else 0.0 end as seat0_share,
        s.won,
        s.shares,
        s.scores
    from games as g
    join seat_lists as s using (game, run_id, play_index)
)

select * from final
