"""Burgenland's own report sections. The page leads with issue 13's first question: is the extra colour card each
later seat gets (staggered starting hands) fair compensation? Then the generic sections, length in turns (the game's
one unit) with how plays end, which kind of piece holds players back, the joker economy, wells and the central
castle. Marts are per set-up (each distinct play once); figures draw the policy of each one-policy set-up and the
focal policy of one against a field. Every fairness figure compares the win share with the fair share, and the tests
of one figure share one error rate (Holm, docs/statistics.md)."""

from __future__ import annotations

import polars as pl

from ...analysis import sections
from ...analysis.estimators import MARGIN_SHARE, Z90, Z95, holm, wilson
from ...analysis.page import (
    Forest,
    GameReport,
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
    stack,
)

HANDS = ("staggered", "equal")  # starting hands: seat k gets 4 + k cards, or every seat 4
KINDS = {"wall": "walls", "house": "houses", "palas": "palases", "well": "wells"}
SOURCES = {"walls": "walls", "spots": "joker spots", "tiles": "Zwei Joker tiles", "exchanged": "bought for coins"}
USES = {"used": "paid for buildings", "left": "left at the end"}
VERDICTS = {  # seat 0's win share against the fair share (staggered, equal) -> what the extra card does
    ("fair", "above"): "the extra card compensates: seat 0 is favoured with equal hands, fair with staggered ones",
    ("below", "above"): "the extra card over-compensates: seat 0 is favoured with equal hands, behind with staggered",
    ("above", "above"): "the extra card does not compensate fully: seat 0 stays favoured",
    ("fair", "fair"): "there is no start-player advantage to compensate, and staggered hands keep seat 0 fair",
    ("below", "fair"): "the extra card creates a disadvantage: seat 0 is fair with equal hands, behind otherwise",
    ("above", "fair"): "seat 0 is fair with equal hands and favoured with staggered ones",
    ("below", "below"): "seat 0 is behind with either hands: there is no start-player advantage to compensate",
    ("fair", "below"): "the extra card makes up for a disadvantage: seat 0 is behind with equal hands, fair otherwise",
    ("above", "below"): "the extra card over-compensates a disadvantage: seat 0 is behind with equal hands, favoured "
                        "with staggered",
}
STATES = {"above": "favoured", "below": "behind", "fair": "fair within 1 pp", "unclear": "too few plays to tell"}


def verdict_words(staggered: str, equal: str) -> str:
    """What the extra card does, from seat 0's state under either hands (VERDICTS); where either share is neither
    shown apart from the fair share nor within 1 pp of it, that there are too few plays to tell, and what is shown."""
    if (staggered, equal) in VERDICTS:
        return VERDICTS[staggered, equal]
    said = [f"with {hands} hands " + ("too few plays to tell" if state == "unclear" else f"seat 0 is {STATES[state]}")
            for hands, state in (("staggered", staggered), ("equal", equal))]
    return "too few plays to tell whether the extra card compensates: " + ", ".join(said)


def _own(page: Page, mart: str) -> pl.DataFrame:
    """The rows figures draw: the policy of each one-policy set-up and the focal policy of one against a field,
    with `x`, the set-up's place on the axis (by players, then label)."""
    rows = page.mart(mart)
    if rows.is_empty():
        return rows
    rows = rows.join(page.runs.filter(pl.col("lineup_kind") != "mixed").select(
        "setup_id", "lineup_kind", policy_spec="focal_spec").unique(), on=["setup_id", "policy_spec"])
    labels = rows.select("players", "setup_label").unique().sort("players", "setup_label")["setup_label"].to_list()
    return rows.with_columns(x=pl.col("setup_label").replace_strict(labels, range(len(labels)))).sort("x")


def _named(rows: pl.DataFrame) -> pl.DataFrame:
    """The rows a sentence names (the figure shows every one): tables of one policy, with staggered hands if any."""
    one = rows.filter(pl.col("lineup_kind") == "one_policy")
    return next((r for r in (one.filter(pl.col("start_hands") == "staggered"), one) if not r.is_empty()), rows)


def _forest(page: Page, rows: pl.DataFrame, title: str, panels: dict[str, str], scale: dict | None = None,
            series: str = "policy", words: dict | None = None, **panel: pl.Expr) -> Forest:
    """A Forest of the set-ups' rows (each labelled with its plays, in the order of x), a panel per measure of
    `panels` (or `panel`, an expression): a series per policy in its colour, or per value of `series` in its `words`
    (not a policy: grey)."""
    plays = rows.group_by("x").agg(pl.col("setup_label").first(), pl.col("n_plays").max()).sort("x").rows()
    names = {x: f"{label} (n = {n:,})" for x, label, n in plays}
    order = [pl.col(series).replace_strict(list(words), range(len(words)))] if words else []
    kept = {"series": pl.col(series).replace_strict(words)} if words else {"series": "policy", "policy": "policy"}
    return Forest(stack(rows.sort("x", *order), panels, scale, row=pl.col("x").replace_strict(names), **kept, **panel),
                  f"{page.game.title}: {title}", "95% interval", reference=None,
                  panel_width=7.0 if len(panels) == 1 and not panel else 4.0)  # one panel: as wide as the page allows


def _table(page: Page, title: str, mart: str, columns: str, *order: str, **options) -> None:
    page.table(title, page.mart(mart).sort("players", "setup_label", *order), columns, mart=mart, **options)


def _state(r: dict, hands: str) -> str:
    """Where a seat's win share under `hands` stands against the fair share: above or below where its test, Holm-
    adjusted over the figure's tests, says so; fair where its 90% interval lies within 1 pp of it (TOST); else
    unclear."""
    share, fair, n = r[f"{hands}_win_share"], r["fair_share"], r[f"{hands}_effective_plays"]
    if r[f"{hands}_p_holm"] < 0.05:
        return "above" if share > fair else "below"
    lo, hi = wilson(share * n, n, Z90)
    return "fair" if fair - MARGIN_SHARE < lo and hi < fair + MARGIN_SHARE else "unclear"


def _tested(gaps: pl.DataFrame) -> pl.DataFrame:
    """The figure's rows with their tests adjusted (Holm): every point drawn against the fair share is one family,
    the differences staggered - equal of every seat drawn another; each seat's state under either hands."""
    points = holm([*gaps["staggered_p_value"], *gaps["equal_p_value"]])
    tested = gaps.with_columns(staggered_p_holm=pl.Series(points[:gaps.height]),
                               equal_p_holm=pl.Series(points[gaps.height:]),
                               difference_p_holm=pl.Series(holm(gaps["difference_p_value"].to_numpy())))
    return tested.with_columns(**{f"{hands}_vs_fair": pl.Series([_state(r, hands) for r in tested.iter_rows(
        named=True)], dtype=pl.String) for hands in HANDS})


def _difference(r: dict) -> str:
    """Staggered - equal at a seat in words: a difference where its Holm-adjusted p is below 0.05, none larger than
    the farther end of its 90% interval where that lies within 1 pp, else too few plays to tell."""
    points = (f"{number(100 * r['difference'], 1)} pp "
              f"({interval(100 * r['difference_lo'], 100 * r['difference_hi'], False, 1)})")
    if r["difference_p_holm"] < 0.05:
        return f"staggered − equal = {points}, Holm {p_text(r['difference_p_holm'])}"
    half = Z90 * (r["difference_hi"] - r["difference"]) / Z95
    farthest = max(abs(r["difference"] - half), abs(r["difference"] + half))
    if farthest < MARGIN_SHARE:
        return f"no difference between the hands larger than {number(100 * farthest, 1)} pp"
    return f"too few plays to tell the hands apart: staggered − equal = {points}"


@lead
def start_hands(page: Page) -> None:
    gaps = page.mart("mart_burgenland_start_hands").sort("players", "setup_label", "seat")
    if gaps.is_empty():
        return  # one kind of hands only: the generic seat section says what there is
    gaps = _tested(gaps)
    policies = page.runs.select(staggered_setup_id="setup_id", policy="focal").unique("staggered_setup_id")
    gaps = gaps.join(policies, on="staggered_setup_id", how="left")
    labels = gaps.sort(pl.col("policy") != "random", "players", "setup_label")["setup_label"].unique(
        maintain_order=True).to_list()  # random tables by players first, then the strategies'
    titles = {r["setup_label"]: f"{r['setup_label']}\n({r['staggered_n_plays']:,} plays staggered, "
              f"{r['equal_n_plays']:,} equal)" for r in gaps.unique("setup_label").iter_rows(named=True)}
    order = pl.col("setup_label").replace_strict(labels, range(len(labels)))
    ends = (("value", ""), ("lo", "_lo"), ("hi", "_hi"))
    rows = pl.concat([gaps.sort(order, "seat").select(  # a series per hands, side by side at each seat
        x="seat", panel=pl.col("setup_label").replace_strict(titles), policy="policy",
        reference=100 * pl.col("fair_share"), series=pl.format("{}, {} hands", "policy", pl.lit(hands)),
        open=pl.lit(hands == "equal"),
        **{k: 100 * pl.col(f"{hands}_win_share{e}") for k, e in ends}) for hands in HANDS])
    fig = Points(rows, f"{page.game.title}: win share by seat, staggered hands (seat k: 4 + k cards; filled) or equal "
                 "(open)", "seat (0 = start player)", "win share (%, 95% interval)", height=3.4, most=3, sharey=False)
    zero = gaps.filter(pl.col("seat") == 0).sort(pl.col("setup_label") != "4 random players", -pl.col("equal_n_plays"))
    r = zero.row(0, named=True)
    verdict = verdict_words(r["staggered_vs_fair"], r["equal_vs_fair"])
    last = gaps.filter(pl.col("setup_label") == r["setup_label"]).row(-1, named=True)  # sorted by seat
    paired = ("the interval takes the samples as independent" + (f", but {count(r['same_seed_plays'], 'play')} share "
              "their seeds (the What-if page pairs them)" if r["same_seed_plays"] else ""))
    others = [f"{o['setup_label']}: {pct(o['staggered_win_share'])} staggered ({STATES[o['staggered_vs_fair']]}), "
              f"{pct(o['equal_win_share'])} equal ({STATES[o['equal_vs_fair']]})"
              for o in zero[1:].iter_rows(named=True)]
    page.figure("start_hands", fig, "Start-player advantage: staggered against equal starting hands", sentence(
        f"at {r['setup_label']}, under staggered hands seat 0 wins a share of {ci(r, 'staggered_win_share')} against "
        f"a fair {pct(r['fair_share'])}; under equal hands {ci(r, 'equal_win_share')}: {verdict}",
        f"{_difference(r)}; {paired}",
        f"the last seat, with {r['players'] - 1} more cards, wins a share of {ci(last, 'staggered_win_share')} with "
        f"staggered hands and {ci(last, 'equal_win_share')} with equal ones",
        "seat 0 elsewhere: " + "; ".join(others) if others else None,
        f"every share drawn is tested against the fair share, the tests sharing one 5% error rate (Holm, "
        f"{count(2 * gaps.height, 'test')}), the differences between the hands another ({count(gaps.height, 'test')}); "
        "fair means within 1 pp (90% interval)"))
    page.verdict("own", "Do staggered hands make up for the start?", sentence(
        f"{verdict.split(':')[0]}; at {r['setup_label']} seat 0 wins a share of {ci(r, 'staggered_win_share')} "
        f"staggered, {ci(r, 'equal_win_share')} equal (fair {pct(r['fair_share'])}; Holm over the figure's "
        f"{count(2 * gaps.height, 'test')})"))
    page.table("Staggered against equal starting hands by seat", gaps.sort("players", "setup_label", "seat"),
               "setup_label seat staggered_n_plays equal_n_plays staggered_win_share± staggered_p_holm "
               "staggered_vs_fair equal_win_share± equal_p_holm equal_vs_fair difference± difference_p_holm "
               "same_seed_plays margin_difference±", mart="mart_burgenland_start_hands",
               note="p_holm: the test against the fair share (the difference's against 0), Holm-adjusted over the "
                    "figure's tests; vs_fair: above or below the fair share where that p is below 0.05, fair where "
                    "the 90% interval lies within 1 pp of it, else unclear (too few plays to tell).")


@replaces("game_length")
def length(page: Page) -> None:
    """The generic length section (in turns, the game's one unit), with how the plays ended said under it."""
    sections.game_length(page)
    ends = page.mart("mart_burgenland_length").sort("players", "setup_label")
    if ends.is_empty():
        return
    worst, n = ends.sort("last_piece_rate").row(0, named=True), int(ends["n_plays"].sum())
    page.add_to_sentence("game_length", "every play of every set-up ended with a seat placing its last piece"
                         if worst["last_piece_rate"] == 1 else
                         f"of {n:,} plays, {count(int(ends['n_stalled'].sum()), 'play')} stalled and "
                         f"{count(int(ends['n_turn_limit'].sum()), 'play')} hit the turn limit (no winner); the fewest "
                         f"ended by a last piece at {worst['setup_label']}: {ci(worst, 'last_piece_rate')}")
    _table(page, "How plays end", "mart_burgenland_length", "setup_label n_plays last_piece_rate± n_stalled "
           "n_turn_limit", note="The play ends at once when a seat places its last piece; a stalled play or one cut "
                                "by the turn limit has no winner.")


def pieces_left(page: Page) -> None:
    left = _own(page, "mart_burgenland_pieces_left")
    if left.is_empty():
        return
    fig = _forest(page, left.filter(pl.col("kind") != "any"), "which kind holds players back? Pieces left by the "
                  "seats that did not win", {"left_share": "share of the kind's supply left (%)"}, {"left_share": 100},
                  "kind", KINDS)
    parts = []
    for _, rows in _named(left).group_by("x", maintain_order=True):
        kinds = rows.filter(pl.col("kind") != "any").sort("share_of_left", descending=True, nulls_last=True)
        top, total = kinds.row(0, named=True), rows.filter(pl.col("kind") == "any").row(0, named=True)
        parts.append(f"{top['setup_label']}: {KINDS[top['kind']]}, {pct(top['share_of_left'], 0)} of the "
                     f"{number(total['mean_left'])} pieces a losing seat keeps")
    page.figure("pieces_left", fig, "Which kind holds players back", sentence(
        "the kind left most at the end by the seats that did not win: " + "; ".join(parts)))
    _table(page, "Pieces left by kind (seats that did not win)", "mart_burgenland_pieces_left", "setup_label policy "
           "kind seat_plays supply mean_left± left_share holder_share share_of_left", "policy", "kind", collapsed=True)


def jokers(page: Page) -> None:
    jk = _own(page, "mart_burgenland_jokers")
    if jk.is_empty():
        return
    fig = _forest(page, jk.filter(pl.col("measure").is_in(list(SOURCES | USES))), "the joker economy: where jokers "
                  "come from besides the one dealt, and where they go", {"mean_jokers": ""}, series="measure",
                  words=SOURCES | USES, panel=pl.when(pl.col("measure").is_in(list(SOURCES))).then(pl.lit(
                      "jokers gained per seat-play")).otherwise(pl.lit("jokers used or kept per seat-play")))
    parts = []
    for _, rows in _named(jk).group_by("x", maintain_order=True):
        m = {r["measure"]: r for r in rows.iter_rows(named=True)}
        top = max(SOURCES, key=lambda s: m[s]["mean_jokers"])
        parts.append(f"{m['gained']['setup_label']} {ci(m['gained'], 'mean_jokers', False)}, most from "
                     f"{SOURCES[top]} ({number(m[top]['mean_jokers'])})" + (
                         f", {number(m['exchanged']['mean_jokers'])} bought" if m["exchanged"]["mean_jokers"] else ""))
    kept = _named(jk).filter(pl.col("measure") == "left")["mean_jokers"]
    page.figure("jokers", fig, "The joker economy", sentence(
        "jokers a seat gains besides the one dealt: " + "; ".join(parts),
        f"a seat keeps {number(kept.min())} to {number(kept.max())} at the end"))
    _table(page, "Jokers per seat-play by source and use", "mart_burgenland_jokers", "setup_label policy measure "
           "seat_plays mean_jokers± holder_share share_of_jokers", "policy", "measure", collapsed=True,
           note="Every seat is dealt one joker besides these; 1 + gained = used + left.")


def wells(page: Page) -> None:
    own = _own(page, "mart_burgenland_wells")
    if own.is_empty():
        return
    fig = _forest(page, own, "what wells are worth (8 rewards at most: 5, 4, 3, 3, 2, 2, 1, 1 by order)", {
        "wells_per_play": "wells built per play, all seats", "coins_per_well": "reward coins per well"})
    rich, poor = own.sort("wells_per_play").row(-1, named=True), own.sort("wells_per_play").row(0, named=True)
    short = page.mart("mart_burgenland_win_by_wells").filter(pl.col("wells_built") < pl.col("wells_supply"))
    share = short.group_by("setup_id", "policy_spec").agg(pl.col("seat_play_share").sum())["seat_play_share"].max()
    page.figure("wells", fig, "What wells are worth", sentence(
        f"most wells are built at {rich['setup_label']}: {ci(rich, 'wells_per_play', False)} a play at "
        f"{ci(rich, 'coins_per_well', False)} coins each; the fewest at {poor['setup_label']}: "
        f"{ci(poor, 'wells_per_play', False)} at {ci(poor, 'coins_per_well', False)}",
        None if short.is_empty() else
        f"a seat must place its wells to win: of the {int(short['seat_plays'].sum()):,} seat-plays short of a well "
        f"{int(short['wins'].sum()):,} won, and up to {pct(share, 0)} of a "
        "policy's seats fall short (mart_burgenland_win_by_wells)"))
    _table(page, "Wells per play and per seat", "mart_burgenland_wells", "setup_label policy n_plays wells_per_play± "
           "seat_plays mean_wells builder_share mean_well_coins coins_per_well±", "policy",
           note="A well that is a seat's last piece ends the play unpaid.")


def central(page: Page) -> None:
    own = _own(page, "mart_burgenland_central")
    if own.is_empty():
        return
    fig = _forest(page, own, "how much the central castle is used", {
        "central_per_play": "pieces in the central castle per play",
        "policy_placed_share": "the policy's pieces placed there (%)"}, {"policy_placed_share": 100})
    low, high = own.sort("policy_placed_share").row(0, named=True), own.sort("policy_placed_share").row(-1, named=True)
    most = own.sort("n_plays", "setup_label", descending=[True, False]).row(0, named=True)
    u = next(own.filter((pl.col("users") >= 100) & (pl.col("non_users") >= 100)).sort("n_plays", descending=True)
             .iter_rows(named=True), None)
    page.figure("central", fig, "The central castle", sentence(
        f"at {most['setup_label']} {ci(most, 'central_per_play', False, 1)} pieces a play go to the central "
        f"castle, {ci(most, 'placed_share')} of all pieces placed; {pct(most['play_share'])} of the plays use it",
        f"the share of a policy's pieces placed there ranges from {ci(low, 'policy_placed_share')} "
        f"({low['policy']} at {low['setup_label']}) to {ci(high, 'policy_placed_share')} ({high['policy']} at "
        f"{high['setup_label']})",
        None if u is None else f"observational: at {u['setup_label']} the {u['policy']} seats that built there won "
        f"a share of {ci(u, 'user_win_share')}, those that did not {ci(u, 'non_user_win_share')}, against a fair "
        f"{pct(u['fair_share'])}"))
    _table(page, "The central castle", "mart_burgenland_central", "setup_label policy n_plays central_per_play "
           "play_share placed_share± seat_plays mean_central user_share policy_placed_share± users user_win_share± "
           "non_users non_user_win_share± fair_share", "policy", collapsed=True,
           note="Shares of pieces are ratios of sums (delta-method intervals), the play as the unit; win shares by "
                "use are observational.")


# The sections this game hands to the report, in page order (see simlib/analysis/page.py: lead, replaces).
REPORT = GameReport(
    sections=(start_hands, length, pieces_left, jokers, wells, central),
    order=60,
)
