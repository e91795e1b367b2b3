"""Mauerbruch's own report sections: how plays end (the game's own question: does the player who breaks the wall
win?), and what decides a pair (jokers, bans, Wunschkarte swaps) in the runs that logged every pair."""

from __future__ import annotations

import numpy as np
import polars as pl

from ...analysis.page import Page, ci, count, error_bar_lengths, interval, lead, number, pct, sentence

# The pair measures of mart_mauerbruch_pair_deciders, in words; those with an interval in the mart have _lo/_hi.
PAIR_MEASURES = {"double_share": "a double pair", "joker_share": "a joker made the pair",
                 "ban_decided_share": "a ban made a double single", "ban_pair_share": "a pair of two bans",
                 "swap_share": "taken after a Wunschkarte swap", "ban_in_force_share": "taken while a ban lay open"}


def _rate_panel(ax, rows: pl.DataFrame, column: str, colours: list[str], scale: float = 100.0) -> None:
    """One point a set-up (top down in the rows' order) with its 95% interval, in its policy's colour."""
    y = np.arange(rows.height)[::-1]
    value = rows[column].to_numpy().astype(float)
    err = error_bar_lengths(value, rows[f"{column}_lo"], rows[f"{column}_hi"])
    for k in range(rows.height):
        ax.errorbar(scale * value[k], y[k], xerr=scale * err[:, k:k + 1], fmt="o", color=colours[k], capsize=3)


@lead
def endings(page: Page) -> None:
    ends, _ = page.drawn(page.with_labels(page.mart("mart_mauerbruch_endings")))
    runs = page.runs.select("run_id", "focal", options=pl.col("options").fill_null(""))
    # Tables of one policy at the published rules; the opening variants are the What-if page's.
    drawn = (ends.join(runs, on="run_id").filter(pl.col("homogeneous") & (pl.col("options") == ""))
             .drop_nulls("breaker_win_rate").sort("players", "label"))
    if drawn.is_empty():
        return
    colours = [page.colour(p) for p in drawn["focal"]]
    y = np.arange(drawn.height)[::-1]
    fig, axes = page.subplots(3, width=3.3, height=0.42 * drawn.height + 1.6, sharey=True)
    _rate_panel(axes[0], drawn, "breaker_win_rate", colours)
    axes[0].scatter(100 / drawn["players"], y, marker="|", s=300, color="grey", label="a seat's fair share")
    axes[0].set(xlabel="the breaker wins (% of broken plays)", xlim=(0, 100))
    axes[0].legend()
    _rate_panel(axes[1], drawn, "mean_bonus", colours, scale=1.0)
    axes[1].set_xlabel("cards the break adds (mean)")
    _rate_panel(axes[2], drawn, "blocked_rate", colours)
    axes[2].set(xlabel="plays that end blocked (%)", xlim=(0, None))
    axes[0].set_yticks(y, [f"{label} (n = {n:,})" for label, n in drawn.select("label", "n_plays").rows()])
    fig.suptitle(f"{page.game.title}: how plays end, tables of one policy (95% intervals)", y=1.02)
    above = drawn.filter(pl.col("breaker_win_rate_lo") > 1 / pl.col("players"))
    top = drawn.sort("n_plays", "players", descending=True).row(0, named=True)
    blocked = drawn.sort("blocked_rate", descending=True).row(0, named=True)
    tables = f"{count(drawn.height, 'table')} of one policy"
    breaker = (f"at {top['label']} the player who breaks the wall wins {pct(top['breaker_win_rate'])} "
               f"({interval(top['breaker_win_rate_lo'], top['breaker_win_rate_hi'])}) of broken plays against a "
               f"fair {pct(1 / top['players'])}")
    page.figure("endings", fig, "How plays end", sentence(
        breaker, f"significantly more than a seat's fair share at {above.height} of {tables}",
        f"the break adds {number(drawn['mean_bonus'].min(), 1)} to {number(drawn['mean_bonus'].max(), 1)} cards on "
        f"average, and at most {pct(blocked['blocked_rate'])} of plays end blocked ({blocked['label']}, "
        f"{interval(blocked['blocked_rate_lo'], blocked['blocked_rate_hi'])})"))
    page.verdict("own", "Does the player who breaks the wall win?", _breaker_verdict(drawn, above, top))
    every = page.with_labels(page.mart("mart_mauerbruch_endings")).filter(pl.col("counted"))
    page.split_table("How games end", every.sort("players", "label"), [
        "label", "n_plays", "breaker_win_rate", "breaker_win_rate_lo", "breaker_win_rate_hi", "mean_bonus",
        "mean_bonus_lo", "mean_bonus_hi", "blocked_rate", "blocked_rate_lo", "blocked_rate_hi", "blocked_plays",
        "seat0_breaks_rate", "max_bonus", "mean_cards_left", "mean_opening_pairs", "mean_turns", "deck_name",
        "run_id"], mart="mart_mauerbruch_endings")


def _breaker_verdict(drawn: pl.DataFrame, above: pl.DataFrame, top: dict) -> str:
    """The index's answer: at how many tables of one policy the breaker wins significantly more than a seat's fair
    share, and the breaker's win rate with its interval at the most-played table."""
    n, k = drawn.height, above.height
    if n == 1:
        said = f"{'yes, ' if k else 'not '}significantly above a fair share at the only one-policy table"
    elif k:
        said = f"{'yes, ' if k == n else ''}significantly above a fair share at {k} of {n} one-policy tables"
    else:
        said = f"not significantly above a fair share at any of {n} one-policy tables"
    return sentence(said, f"at {top['label']} the breaker wins {ci(top, 'breaker_win_rate')} of broken plays, "
                          f"fair {pct(1 / top['players'])}")


def pair_deciders(page: Page) -> None:
    deciders = page.with_labels(page.mart("mart_mauerbruch_pair_deciders"))
    if deciders.is_empty():
        return
    # Pairs are logged by runs of their own, whose plays a larger run may hold too: one run per set-up is drawn.
    deciders = deciders.sort("n_pairs", descending=True).unique("label", keep="first").sort("label")
    policies = dict(page.runs.select("run_id", "focal").rows())
    order = list(PAIR_MEASURES)
    fig, (ax,) = page.subplots(1, width=9.0, height=0.3 * len(order) * deciders.height + 1.6)
    height = 0.8 / deciders.height
    for i, row in enumerate(deciders.iter_rows(named=True)):
        y = np.arange(len(order))[::-1] - (i - (deciders.height - 1) / 2) * height  # the legend's order, top down
        share = np.array([row[m] for m in order])
        ax.barh(y, 100 * share, height, label=f"{row['label']} (n = {row['n_pairs']:,} pairs)",
                color=page.colour(policies[row["run_id"]] or "mixed"))
        sure = [k for k, m in enumerate(order) if f"{m}_lo" in row]  # the measures the mart gives an interval
        ax.errorbar(100 * share[sure], y[sure], fmt="none", color="black", capsize=2, xerr=100 * error_bar_lengths(
            share[sure], [row[f"{order[k]}_lo"] for k in sure], [row[f"{order[k]}_hi"] for k in sure]))
    ax.set_yticks(np.arange(len(order))[::-1], [PAIR_MEASURES[m] for m in order])
    ax.set_xlabel("share of pairs taken (%; 95% Wilson intervals where drawn)")
    ax.set_title(f"{page.game.title}: what decides a pair (runs that logged every pair)")
    ax.legend()
    rows = deciders.to_dicts()
    page.figure("pair_deciders", fig, "What decides a pair", sentence(
        "a joker makes the pair in " + " and ".join(
            f"{pct(r['joker_share'])} ({interval(r['joker_share_lo'], r['joker_share_hi'])}) of pairs at {r['label']}"
            for r in rows),
        "a ban turns a double into a single in " + " and ".join(
            f"{pct(r['ban_decided_share'])} ({interval(r['ban_decided_share_lo'], r['ban_decided_share_hi'])})"
            for r in rows) + (" respectively" if len(rows) > 1 else "") + ", though one lies open during "
        f"{pct(deciders['ban_in_force_share'].min())} to {pct(deciders['ban_in_force_share'].max())} of takes"))
    page.table("What decides pairs", deciders, [
        "label", "n_pairs", "joker_share", "joker_share_lo", "joker_share_hi", "ban_decided_share",
        "ban_decided_share_lo", "ban_decided_share_hi", "double_share", "ban_pair_share", "ban_in_force_share",
        "swap_share", "n_plays", "run_id"], mart="mart_mauerbruch_pair_deciders")


# The sections this game hands to the report, in page order.
SECTIONS = (endings, pair_deciders)
