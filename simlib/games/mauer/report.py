"""Die Mauer's own report sections: penalty points by seat (the game's question) at every table size, penalty
totals over a match by table position, and how Baurunden resolve. Penalty points are drawn as the designer counts
them (Minuspunkte, positive; fewer is better), never as the negative score the generic marts rank by."""

from __future__ import annotations

import polars as pl
from matplotlib.lines import Line2D
from matplotlib.patches import Patch

from ...analysis.page import Page, count, error_bar_lengths, interval, lead, number, pct, sentence

# How a Baurunde resolved, in the rule text's words (docs/games/mauer.md), in the order of the text's cases.
OUTCOMES = {"builder_builds": "Bauherr builds (nobody guessed)", "competitors_build": "guessers build",
            "builder_outguessed": "Bauherr builds (too many guessed)", "illegal_plan": "no site: nobody builds",
            "hollow_1": "hollow hand: Bauherr builds", "hollow_2": "hollow hand: a gift",
            "hollow_3": "hollow hand: nothing happens"}


def _one_policy(page: Page, frame: pl.DataFrame) -> pl.DataFrame:
    """The rows a figure draws: the largest run of each one-policy set-up at the published rules (the What-if
    page draws the rule variants), with the set-up's policy."""
    runs = page.runs.select("run_id", "focal", options=pl.col("options").fill_null(""))
    return (page.with_labels(frame).join(runs, on="run_id")
            .filter(pl.col("primary") & pl.col("homogeneous") & (pl.col("options") == ""))
            .rename({"focal": "set_up_policy"}))


def _seat_spread(rows: pl.DataFrame, key: str, value: str) -> dict:
    """A set-up's lowest and highest mean (by `key`: seat or table position) and whether their 95% intervals lie
    apart (a conservative test: intervals that overlap may still hide a difference)."""
    rows = rows.sort(value)
    low, high = rows.row(0, named=True), rows.row(-1, named=True)
    return {"label": low["label"], "low": low, "high": high, "apart": low[f"{value}_hi"] < high[f"{value}_lo"],
            "gap": high[value] - low[value], "key": key, "value": value, "seat0_lowest": low[key] == 0}


def _spread_words(spread: dict, unit: str, lead: str = "at {}") -> str:
    """The set-up's lowest and highest seat (or position) with their 95% intervals, after `lead` naming the set-up."""
    low, high, key, value = spread["low"], spread["high"], spread["key"], spread["value"]
    return (f"{lead.format(spread['label'])} {key} {low[key]} averages {number(low[value], 1)} {unit} "
            f"({interval(low[f'{value}_lo'], low[f'{value}_hi'], as_pct=False, digits=1)}), {key} {high[key]} "
            f"{number(high[value], 1)} ({interval(high[f'{value}_lo'], high[f'{value}_hi'], as_pct=False, digits=1)})")


def _spreads(frame: pl.DataFrame, key: str, value: str) -> tuple[list[dict], list[dict], dict]:
    """Every one-policy set-up's spread, those whose extremes lie apart, and the widest (of those apart if any)."""
    spreads = [_seat_spread(rows, key, value)
               for _, rows in frame.sort("players", "label").group_by("players", "label", maintain_order=True)]
    apart = [s for s in spreads if s["apart"]]
    return spreads, apart, max(apart or spreads, key=lambda s: s["gap"])


@lead
def penalties_by_seat(page: Page) -> None:
    by_seat = _one_policy(page, page.mart("mart_mauer_penalties_by_seat"))
    if by_seat.is_empty():
        return
    counts = sorted(by_seat["players"].unique().to_list())
    fig, axes = page.subplots(len(counts), width=6.0, height=3.6, most=2, sharey=True,
                              gridspec_kw={"hspace": 0.45})
    for ax, n in zip(axes, counts):
        table = by_seat.filter(players=n)
        policies = [p for p in page.game.policies() if p in set(table["set_up_policy"])]
        width = 0.8 / len(policies)
        for i, policy in enumerate(policies):
            rows = table.filter(set_up_policy=policy).sort("seat")
            x = rows["seat"].to_numpy() + (i - (len(policies) - 1) / 2) * width
            ax.bxp([{"whislo": r["p05_penalty"], "q1": r["p25_penalty"], "med": r["median_penalty"],
                     "q3": r["p75_penalty"], "whishi": r["p95_penalty"]} for r in rows.iter_rows(named=True)],
                   positions=x, widths=0.85 * width, showfliers=False, patch_artist=True,
                   boxprops={"facecolor": page.colour(policy), "alpha": 0.45},
                   medianprops={"color": "black"})
            ax.errorbar(x, rows["mean_penalty"], fmt="D", color="black", markersize=3.5, yerr=error_bar_lengths(
                rows["mean_penalty"], rows["mean_penalty_lo"], rows["mean_penalty_hi"]))
        ax.legend(handles=[Patch(facecolor=page.colour(p), alpha=0.45, label=f"{p} players") for p in policies]
                  + [Line2D([], [], color="black", marker="D", markersize=3.5, linestyle="none",
                            label="mean (95% interval)")])
        plays = sorted(set(table["n_plays"]))
        ax.set(title=f"{n} players (n = {plays[0]:,}" + (f" to {plays[-1]:,}" if len(plays) > 1 else "")
               + " plays a set-up)", xticks=range(n), xticklabels=range(n), xlabel="seat (0 = the first Bauherr)")
    for ax in axes[::2]:
        ax.set_ylabel("penalty points per Spielrunde")
    fig.suptitle(f"{page.game.title}: penalty points by seat, tables of one policy (fewer is better; boxes 25% to "
                 "75%, whiskers 5% to 95%, line the median)")
    spreads, apart, top = _spreads(by_seat, "seat", "mean_penalty")
    tables = f"{count(len(spreads), 'table')} of one policy"
    lowest = sum(s["seat0_lowest"] for s in spreads)
    first = f"seat 0 (the first Bauherr) collects the fewest at {'all ' if lowest == len(spreads) else ''}{lowest}"
    widest = "the widest gap: " + _spread_words(top, "penalty points a Spielrunde")
    page.verdict("own", "Are penalty points fair by seat?", _penalty_verdict(spreads, apart, top, lowest))
    level = [s["label"] for s in spreads if not s["apart"]]
    page.figure("penalty_by_seat", fig, "Penalty points by seat", sentence(
        f"the seats with the fewest and the most penalty points differ significantly (their 95% intervals do not "
        f"overlap) at {len(apart)} of {tables}; {first}", widest,
        f"the seats' intervals overlap at {', '.join(level)}" if level else None))
    labelled = page.with_labels(page.mart("mart_mauer_penalties_by_seat")).filter(pl.col("counted"))
    page.split_table("Penalty points by seat", labelled.sort("players", "label", "seat"), [
        "label", "seat", "n_plays", "mean_penalty", "mean_penalty_lo", "mean_penalty_hi", "median_penalty",
        "p05_penalty", "p25_penalty", "p75_penalty", "p95_penalty", "share_zero", "max_penalty", "sd_penalty",
        "policy", "run_id"], mart="mart_mauer_penalties_by_seat")
    by_policy = page.with_labels(page.mart("mart_mauer_penalties_by_policy")).filter(pl.col("counted"))
    page.split_table("Penalty points by policy", by_policy.sort("players", "label", "policy"), [
        "label", "policy", "n_plays", "mean_penalty", "mean_penalty_lo", "mean_penalty_hi", "median_penalty",
        "p95_penalty", "share_zero", "n_seat_plays", "run_id"], mart="mart_mauer_penalties_by_policy")


def _penalty_verdict(spreads: list[dict], apart: list[dict], top: dict, lowest: int) -> str:
    """The index's answer: at how many tables of one policy the seats differ, where seat 0 gets the fewest, and
    the widest gap with its intervals."""
    n = len(spreads)
    widest = _spread_words(top, "penalty points a Spielrunde", lead="widest at {}:" if n > 1 else "at {}")
    if not apart:
        where = "the only one-policy table" if n == 1 else f"all {n} one-policy tables"
        return sentence(f"no seat stands out: the seats' 95% intervals overlap at {where}", widest)
    where = "the only one-policy table" if n == 1 else f"{len(apart)} of {n} one-policy tables"
    fewest = ""
    if lowest:  # where seat 0 gets the fewest: said only where it does
        fewest = ", seat 0 (the first Bauherr) getting the fewest"
        fewest += "" if n == 1 else f" at all {n}" if lowest == n else f" at {lowest} of the {n}"
    return sentence(f"no: seats differ significantly at {where}{fewest}", widest)


def match_totals(page: Page) -> None:
    totals = _one_policy(page, page.mart("mart_mauer_match_totals")).filter(pl.col("rounds") > 1)
    if totals.is_empty():
        return
    counts = sorted(totals["players"].unique().to_list())
    fig, axes = page.subplots(len(counts), width=3.0, height=3.4, sharey=True)
    for ax, n in zip(axes, counts):
        table = totals.filter(players=n)
        policies = [p for p in page.game.policies() if p in set(table["set_up_policy"])]
        for i, policy in enumerate(policies):
            rows = table.filter(set_up_policy=policy).sort("player")
            ax.errorbar(rows["player"] + (i - (len(policies) - 1) / 2) * 0.15, rows["mean_total"],
                        yerr=error_bar_lengths(rows["mean_total"], rows["mean_total_lo"], rows["mean_total_hi"]),
                        fmt="o", capsize=3, color=page.colour(policy))
        ax.legend(handles=[Line2D([], [], color=page.colour(p), marker="o", linestyle="none", label=f"{p} players")
                           for p in policies])
        plays = sorted(set(table["n_plays"]))
        ax.set(title=f"{n} players (n = {plays[0]:,}" + (f" to {plays[-1]:,}" if len(plays) > 1 else "") + ")",
               xticks=range(n), xlabel="table position")
    axes[0].set_ylabel("mean penalty points per match\n(95% bootstrap interval)")
    rounds = sorted(totals["rounds"].unique().to_list())
    fig.suptitle(f"{page.game.title}: penalty points over a match of {' or '.join(map(str, rounds))} Spielrunden by "
                 "table position (0 = the first Bauherr), tables of one policy", y=1.04)
    spreads, apart, top = _spreads(totals.rename({"player": "position"}), "position", "mean_total")
    page.figure("match_totals", fig, "Penalty points over a match by table position", sentence(
        f"over a match, where the first Bauherr changes from Spielrunde to Spielrunde, the lowest and highest table "
        f"position's 95% intervals lie apart at {len(apart)} of {count(len(spreads), 'table')} of one policy",
        ("the widest gap: " if apart else "none differs significantly; the widest gap: ")
        + _spread_words(top, "points a match")))
    labelled = page.with_labels(page.mart("mart_mauer_match_totals")).filter(pl.col("counted") & (pl.col("rounds") > 1))
    page.split_table("Match totals by table position", labelled.sort("players", "label", "player"), [
        "label", "player", "n_matches", "mean_total", "mean_total_lo", "mean_total_hi", "median_total",
        "match_win_rate", "p05_total", "p95_total", "p25_total", "p75_total", "share_zero", "rounds", "n_plays",
        "policy", "run_id"], mart="mart_mauer_match_totals")


def baurunde_cases(page: Page) -> None:
    cases = page.with_labels(page.mart("mart_mauer_baurunde_cases"))
    if cases.is_empty():
        return
    # Events are logged by runs of their own, whose plays a larger run may hold too: one run per set-up is drawn.
    shown = (cases.sort("n_baurunden", descending=True).unique("label", keep="first").select("run_id", "label")
             .sort("label"))
    cases = cases.join(shown.select("run_id"), on="run_id")
    labels = shown["label"].to_list()
    policies = dict(shown.join(page.runs.select("run_id", "focal"), on="run_id").select("label", "focal").rows())
    order = list(OUTCOMES)[::-1]  # the text's first case on top
    fig, (ax,) = page.subplots(1, width=9.0, height=0.3 * len(order) * len(labels) + 1.6)
    height = 0.8 / len(labels)
    for i, label in enumerate(labels):
        run = {r["outcome"]: r for r in cases.filter(label=label).iter_rows(named=True)}
        y = [k - (i - (len(labels) - 1) / 2) * height for k in range(len(order))]  # the legend's order, top down
        share, lo, hi = ([run[o][c] if o in run else 0.0 for o in order] for c in ("share", "share_lo", "share_hi"))
        n = next(iter(run.values()))["n_baurunden"]
        ax.barh(y, [100 * s for s in share], height, xerr=100 * error_bar_lengths(share, lo, hi), capsize=2,
                color=page.colour(policies[label] or "mixed"), label=f"{label} (n = {n:,} Baurunden)")
    ax.set_yticks(range(len(order)), [OUTCOMES[o] for o in order])
    ax.set_xlabel("share of Baurunden (%, 95% Wilson interval)")
    ax.set_title(f"{page.game.title}: how Baurunden resolve (runs that logged every Baurunde)")
    ax.legend()
    parts = []
    for label in labels:
        top = cases.filter(label=label).sort("share", descending=True).row(0, named=True)
        hollow = cases.filter(pl.col("label") == label, pl.col("outcome").str.starts_with("hollow"))
        parts.append(f"at {label} the commonest outcome is {OUTCOMES[top['outcome']]}: {pct(top['share'])} of "
                     f"Baurunden ({interval(top['share_lo'], top['share_hi'])}); a hollow hand decides "
                     f"{pct(hollow['share'].sum())}")
    page.figure("baurunde_cases", fig, "How Baurunden resolve", sentence(*parts))
    page.table("How Baurunden resolve", cases.sort("label", "outcome").with_columns(
        pl.col("outcome").replace(OUTCOMES)), [
        "label", "outcome", "n_baurunden_with_outcome", "share", "share_lo", "share_hi", "per_play",
        "pieces_built", "n_baurunden", "n_plays"], mart="mart_mauer_baurunde_cases")


# The sections this game hands to the report, in page order.
SECTIONS = (penalties_by_seat, match_totals, baurunde_cases)
