"""Die Mauer's own report sections: penalty distributions, match totals, how Baurunden resolve."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import polars as pl

from ...analysis.page import Page, error_bars, interval, pct


def _focus_players(frame: pl.DataFrame) -> int:
    """The player count to draw when there is room for one: 4 if present, else the most common."""
    counts = frame["players"].value_counts().sort("count", descending=True)
    return 4 if 4 in frame["players"].to_list() else counts["players"][0]


def penalties_by_seat(page: Page) -> None:
    by_seat = page.with_labels(page.mart("mart_mauer_penalties_by_seat"))
    drawn = by_seat.filter(pl.col("primary"))
    if drawn.is_empty():
        return
    n_players = _focus_players(drawn)
    drawn = drawn.filter(pl.col("players") == n_players)
    labels = sorted(drawn["label"].unique().to_list())
    fig, axes = plt.subplots(1, len(labels), figsize=(3.4 * len(labels), 3.8), squeeze=False, sharey=True)
    sentences = []
    for ax, label in zip(axes[0], labels):
        stats = drawn.filter(pl.col("label") == label).sort("seat")
        boxes = [{"label": str(r["seat"]), "whislo": r["p05_penalty"], "q1": r["p25_penalty"],
                  "med": r["median_penalty"], "q3": r["p75_penalty"], "whishi": r["p95_penalty"], "fliers": []}
                 for r in stats.iter_rows(named=True)]
        ax.bxp(boxes, positions=stats["seat"].to_list(), showfliers=False)
        mean = stats["mean_penalty"].to_numpy()
        err = error_bars(mean, stats["mean_penalty_lo"], stats["mean_penalty_hi"])
        ax.errorbar(stats["seat"].to_numpy(), mean, yerr=err, fmt="D", color="black", markersize=4,
                    label="mean (95% interval)")
        ax.set_title(f"{label}\n(n={stats['n_plays'][0]:,} per seat)", fontsize=9)
        ax.set_xlabel("seat (0 = first Bauherr)")
        first, last = stats.row(0, named=True), stats.row(-1, named=True)
        apart = first["mean_penalty_hi"] < last["mean_penalty_lo"] or last["mean_penalty_hi"] < first["mean_penalty_lo"]
        sentences.append(f"{label}: seat 0 averages {first['mean_penalty']:.2f} "
                         f"({interval(first['mean_penalty_lo'], first['mean_penalty_hi'], False)}) and seat "
                         f"{last['seat']} {last['mean_penalty']:.2f} "
                         f"({interval(last['mean_penalty_lo'], last['mean_penalty_hi'], False)}), "
                         + ("a significant difference" if apart else "not significantly different"))
    axes[0][0].set_ylabel("penalty points at the end (Minuspunkte)")
    axes[0][0].legend(fontsize=7)
    fig.suptitle(f"Die Mauer: penalty distribution by seat, {n_players} players, tables of one policy "
                 f"(boxes: 25-75%, whiskers: 5-95%)", y=1.06)
    page.figure("penalty_by_seat", fig, "Penalty points by seat", "; ".join(sentences) + ".")
    page.split_table("Penalty points by seat", by_seat.sort("players_label", "label", "seat").select(
        "label", "seat", "policy", "n_plays", "mean_penalty", "mean_penalty_lo", "mean_penalty_hi", "sd_penalty",
        "p05_penalty", "p25_penalty", "median_penalty", "p75_penalty", "p95_penalty", "max_penalty",
        "share_zero", "homogeneous"))
    by_policy = page.with_labels(page.mart("mart_mauer_penalties_by_policy"))
    page.split_table("Penalty points by policy", by_policy.sort("label", "policy").select(
        "label", "policy", "n_plays", "n_seat_plays", "mean_penalty", "mean_penalty_lo", "mean_penalty_hi",
        "median_penalty", "p95_penalty", "share_zero", "homogeneous"))


def match_totals(page: Page) -> None:
    totals = page.with_labels(page.mart("mart_mauer_match_totals")).filter(
        pl.col("primary") & (pl.col("rounds") > 1))
    if totals.is_empty():
        return
    fig, ax = plt.subplots(figsize=(8, 3.8))
    labels = totals.sort("players_label", "label")["label"].unique(maintain_order=True).to_list()
    for i, label in enumerate(labels):
        run = totals.filter(pl.col("label") == label).sort("player")
        x = run["player"].to_numpy() + (i - (len(labels) - 1) / 2) * 0.08
        y = run["mean_total"].to_numpy()
        err = error_bars(y, run["mean_total_lo"], run["mean_total_hi"])
        ax.errorbar(x, y, yerr=err, fmt="o", capsize=3, label=f"{label} (n={run['n_matches'][0]:,} matches)")
    ax.set_xlabel("table position (0 = the match's first Bauherr)")
    ax.set_ylabel("mean penalty total per match (points)")
    rounds = int(totals["rounds"].max())
    ax.set_title(f"Die Mauer: penalty totals over a match of {rounds} Spielrunden (95% bootstrap intervals)")
    ax.legend(fontsize=7, ncol=2)
    spread = []
    for label in labels:
        run = totals.filter(pl.col("label") == label).sort("mean_total")
        best, worst = run.row(0, named=True), run.row(-1, named=True)
        apart = best["mean_total_hi"] < worst["mean_total_lo"]
        spread.append(f"{label}: position {best['player']} {best['mean_total']:.1f} vs position "
                      f"{worst['player']} {worst['mean_total']:.1f} ({'significant' if apart else 'not significant'})")
    page.figure("match_totals", fig, "Match totals by table position",
              "Over whole matches the table positions differ as follows: " + "; ".join(spread) + ".")
    page.table("Match totals by table position", totals.sort("label", "player").select(
        "label", "player", "policy", "n_matches", "rounds", "mean_total", "mean_total_lo", "mean_total_hi",
        "p05_total", "p25_total", "median_total", "p75_total", "p95_total", "share_zero", "match_win_rate"))


def baurunde_cases(page: Page) -> None:
    cases = page.with_labels(page.mart("mart_mauer_baurunde_cases"))
    if cases.is_empty():
        return
    order = ["builder_builds", "competitors_build", "builder_outguessed", "illegal_plan", "hollow_1", "hollow_2",
             "hollow_3"]
    labels = cases["label"].unique(maintain_order=True).sort().to_list()
    fig, ax = plt.subplots(figsize=(9, 3.8))
    width = 0.8 / len(labels)
    for i, label in enumerate(labels):
        run = cases.filter(pl.col("label") == label)
        share = {r["outcome"]: r for r in run.iter_rows(named=True)}
        y = np.array([share[o]["share"] if o in share else 0.0 for o in order])
        lo = np.array([share[o]["share_lo"] if o in share else 0.0 for o in order])
        hi = np.array([share[o]["share_hi"] if o in share else 0.0 for o in order])
        ax.bar(np.arange(len(order)) + (i - (len(labels) - 1) / 2) * width, 100 * y, width,
               yerr=100 * error_bars(y, lo, hi), capsize=2,
               label=f"{label} (n={run['n_baurunden'][0]:,} Baurunden)")
    ax.set_xticks(range(len(order)), [o.replace("_", " ") for o in order], rotation=20)
    ax.set_ylabel("share of Baurunden (%)")
    ax.set_title("Die Mauer: how Baurunden resolve (runs logged with --events)")
    ax.legend(fontsize=7)
    sentences = []
    for label in labels:
        run = cases.filter(pl.col("label") == label).sort("share", descending=True)
        top = run.row(0, named=True)
        sentences.append(f"in {label}, {top['outcome'].replace('_', ' ')} dominates with {pct(top['share'])} "
                         f"({interval(top['share_lo'], top['share_hi'])}) of Baurunden")
    text = "; ".join(sentences)
    page.figure("baurunde_cases", fig, "How Baurunden resolve", text[0].upper() + text[1:] + ".")
    page.table("How Baurunden resolve", cases.sort("label", "outcome").select(
        "label", "outcome", "n_baurunden_with_outcome", "n_baurunden", "share", "share_lo", "share_hi",
        "per_play", "pieces_built", "n_plays"))


# The sections this game hands to the report, in page order.
SECTIONS = (penalties_by_seat, match_totals, baurunde_cases)
