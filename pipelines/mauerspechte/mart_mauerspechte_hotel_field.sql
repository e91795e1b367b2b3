-- Die Mauerspechte: what the chip swap did for the buildings on a hotel's field, per run and chip. After
-- the swap the field rolls on the hotel's chip instead of its old 2, 3, 11 or 12: field_owner and
-- field_others are the cards the owner's and the opponents' settlements and cities there got, old_owner and
-- old_others what they would have got on the same rolls under the old token (robber counted, bank not).
-- The uplift (field - old) is the swap's gift beside the hotel's own yield; means per hotel with 95% intervals.
with hotels as (
    select * from stg_mauerspechte_hotels
),

plays as (
    select * from int_mauerspechte_plays
),

sums as (
    select
        run_id,
        chip,
        count(*) as n_hotels,
        sum(yield)::bigint as yield_sum,
        sum(field_owner)::bigint as field_owner_sum,
        sum(old_owner)::bigint as old_owner_sum,
        sum(field_others)::bigint as field_others_sum,
        sum(old_others)::bigint as old_others_sum,
        sum(field_owner - old_owner)::bigint as owner_uplift_sum,
        sum((field_owner - old_owner)::bigint * (field_owner - old_owner)) as owner_uplift_sq_sum,
        sum(field_others - old_others)::bigint as others_uplift_sum,
        sum((field_others - old_others)::bigint * (field_others - old_others)) as others_uplift_sq_sum,
        sum(yield + field_owner - old_owner)::bigint as owner_gain_sum,
        sum((yield + field_owner - old_owner)::bigint * (yield + field_owner - old_owner)) as owner_gain_sq_sum
    from hotels
    group by all
),

final as (
    select
        'mauerspechte' as game,
        s.run_id,
        s.chip,
        p.n_plays,
        s.n_hotels,
        s.yield_sum / s.n_hotels as mean_yield,
        s.field_owner_sum / s.n_hotels as mean_field_owner,
        s.old_owner_sum / s.n_hotels as mean_old_owner,
        s.owner_uplift_sum / s.n_hotels as owner_uplift,
        mean_lo_int(s.n_hotels, s.owner_uplift_sum, s.owner_uplift_sq_sum) as owner_uplift_lo,
        mean_hi_int(s.n_hotels, s.owner_uplift_sum, s.owner_uplift_sq_sum) as owner_uplift_hi,
        s.field_others_sum / s.n_hotels as mean_field_others,
        s.old_others_sum / s.n_hotels as mean_old_others,
        s.others_uplift_sum / s.n_hotels as others_uplift,
        mean_lo_int(s.n_hotels, s.others_uplift_sum, s.others_uplift_sq_sum) as others_uplift_lo,
        mean_hi_int(s.n_hotels, s.others_uplift_sum, s.others_uplift_sq_sum) as others_uplift_hi,
        s.owner_gain_sum / s.n_hotels as owner_gain,
        mean_lo_int(s.n_hotels, s.owner_gain_sum, s.owner_gain_sq_sum) as owner_gain_lo,
        mean_hi_int(s.n_hotels, s.owner_gain_sum, s.owner_gain_sq_sum) as owner_gain_hi,
        s.others_uplift_sum / nullif(s.owner_gain_sum + s.others_uplift_sum, 0) as others_share
    from sums as s
    join plays as p using (run_id)
)

select * from final
