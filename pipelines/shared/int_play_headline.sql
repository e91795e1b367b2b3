-- Each game's headline figure, one value per play, for the what-if comparisons: the columns every game's
-- contribution has. This file gives no rows; a game adds its own by a model declared with
-- `part_of = "int_play_headline"` in its schema.toml (e.g. Die Mauer's penalty points per seat).
select
    null::varchar as game,
    null::varchar as run_id,
    null::bigint as play_index,
    null::varchar as headline,
    null::double as value
where false
