"""Catan's own report sections: production against the dice, cards lost to robber and discards, and the
win rate of the longest-route and largest-army card holders."""

from __future__ import annotations

from collections.abc import Callable

import matplotlib.pyplot as plt
import numpy as np
import polars as pl
from matplotlib.axes import Axes

from ...analysis.page import Page, error_bars, interval, pct, sentence
from .constants import RESOURCES

BUILDINGS = {"settlement": "settlements", "city": "cities"}
CARDS = {"longest_route": "longest-route card", "largest_army": "largest-army card"}


def _panel_per_run(page: Page, mart: str, panel: Callable[[Axes, str, pl.DataFrame], str]):
    """The mart's rows with their run labels, and a figure with one panel per run drawn, each drawn by
    `panel(ax, label, rows)`, which returns its part of the sentence (figure None: nothing to draw)."""
    frame = page.with_labels(page.mart(mart))
    drawn, labels = page.drawn(frame)
    if not labels:
        return frame, None, ""
    fig, axes = plt.subplots(1, len(labels), figsize=(3.6 * len(labels), 3.8), squeeze=False, sharey=True)
    parts = [panel(ax, label, drawn.filter(pl.col("label") == label)) for ax, label in zip(axes[0], labels)]
    axes[0][0].legend(fontsize=7)
    return frame, fig, sentence(*parts)


def _production_panel(ax: Axes, label: str, run: pl.DataFrame) -> str:
    for i, (building, plural) in enumerate(BUILDINGS.items()):
        rows = {r["resource"]: r for r in run.filter(pl.col("building") == building).iter_rows(named=True)}
        shown = [r for r in RESOURCES if r in rows]
        if not shown:
            continue
        x = np.array([RESOURCES.index(r) for r in shown]) + (i - 0.5) * 0.25
        y = np.array([rows[r]["ratio"] for r in shown])
        err = error_bars(y, [rows[r]["ratio_lo"] for r in shown], [rows[r]["ratio_hi"] for r in shown])
        ax.errorbar(x, 100 * y, yerr=100 * err, fmt="os"[i], capsize=3, label=plural)
    ax.axhline(100, color="grey", linestyle="--", linewidth=1, label="the dice's promise")
    ax.set_xticks(range(len(RESOURCES)), RESOURCES, rotation=30)
    ax.set_title(f"{label}\n(n={run['n_plays'][0]:,} plays)", fontsize=9)
    short = run.filter(pl.col("ratio_hi") < 1)
    level = run.filter(pl.col("ratio_hi") >= 1)
    text = (f"{label}: {short.height} of {run.height} building and resource pairs receive significantly less "
            f"than the dice promise")
    if not short.is_empty():
        text += f" (between {pct(short['ratio'].min())} and {pct(short['ratio'].max())} of it)"
    if not level.is_empty():
        text += ", not significantly less: " + ", ".join(
            f"{r['building']} {r['resource']} {pct(r['ratio'])} ({interval(r['ratio_lo'], r['ratio_hi'])})"
            for r in level.sort("building", "resource").iter_rows(named=True))
    return text


def production_vs_dice(page: Page) -> None:
    production, fig, sentence = _panel_per_run(page, "mart_catan_production_vs_dice", _production_panel)
    if fig is None:
        return
    fig.axes[0].set_ylabel("received / promised by the dice (%, 95% interval)")
    fig.suptitle("Catan: cards received from rolls against the dice's promise (pips/36 per roll),\n"
                 "tables of one policy; the robber and bank shortage take the gap", y=1.08)
    page.figure("production_vs_dice", fig, "Production against the dice", sentence)
    page.split_table("Production against the dice", production.sort("players", "label", "building", "resource")
                     .select("label", "building", "resource", "n_plays", "received_per_play", "expected_per_play",
                             "ratio", "ratio_lo", "ratio_hi", "mean_difference", "mean_difference_lo",
                             "mean_difference_hi", "sd_difference", "homogeneous"),
                     note="Per play, all seats together; the difference is per seat-play (received - expected).")


def _losses_panel(ax: Axes, label: str, run: pl.DataFrame) -> str:
    run = run.sort("seat")
    seats = run["seat"].to_numpy()
    for i, (what, colour) in enumerate((("robbed", "tab:red"), ("discarded", "tab:blue"))):
        y = run[f"mean_{what}"].to_numpy()
        err = error_bars(y, run[f"mean_{what}_lo"], run[f"mean_{what}_hi"])
        ax.bar(seats + (i - 0.5) * 0.38, y, 0.38, yerr=err, capsize=3, color=colour,
               label="to the robber" if what == "robbed" else "discarded on a 7")
    ax.set_xticks(seats)
    ax.set_xlabel("seat (0 = first player)")
    ax.set_title(f"{label}\n(n={run['n_plays'][0]:,} per seat)", fontsize=9)
    shares = run["lost_share"]
    return (f"{label}: to the robber {_spread(run, 'robbed')}, to discards {_spread(run, 'discarded')}; "
            f"the seats lose {interval(shares.min(), shares.max())} of the cards they receive")


def _spread(run: pl.DataFrame, what: str) -> str:
    """The seats losing most and least this way, and whether their intervals are apart."""
    most = run.sort(f"mean_{what}", descending=True).row(0, named=True)
    least = run.sort(f"mean_{what}").row(0, named=True)
    apart = least[f"mean_{what}_hi"] < most[f"mean_{what}_lo"]
    return (f"seat {most['seat']} loses most, {most[f'mean_{what}']:.1f} "
            f"({interval(most[f'mean_{what}_lo'], most[f'mean_{what}_hi'], False)}) per play against "
            f"{least[f'mean_{what}']:.1f} ({interval(least[f'mean_{what}_lo'], least[f'mean_{what}_hi'], False)}) "
            f"for seat {least['seat']} ({'a significant' if apart else 'not a significant'} difference)")


def losses(page: Page) -> None:
    lost, fig, sentence = _panel_per_run(page, "mart_catan_losses", _losses_panel)
    if fig is None:
        return
    fig.axes[0].set_ylabel("cards lost per play (95% interval)")
    fig.suptitle("Catan: cards lost to the robber and to discards by seat, tables of one policy", y=1.04)
    page.figure("losses", fig, "Cards lost to the robber and to discards", sentence)
    page.split_table("Cards lost to the robber and to discards", lost.sort("players", "label", "seat").select(
        "label", "seat", "policy", "n_plays", "mean_robbed", "mean_robbed_lo", "mean_robbed_hi", "mean_discarded",
        "mean_discarded_lo", "mean_discarded_hi", "mean_lost", "mean_lost_lo", "mean_lost_hi", "mean_received",
        "robbed_share", "discarded_share", "lost_share", "homogeneous"))


def card_holders(page: Page) -> None:
    holders = page.with_labels(page.mart("mart_catan_card_holders"))
    drawn, labels = page.drawn(holders)
    if drawn.is_empty():
        return
    width = max(4.0, 1.3 * len(labels) + 1.5)
    fig, axes = plt.subplots(1, len(CARDS), figsize=(width * len(CARDS), 3.8), squeeze=False, sharey=True)
    sentences = []
    x = np.arange(len(labels))
    for ax, (card, name) in zip(axes[0], CARDS.items()):
        rows = {r["label"]: r for r in drawn.filter(pl.col("card") == card).iter_rows(named=True)}
        for i, (who, text) in enumerate((("holder", f"holder of the {name}"), ("without", "seats without it"))):
            y = np.array([rows[lb][f"{who}_win_rate"] if lb in rows else np.nan for lb in labels], dtype=float)
            lo = [rows[lb][f"{who}_win_rate_lo"] if lb in rows else np.nan for lb in labels]
            hi = [rows[lb][f"{who}_win_rate_hi"] if lb in rows else np.nan for lb in labels]
            err = np.nan_to_num(error_bars(y, np.array(lo, dtype=float), np.array(hi, dtype=float)))
            ax.errorbar(x + (i - 0.5) * 0.2, 100 * y, yerr=100 * err, fmt="os"[i], capsize=3, label=text)
        ax.set_xticks(x, [f"{lb}\n(n={rows[lb]['n_plays']:,})" if lb in rows else lb for lb in labels],
                      rotation=30, fontsize=7)
        ax.set_title(f"the {name}", fontsize=9)
        ax.legend(fontsize=7)
        ahead = [lb for lb, r in rows.items() if r["holder_win_rate_lo"] is not None
                 and r["holder_win_rate_lo"] > r["without_win_rate_hi"]]
        level = [lb for lb in rows if lb not in ahead]
        best = max(rows.values(), key=lambda r: -1 if r["holder_win_rate"] is None else r["holder_win_rate"])
        text = (f"the holder of the {name} at the end wins significantly more often than the seats without it at "
                f"{len(ahead)} of {len(rows)} tables drawn, most at {best['label']}: "
                f"{pct(best['holder_win_rate'])} ({interval(best['holder_win_rate_lo'], best['holder_win_rate_hi'])}) "
                f"against {pct(best['without_win_rate'])} "
                f"({interval(best['without_win_rate_lo'], best['without_win_rate_hi'])})")
        if level:
            text += "; not significantly more at " + ", ".join(level)
        sentences.append(text)
    axes[0][0].set_ylabel("win rate (%, 95% Wilson interval)")
    fig.suptitle("Catan: win rate of the card holders at the end against the seats without the card", y=1.04)
    page.figure("card_holders", fig, "Longest route and largest army", sentence(*sentences))
    page.split_table("Win rate of the card holders", holders.sort("players", "label", "card").select(
        "label", "card", "n_plays", "plays_with_holder", "holder_share", "holder_wins", "holder_win_rate",
        "holder_win_rate_lo", "holder_win_rate_hi", "seat_plays_without", "wins_without", "without_win_rate",
        "without_win_rate_lo", "without_win_rate_hi", "homogeneous"))


# The sections this game hands to the report, in page order.
SECTIONS = (production_vs_dice, losses, card_holders)
