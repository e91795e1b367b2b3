"""Mauerbruch's own report sections: how plays end (the game's own question: does the player who breaks the wall
win?), and what decides a pair (jokers, bans, Wunschkarte swaps) in the runs that logged every pair."""

from __future__ import annotations

import polars as pl

from ...analysis.estimators import MARGIN_SHARE, Z90, holm, wilson
from ...analysis.page import (
    Forest,
    GameReport,
    Page,
    ci,
    count,
    interval,
    lead,
    number,
    pct,
    sentence,
    span,
    stack,
    with_n,
)

# The pair measures of mart_mauerbruch_pair_deciders, in words; those with an interval in the mart have _lo/_hi.
PAIR_MEASURES = {"double_share": "a double pair", "joker_share": "a joker made the pair",
                 "ban_decided_share": "a ban made a double single", "ban_pair_share": "a pair of two bans",
                 "swap_share": "taken after a Wunschkarte swap", "ban_in_force_share": "taken while a ban lay open"}


@lead
def endings(page: Page) -> None:
    ends, _ = page.drawn(page.with_labels(page.mart("mart_mauerbruch_endings")))
    runs = page.runs.select("run_id", "focal", options=pl.col("options").fill_null(""))
    # Tables of one policy at the published rules; the opening variants are the What-if page's.
    drawn = (ends.join(runs, on="run_id").filter(pl.col("homogeneous") & (pl.col("options") == ""))
             .drop_nulls("breaker_win_share").sort("players", "label"))
    if drawn.is_empty():
        return
    drawn = _breaker_tests(drawn)
    rows = stack(drawn, {"breaker_win_share": "the breaker's win share\n(% of broken plays, ties split)",
                         "mean_bonus": "cards the break adds (mean)", "blocked_rate": "plays that end blocked (%)"},
                 {"breaker_win_share": 100, "blocked_rate": 100}, row=with_n(), policy="focal", fair=100 * pl.col(
                     "fair_share"))  # the fair share: the breaker's alone
    fig = Forest(rows.with_columns(reference=pl.when(pl.col("panel").str.starts_with("the breaker")).then("fair")),
                 f"{page.game.title}: how plays end, tables of one policy", "95% interval", reference=None,
                 reference_label="a seat's fair share")
    top = drawn.sort("n_plays", "players", descending=True).row(0, named=True)
    blocked = drawn.sort("blocked_rate", descending=True).row(0, named=True)
    breaker = (f"at {top['label']} the player who breaks the wall takes a win share of "
               f"{ci(top, 'breaker_win_share')} of broken plays against a fair {pct(top['fair_share'])}")
    page.figure("endings", fig, "How plays end", sentence(
        breaker, *_breaker_findings(drawn),
        f"the break adds {span(drawn['mean_bonus'], lambda x: number(x, 1))} cards on average, and at most "
        f"{pct(blocked['blocked_rate'])} of plays end blocked ({blocked['label']}, "
        f"{interval(blocked['blocked_rate_lo'], blocked['blocked_rate_hi'])})"))
    page.verdict("own", "Does the player who breaks the wall win?", _breaker_verdict(drawn, top))
    every = page.with_labels(page.mart("mart_mauerbruch_endings")).filter(pl.col("counted"))
    page.split_table("How games end", every.sort("players", "label"), [
        "label", "n_plays", "n_breaks", "breaker_win_share", "breaker_win_share_lo", "breaker_win_share_hi",
        "fair_share", "breaker_p_value", "mean_bonus", "mean_bonus_lo", "mean_bonus_hi", "blocked_rate",
        "blocked_rate_lo", "blocked_rate_hi", "blocked_plays", "seat0_breaks_rate", "max_bonus", "mean_cards_left",
        "mean_opening_pairs", "mean_turns", "deck_name", "run_id"], mart="mart_mauerbruch_endings",
        note="The breaker's win share splits a shared win among its winners, as every comparison with the fair "
             "share does; mean_turns counts the turns after the opening.")


def _breaker_tests(drawn: pl.DataFrame) -> pl.DataFrame:
    """The drawn tables with the breaker's p Holm-adjusted over them (one family: every table the figure draws) and
    whether its 90% interval lies within the margin of the fair share (TOST: no effect larger)."""
    near = []
    for r in drawn.iter_rows(named=True):
        lo, hi = wilson(r["breaker_win_share"] * r["breaker_effective_plays"], r["breaker_effective_plays"], Z90)
        near.append(r["fair_share"] - MARGIN_SHARE < lo and hi < r["fair_share"] + MARGIN_SHARE)
    return drawn.with_columns(p_holm=pl.Series(holm(drawn["breaker_p_value"].to_numpy()), dtype=pl.Float64),
                              within_margin=pl.Series(near, dtype=pl.Boolean))


def _apart(tested: pl.DataFrame) -> tuple[pl.DataFrame, pl.DataFrame]:
    """The tables where the breaker takes more, and those where it takes less, than a fair share (Holm p < 0.05)."""
    shown = tested.filter(pl.col("p_holm") < 0.05)
    return (shown.filter(pl.col("breaker_win_share") > pl.col("fair_share")),
            shown.filter(pl.col("breaker_win_share") < pl.col("fair_share")))


def _breaker_findings(tested: pl.DataFrame) -> list[str]:
    """Where the breaker takes more or less than a fair share (Holm), where the plays rule out an effect larger than
    the margin, and where they are too few to tell."""
    n = tested.height
    more, less = _apart(tested)
    level = tested.filter(pl.col("p_holm") >= 0.05)
    tables = f"{count(n, 'table')} of one policy"
    said = " and ".join(f"{word} at {rows.height} of {tables}" for rows, word in (
        (more, "more than a fair share"), (less, "less than a fair share")) if rows.height)
    near = level.filter(pl.col("within_margin"))["label"].to_list()
    unclear = level.filter(~pl.col("within_margin"))["label"].to_list()
    return [f"the breaker takes {said} (Holm over {count(n, 'test')})" if said else None,
            f"within {MARGIN_SHARE * 100:.0f} percentage point of the fair share at {', '.join(near)}"
            if near else None,
            f"too few plays to tell at {', '.join(unclear)}" if unclear else None]


def _breaker_verdict(tested: pl.DataFrame, top: dict) -> str:
    """The index's answer: at how many tables of one policy the breaker takes more (or less) than a seat's fair
    share, Holm over the tables, and its win share with its interval at the most-played table."""
    n = tested.height
    where = "the only one-policy table" if n == 1 else f"{n} one-policy tables"
    more, less = (rows.height for rows in _apart(tested))
    if more or less:
        at = [f"{word} at " + ("the only one-policy table" if n == 1 else f"{k} of {n} one-policy tables")
              for k, word in ((more, "more than a fair share"), (less, "less than a fair share")) if k]
        said = ("yes: " if more == n else "") + "the breaker takes " + " and ".join(at) + (
            " (Holm over the tables)" if n > 1 else "")
    elif tested["within_margin"].all():
        said = (f"no: within {MARGIN_SHARE * 100:.0f} percentage point of a fair share at "
                + ("the only one-policy table" if n == 1 else f"all {n} one-policy tables"))
    else:
        said = f"too few plays to tell at {where}"
    return sentence(said, f"at {top['label']} the breaker takes a win share of {ci(top, 'breaker_win_share')} of "
                          f"broken plays, fair {pct(top['fair_share'])}")


def pair_deciders(page: Page) -> None:
    deciders = page.with_labels(page.mart("mart_mauerbruch_pair_deciders"))
    if deciders.is_empty():
        return
    # Pairs are logged by runs of their own, whose plays a larger run may hold too: one run per set-up is drawn.
    deciders = deciders.sort("n_pairs", descending=True).unique("label", keep="first").sort("label")
    bare = [m for m in PAIR_MEASURES if f"{m}_lo" not in deciders.columns]  # a measure the mart gives no interval
    shares = stack(deciders.with_columns(pl.col(m).alias(f"{m}{e}") for m in bare for e in ("_lo", "_hi")),
                   PAIR_MEASURES, dict.fromkeys(PAIR_MEASURES, 100), into="row", panel=pl.lit(""),
                   series=with_n(n="n_pairs").str.replace(r"\)$", " pairs)"), policy=pl.col("run_id").replace_strict(
                       dict(page.runs.select("run_id", pl.col("focal").fill_null("mixed")).rows())))
    fig = Forest(shares, f"{page.game.title}: what decides a pair (runs that logged every pair)",
                 "share of pairs taken (%; 95% intervals where drawn, the play the unit)", None, panel_width=7.0)
    rows = deciders.to_dicts()
    page.figure("pair_deciders", fig, "What decides a pair", sentence(
        "a joker makes the pair in " + " and ".join(
            f"{pct(r['joker_share'])} ({interval(r['joker_share_lo'], r['joker_share_hi'])}) of pairs at {r['label']}"
            for r in rows),
        "a ban turns a double into a single in " + " and ".join(
            f"{pct(r['ban_decided_share'])} ({interval(r['ban_decided_share_lo'], r['ban_decided_share_hi'])})"
            for r in rows) + (" respectively" if len(rows) > 1 else "") + ", though one lies open during "
        f"{span(deciders['ban_in_force_share'])} of takes"))
    page.table("What decides pairs", deciders, [
        "label", "n_pairs", "joker_share", "joker_share_lo", "joker_share_hi", "ban_decided_share",
        "ban_decided_share_lo", "ban_decided_share_hi", "double_share", "ban_pair_share", "ban_in_force_share",
        "swap_share", "n_plays", "run_id"], mart="mart_mauerbruch_pair_deciders")


# The sections this game hands to the report, in page order.
REPORT = GameReport(
    sections=(endings, pair_deciders),
    order=20,
)
