"""7 Steps' own report sections, from the pooled marts (a set-up's side and tile threshold are its option_values): the
skill gap by side leads (the rule text claims the mixed back sides reward skill more), then the start player by side,
length in turns (the game's one unit), the special tiles, the tile threshold. Figures draw tables of one policy at the
rule text's threshold; a policy keeps its colour, the back side is drawn with open markers or dashed lines. Who wins
is told by the win share (a win split among its tied winners), and the tests of one figure or table share one error
rate (Holm); where nothing is significant, the words say whether the plays rule out a change larger than the margin
(docs/statistics.md)."""

from __future__ import annotations

import math

import polars as pl

from ...analysis import page as page_api
from ...analysis.estimators import MARGIN_RELATIVE, MARGIN_SHARE, Z90, Z95, holm
from ...analysis.page import (
    GameReport,
    Histogram,
    Page,
    Points,
    ci,
    count,
    interval,
    lead,
    number,
    p_text,
    pct,
    replaces,
    sentence,
)
from ...analysis.sections import length_verdict, seat_sentence, start_player_verdict
from ...core.setups import distinct_labels

BASE = 7  # the rule text's "weniger als 7 Punkte"
SIDES = {"front": None, "back": "none"}  # the marker face: the back's open (colours are the policies')
METRICS = {"tiles_taken": "tiles taken per seat-play", "score": "score per seat-play", "seat0_advantage":
           "seat 0's win share − fair (percentage points)", "seat0_margin": "seat 0's margin",
           "turns": "turns per play"}


def _setups(page: Page, frame: pl.DataFrame) -> pl.DataFrame:
    """A per-set-up frame with its side, tile threshold and (focal) policy, from mart_run_setups. The policy is
    its name, with the parameters that tell it from another set-up's of the same name ('search (budget=64)')."""
    value = pl.col("option_values").str.json_path_match
    frame = page.with_setups(frame, "focal_spec", side=value("$.side"),
                             tile_threshold=value("$.tile_threshold").cast(pl.Int32))
    return _labelled(_at_text_readings(page, frame), "focal_spec")


def _at_text_readings(page: Page, frame: pl.DataFrame) -> pl.DataFrame:
    """The frame with `text_readings`: its set-up plays the rule text as written but for the side and the tile
    threshold the figures compare (a sweep over a reading belongs to the Readings section, a fix or tune search's
    variant to the What-if and design sections, not beside its baseline in a figure)."""
    compared = ("side", "tile_threshold")
    changed = pl.col("options").str.split(" ").list.eval(pl.element().str.split("=").list.first())
    return page.with_setups(frame, text_readings=changed.list.eval(
        pl.element().is_in(compared) | (pl.element() == "")).list.all())


def _labelled(frame: pl.DataFrame, spec: str) -> pl.DataFrame:
    """`policy` as the policy's name, with the parameters that tell it from another row's policy of the same name
    ('search (budget=64)'), from the column `spec`: two set-ups of one policy must not fall into one."""
    if frame.is_empty():
        return frame
    specs = frame[spec].drop_nulls().unique().sort().to_list()  # null: a mixed line-up, no policy of its own
    return frame.with_columns(policy=pl.col(spec).replace_strict(specs, distinct_labels(specs), default=None))


def _colour(page: Page, policy: str) -> str:
    """A policy's colour, one for all its parameters."""
    return page.colour(policy.split(" (")[0])


def _drawn(frame: pl.DataFrame, most_players: bool = True) -> pl.DataFrame:
    """What a figure draws: tables of one policy at the rule text's threshold and readings (at the most players
    played)."""
    rows = frame.filter((pl.col("lineup_kind") == "one_policy") & (pl.col("tile_threshold") == BASE)
                        & pl.col("text_readings"))
    return rows.filter(pl.col("players") == rows["players"].max()) if most_players else rows


def _by_side(page: Page, ax, frame: pl.DataFrame, x: str, y: str, scale: float = 1.0, spread: float = 0.12) -> None:
    """Points per set-up in its policy's colour, the front's filled left of the back's open."""
    colours = {label: _colour(page, policy) for label, policy in frame.select("setup_label", "policy").rows()}
    for shift, (side, face) in zip((-0.2, 0.2), SIDES.items()):
        page.error_bars(ax, frame.filter(side=side).with_columns(pl.col(x) + shift), x, y, "setup_label", scale,
                        colours, spread, mfc=face)


def _normal_p(difference: float, se: float) -> float:
    """Two-sided p of a normal difference against 0 (1 where nothing varies and it is 0, 0 where it is not)."""
    if not se > 0:
        return 1.0 if difference == 0 else 0.0
    return math.erfc(abs(difference) / se / math.sqrt(2))


def _tested(rows: pl.DataFrame, p: str, margin: pl.Expr) -> pl.DataFrame:
    """Rows of differences (`difference`, `difference_lo`, `difference_hi`: a symmetric 95% interval) with `p_holm`,
    the p of column `p` Holm-adjusted over the rows (the tests of one figure or table share one error rate), and
    `farthest`, the farther end of the 90% interval, and `equivalent`, whether that lies within `margin` (TOST)."""
    half90 = Z90 / Z95 * (pl.col("difference_hi") - pl.col("difference"))
    return rows.with_columns(p_holm=pl.Series(holm(rows[p].to_numpy()), dtype=pl.Float64)).with_columns(
        farthest=pl.max_horizontal((pl.col("difference") - half90).abs(), (pl.col("difference") + half90).abs()),
        margin=margin).with_columns(equivalent=pl.col("farthest") < pl.col("margin"))


def _side_change(rows: pl.DataFrame, what: str, say, lower: str, higher: str) -> str:
    """Back − front per table in words: where it is significant (Holm over the tables), which way and the largest,
    else whether the plays rule out a change larger than the margin. `say` writes a difference, `lower`/`higher`
    what the back does."""
    n, apart = rows.height, rows.filter(pl.col("p_holm") < 0.05)
    if apart.height:
        top = apart.sort(pl.col("difference").abs(), descending=True).row(0, named=True)
        ways = " and ".join(f"{word} at {k}" for k, word in (
            (apart.filter(pl.col("difference") < 0).height, lower), (apart.filter(pl.col("difference") > 0).height,
                                                                     higher)) if k)
        return (f"{what} on the back is {ways} of {count(n, 'table')} played on both sides (Holm over them), most at "
                f"{top['setup_label']}: {say(top['difference'])} ({say(top['difference_lo'])} to "
                f"{say(top['difference_hi'])})")
    if rows["equivalent"].all():
        return f"no change larger than {say(rows['farthest'].max()).lstrip('+')} in {what} between the sides at " \
               f"{'the one table' if n == 1 else f'any of {n} tables'} played on both (90% intervals)"
    wide = rows.sort("farthest", descending=True).row(0, named=True)
    return (f"too few plays to tell whether the side changes {what} ({count(n, 'table')} on both sides, Holm); the "
            f"widest: {wide['setup_label']}, {say(wide['difference_lo'])} to {say(wide['difference_hi'])}")


def _sides(shown: pl.DataFrame, value: str, se: pl.Expr) -> pl.DataFrame:
    """Back − front of `value` per table of one policy played on both sides (players, policy and threshold alike):
    the difference with its 95% interval (independent samples, `se` each side's standard error) and p."""
    keys = ["players", "policy", "tile_threshold"]
    sides = [shown.filter(side=side).select(*keys, "setup_label", v=pl.col(value), se=se) for side in SIDES]
    both = sides[0].join(sides[1], on=keys, suffix="_back")
    rows = both.select(*keys, "setup_label", difference=pl.col("v_back") - pl.col("v"),
                       se=(pl.col("se") ** 2 + pl.col("se_back") ** 2).sqrt(), front=pl.col("v"))
    return rows.with_columns(difference_lo=pl.col("difference") - Z95 * pl.col("se"),
                             difference_hi=pl.col("difference") + Z95 * pl.col("se"),
                             p=pl.Series([_normal_p(d, e) for d, e in rows.select("difference", "se").rows()],
                                         dtype=pl.Float64))


def _lowered(text: str) -> str:
    """A sentence as a part of another: its first letter lower case, its full stop dropped."""
    return text[:1].lower() + text[1:].removesuffix(".")


def _split(page: Page, title: str, frame: pl.DataFrame, columns: str, mart: str) -> None:
    """A table of every set-up, sorted, the tables of one policy first and the mixed ones folded below."""
    frame = frame.sort([c for c in ("players", "setup_label", "seat", "policy", "kind", "taken", "x") if c in frame])
    page.split_table(title, frame, columns, mart)


GAP_WORDS = {"back": "yes", "front": "no, the front rewards it more", "both": "it depends on the policy",
             "small": "no, no change larger than 1% of the front's gap", "unclear": "too few plays to tell"}


def _claim(shown: pl.DataFrame) -> str:
    """The rule text's claim over the pairings drawn (GAP_WORDS): each back − front gap tested, Holm over them; where
    none is significant, whether every one is within 1% of its front gap (TOST) or the plays are too few."""
    apart = shown.filter(pl.col("p_holm") < 0.05)
    agree, against = apart.filter(pl.col("difference") > 0).height, apart.filter(pl.col("difference") < 0).height
    if agree == shown.height:
        return "back"
    if against == shown.height:
        return "front"
    if agree or against:
        return "both"
    return "small" if shown["equivalent"].all() else "unclear"


@lead
def skill_gap(page: Page) -> None:
    gaps, sides = page.mart("mart_sevensteps_skill_gap"), page.mart("mart_sevensteps_skill_gap_sides")
    if gaps.is_empty():
        return
    page.table("Skill gap per pairing", gaps.sort("players", "pairing_label"), "pairing_label n_plays gap± "
               "relative_gap focal_mean_score field_mean_score focal_win_share± field_win_share share_gap "
               "seats_covered seat_balance", mart="mart_sevensteps_skill_gap",
               note="Win shares split a shared win among its tied winners.")
    if sides.is_empty():
        return  # no pairing played on both sides: the rule text's claim cannot be checked
    shown = _tested(sides.filter(tile_threshold=BASE).sort("players", "pairing_label"), "difference_p_value",
                    MARGIN_RELATIVE * pl.col("front_gap").abs()).with_row_index("x")
    page.table("Skill gap: back − front", sides.sort("players", "pairing_label"), "pairing_label front_n_plays "
               "back_n_plays difference± difference_p_value front_gap back_gap front_relative_gap back_relative_gap "
               "win_share_difference± win_share_difference_p_value", mart="mart_sevensteps_skill_gap_sides")
    if shown.is_empty():
        return
    ids = pl.concat([shown.select("x", "focal", pairing_id=f"{side}_pairing_id") for side in SIDES])
    both = gaps.drop("focal").join(ids, on="pairing_id").with_columns(  # the back beside the front
        pl.col("x") + 0.15 * pl.when(pl.col("side") == "back").then(1).otherwise(-1),
        series=pl.format("{}, {}", "focal", "side"))
    fig, axes = page.subplots(2, width=6.0, height=3.8)
    colours = {f"{focal}, {side}": page.colour(focal) for focal in shown["focal"] for side in SIDES}
    for side, face in SIDES.items():
        page.error_bars(axes[0], both.filter(side=side).drop("n_plays"), "x", "gap", "series", colours=colours,
                        spread=0, mfc=face)
    for (focal,), rows in shown.group_by("focal", maintain_order=True):
        page.error_bars(axes[1], rows, "x", "difference", fmt="D", colours={None: page.colour(focal)})
    axes[1].axhline(0, color="grey", linestyle="--", linewidth=1)
    axes[0].set(title="the skill gap by side (back: open)",
                ylabel="focal score − the field's mean\n(points, paired, 95% interval)")
    axes[1].set(title="above 0: the back rewards skill more", ylabel="back gap − front gap (points)")
    for ax in axes:
        ax.set_xticks(range(shown.height), [lb.replace(" against ", "\nagainst ") for lb in shown["pairing_label"]])
        ax.set_xlim(-0.6, shown.height - 0.4)
    axes[0].legend()
    fig.suptitle(f"{page.game.title}: does the back reward skill more? One focal player, seats rotated")
    word = GAP_WORDS[_claim(shown)]
    said = {r["pairing_label"]: f"{page_api.signed(r['difference'])} points ("
            f"{interval(r['difference_lo'], r['difference_hi'], False, 1)}, Holm {p_text(r['p_holm'])})"
            for r in shown.iter_rows(named=True)}
    won = gaps.filter(pl.col("pairing_id").is_in(ids["pairing_id"].implode()))["focal_win_share"]
    page.figure("skill_gap", fig, "Skill gap by side (the rule text's claim)", sentence(
        f"does the mixed back side reward tactics more, as the rule text claims? {word.capitalize()}: " + "; ".join(
            f"{r['pairing_label']}: the focal player outscores the field by {number(r['front_gap'], 1)} points on the "
            f"front and {number(r['back_gap'], 1)} on the back, back − front {said[r['pairing_label']]}"
            for r in shown.iter_rows(named=True)),
        f"the tests of the {count(shown.height, 'pairing')} share one 5% error rate (Holm); no change means within 1% "
        "of the front's gap (90% interval)",
        f"the focal player's win share is {'100%' if won.min() == 1 else 'at least ' + pct(won.min())} on both sides, "
        "so win shares cannot tell the sides apart: random players are too weak a field"
        if won.min() > 0.99 else None))
    page.verdict("own", "Does the back side reward skill more?", sentence(
        f"{word}; on the back the lone player's lead changes by " + " and ".join(
            f"{said[label]} at {label}" for label in shown["pairing_label"])))


@replaces("seat_advantage")
def start_player(page: Page) -> None:
    seats = _setups(page, page.mart("mart_seat_advantage"))
    if seats.is_empty() or (drawn := _drawn(seats, most_players=False)).is_empty():
        return
    counts = sorted(drawn["players"].unique().to_list())  # a row per side, a panel per player count played
    side = pl.col("side").replace_strict(list(SIDES), range(len(SIDES)))
    fig = Points(drawn.sort(side, "players", "policy", "seat").select(  # n: in the table
        x="seat", series="policy", policy=pl.col("policy").str.split(" (").list.first(), reference=pl.lit(0.0),
        panel=pl.format("{} players, {} sides", "players", pl.col("side").replace({"back": "mixed back"})),
        **{k: 100 * pl.col(f"advantage{e}") for k, e in (("value", ""), ("lo", "_lo"), ("hi", "_hi"))}),
        f"{page.game.title}: is the start player favoured? Tables of one policy, by side",
        "seat (0 = the start player)", "win share − fair share\n(points of %, 95% interval)", "no advantage",
        height=3.3, most=len(counts))
    seat0 = drawn.filter(seat=0)
    sides = _tested(_sides(seat0, "advantage", (pl.col("win_share") * (1 - pl.col("win_share"))
                                               / pl.col("effective_plays")).sqrt()), "p", pl.lit(MARGIN_SHARE))
    page.figure("start_player", fig, "Start-player advantage by side", sentence(*[
        f"at {r['setup_label']} seat 0 wins a share of {ci(r, 'win_share')} against a fair {pct(r['fair_share'])}"
        for r in _drawn(seat0.filter(policy="random")).sort("side", descending=True).to_dicts()],
        _lowered(seat_sentence(drawn)),
        _side_change(sides, "seat 0's win share", lambda d: f"{page_api.signed(100 * d)} pp", "lower", "higher")
        if sides.height else None))
    page.verdict("start_player", "Is the start player favoured?", start_player_verdict(drawn))
    _split(page, "Start player: win share and margin by seat", seats,
           "setup_label seat n_plays win_share± advantage± p_holm win_rate± shared_wins margin±", "mart_seat_advantage")


@replaces("game_length")
def length(page: Page) -> None:
    length = page.mart("mart_sevensteps_length")
    if length.is_empty() or (shown := _drawn(_setups(page, length), most_players=False)).is_empty():
        return
    unit = page.report.turn_name
    drawn = shown.select("setup_id", "policy", dashed=pl.col("side") != "front")
    # each set-up's share of plays by turns, a line in its policy's colour, the back dashed
    fig = Histogram(page.mart("mart_setup_length_hist").join(drawn, on="setup_id"),
                    f"{page.game.title}: game length in {unit}, tables of one policy (the back dashed)",
                    f"{unit} per play")
    sides = _tested(_sides(shown, "mean_turns", (pl.col("mean_turns_hi") - pl.col("mean_turns_lo")) / (2 * Z95)),
                    "p", MARGIN_RELATIVE * pl.col("front").abs())
    fast = shown.sort("mean_turns").row(0, named=True)
    random = _drawn(shown.filter(policy="random")).sort("side", descending=True).to_dicts()
    page.figure("length", fig, f"Game length in {unit}", sentence(*[
        f"{r['setup_label']} play {ci(r, 'mean_turns', False, 1)} {unit} (median {r['median_turns']}, 90% within "
        f"{r['p05_turns']} to {r['p95_turns']}; {number(r['mean_turns'] / r['players'], 1)} rounds of "
        f"{r['players']} turns)" for r in random],
        _side_change(sides, "the length", lambda d: f"{page_api.signed(d)} {unit}", "shorter", "longer")
        if sides.height else None,
        f"the shortest plays are at {fast['setup_label']} ({ci(fast, 'mean_turns', False, 1)} {unit}): strong players "
        "place more discs a turn and empty the bag sooner", "every play ended by the bag, none by the turn limit"
        if length["completion_rate"].min() == 1 else f"at least {pct(length['completion_rate'].min())} of the plays "
        "ended by the bag (not the turn limit)"))
    page.verdict("length", "How long does a play last?", length_verdict(length, unit))
    _split(page, f"Game length in {unit} per set-up", length, "setup_label n_plays mean_turns± median_turns "
           "p05_turns p95_turns sd_turns completion_rate mean_collapses±", "mart_sevensteps_length")


def tiles(page: Page) -> None:
    tiles, wins = (_labelled(_at_text_readings(page, page.mart(m)), "policy_spec")
                   for m in ("mart_sevensteps_tiles", "mart_sevensteps_win_by_tiles"))
    if tiles.is_empty() or (drawn := _drawn(tiles)).is_empty():
        return
    _split(page, "Special tiles per seat-play", tiles, "setup_label policy kind seat_plays taker_share mean_taken± "
           "played_share mean_left holder_share", "mart_sevensteps_tiles")
    _split(page, "Win share by tiles taken (both kinds)", wins := wins.filter(kind="any"),
           "setup_label policy taken seat_plays seat_play_share wins win_share± fair_share mean_score±",
           "mart_sevensteps_win_by_tiles")
    names = list(page.game.policies())
    policies = sorted(set(drawn["policy"]), key=lambda p: (names.index(p.split(" (")[0]), len(p), p))  # 64 < 256
    both = drawn.filter(kind="any").with_columns(x=pl.col("policy").replace_strict(policies, range(len(policies))))
    fig, axes = page.subplots(2, width=6.0, height=3.8)
    _by_side(page, axes[0], both, "x", "mean_taken", spread=0)
    axes[0].set(title="tiles taken per seat-play, both kinds (the back open)", ylabel="tiles (95% interval)")
    axes[0].set_xticks(range(len(policies)), [p.replace(" (", "\n(") for p in policies])
    axes[0].set_xlabel("the table's policy (every seat)")
    shown = _drawn(wins).filter(pl.col("seat_plays") >= 30)
    _by_side(page, axes[1], shown, "taken", "win_share", 100)
    axes[1].axhline(100 / both["players"][0], color="grey", linestyle=":", linewidth=1, label="fair share")
    axes[1].set(title="win share by tiles taken (at least 30 seat-plays; observational)", xlabel="tiles the seat took "
                "in the play", ylabel="win share (%, 95% interval)")
    for ax in axes:
        ax.legend()
    fig.suptitle(f"{page.game.title}: special tiles, {both['players'][0]} players, tables of one policy")
    taken = both.pivot(on="side", index="policy", values="mean_taken").to_dicts()
    shares = {k: drawn.filter(kind=k)["played_share"].drop_nulls() for k in ("aid", "bonus")}
    spans = [(label, rows.row(0, named=True), rows.row(-1, named=True)) for (label,), rows in shown.filter(
        (pl.col("seat_plays") >= 100) & (pl.col("policy") == "random")).sort("setup_label", "taken").group_by(
        "setup_label", maintain_order=True)]  # the strategies take few tiles: their spans say little
    page.figure("tiles", fig, "Special tiles: taken, played, and winning", sentence(
        "a seat takes per play (front / back) " + ", ".join(
            f"{r['policy']} {number(r.get('front'))} / {number(r.get('back'))}" for r in taken),
        f"{interval(shares['aid'].min(), shares['aid'].max())} of the build-aid tiles taken are played, but "
        f"{interval(shares['bonus'].min(), shares['bonus'].max())} of the victory-point tiles: the rest are held to "
        "the end for their points" if len(shares["aid"]) and len(shares["bonus"]) else None,
        "winning by tiles taken is observational (a seat takes a tile after a turn scoring below the threshold, so "
        "many tiles mark weak turns as much as they help)", *[
            f"at {label} a seat that took {few['taken']} wins a share of {ci(few, 'win_share')}, one that took "
            f"{many['taken']} {ci(many, 'win_share')} (fair {pct(few['fair_share'])})"
            for label, few, many in spans if few["taken"] != many["taken"]]))


def tile_value(page: Page) -> None:
    value = _at_text_readings(page, page.mart("mart_sevensteps_tile_value"))
    if value.is_empty():
        return
    value = value.with_columns(x=pl.col("tile").str.slice(1).cast(pl.Int32))
    _split(page, "Special tiles by id (runs with events)", value, "setup_label policy tile n_taken n_played "
           "played_share mean_turn_score mean_bonus base_mean_turn_score difference±", "mart_sevensteps_tile_value")
    shown = _drawn(value, most_players=False).filter(pl.col("n_played").sum().over("setup_id") >= 50)
    if shown.is_empty():
        return
    fig, (ax,) = page.subplots(1, width=8.0, height=4.4)
    _by_side(page, ax, shown.filter(kind="aid"), "x", "difference")
    ax.axhline(0, color="grey", linestyle="--", linewidth=1)
    ax.set(xlabel="build-aid tile B1-B5", xticks=range(1, 6), ylabel="turn score − the policy's turns without one\n"
           "(points, 95% Welch interval)", title=f"{page.game.title}: a played build-aid tile (observational)")
    ax.legend()
    top = shown.sort(pl.col("policy") == "random", "setup_label")["setup_label"][0]  # a strong policy's own table
    aids = shown.filter(pl.col("difference").is_not_null(), setup_label=top, kind="aid")
    held = shown.filter(pl.col("n_taken") >= 10, setup_label=top, kind="bonus").sort("played_share")
    page.figure("tile_value", fig, "What the special tiles are worth", sentence(
        f"observational, not causal (the policy chooses when to play a tile): at {top}, turns with a build-aid tile "
        "scored " + ", ".join(f"{r['tile']} {r['difference']:+.1f} (" + interval(
            r["difference_lo"], r["difference_hi"], as_pct=False, digits=1) + ")" for r in aids.sort("x").to_dicts())
        + " points against the turns without one" if not aids.is_empty() else None,
        f"of the victory-point tiles taken, {held['tile'][-1]} was played most often ({pct(held['played_share'][-1])})"
        f" and {held['tile'][0]} least ({pct(held['played_share'][0])} of {held['n_taken'][0]} takings)"
        if held.height > 1 else None))


def _threshold_change(r: dict) -> str:
    """One metric's change in words: significant where its Holm-adjusted p is below 0.05, none larger than the
    farther end of its 90% interval where that lies within the metric's margin, else too few plays to tell."""
    change = (f"{r['difference']:+.2f} ({interval(r['difference_lo'], r['difference_hi'], False, 2)})")
    if r["p_holm"] < 0.05:
        return f"{r['metric']} {change}, Holm {p_text(r['p_holm'])}"
    if r["equivalent"]:
        return f"no change larger than {number(r['farthest'])} in {r['metric']}"
    return f"too few plays to tell in {r['metric']}: {change}"


def threshold(page: Page) -> None:
    effect = page.mart("mart_sevensteps_threshold")
    if effect.is_empty():
        return
    points = pl.col("metric") == "seat0_advantage"  # a share: in percentage points, as every other table has it
    order = pl.col("metric").replace_strict(list(METRICS), range(len(METRICS)))
    scaled = [f"{v}{end}" for v in ("base_value", "value", "difference") for end in ("", "_lo", "_hi")] + ["margin"]
    effect = _tested(effect.sort("setup_label", order).with_columns(
        pl.when(points).then(pl.col(c) * 100).otherwise(pl.col(c)) for c in scaled), "p_value", pl.col("margin")
    ).with_columns(pl.col("metric").replace_strict(METRICS))
    columns = "setup_label metric base_n n base_value± value± difference± p_value p_holm margin equivalent"
    page.table(f"Tile threshold against the rule text's {BASE}", effect, columns, mart="mart_sevensteps_threshold",
               note=sentence(*[f"at {label} against {BASE}: " + "; ".join(_threshold_change(r) for r in rows.to_dicts())
                               for (label,), rows in effect.group_by("setup_label", maintain_order=True)],
                             f"intervals for independent samples; the table's {count(effect.height, 'test')} share one "
                             "5% error rate (Holm); no change means within the margin (90% interval: 1 pp for seat "
                             "0's advantage, 1% of the base value otherwise)"))


# The sections this game hands to the report, in page order (see simlib/analysis/page.py: lead, replaces).
REPORT = GameReport(
    sections=(skill_gap, start_player, length, tiles, tile_value, threshold),
    order=50,
)
