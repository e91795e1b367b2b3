"""Mauerbruch's own report sections: how games end, and what decides pairs."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import polars as pl

from ...analysis.page import Page, error_bars, interval, pct


def endings(page: Page) -> None:
    ends = page.with_labels(page.mart("mart_mauerbruch_endings"))
    drawn = ends.filter(pl.col("primary")).sort("players", "label")
    if drawn.is_empty():
        return
    labels = drawn["label"].to_list()
    y = np.arange(len(labels))
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 0.45 * len(labels) + 1.8), sharey=True)
    rate = drawn["blocked_rate"].to_numpy()
    left.errorbar(100 * rate, y, xerr=100 * error_bars(rate, drawn["blocked_rate_lo"], drawn["blocked_rate_hi"]),
                  fmt="o", capsize=3)
    left.set_yticks(y, [f"{label} (n={n:,})" for label, n in zip(labels, drawn["n_plays"])])
    left.set_xlabel("plays that end blocked (%, 95% Wilson interval)")
    bonus = drawn["mean_bonus"].to_numpy()
    right.errorbar(bonus, y, xerr=error_bars(bonus, drawn["mean_bonus_lo"], drawn["mean_bonus_hi"]), fmt="o",
                   capsize=3)
    right.set_xlabel("cards gained by breaking the wall (mean, 95% interval)")
    fig.suptitle("Mauerbruch: how games end, at tables of one policy")
    most = drawn.sort("blocked_rate", descending=True).row(0, named=True)
    wins = drawn.sort("breaker_win_rate").row(0, named=True)
    sentence = (f"Blocked games are rarest at {drawn.sort('blocked_rate').row(0, named=True)['label']} and most "
                f"common at {most['label']} ({pct(most['blocked_rate'])}, "
                f"{interval(most['blocked_rate_lo'], most['blocked_rate_hi'])}); breaking the wall is worth "
                f"{drawn['mean_bonus'].min():.1f}-{drawn['mean_bonus'].max():.1f} cards on average, and the "
                f"breaker wins at least {pct(wins['breaker_win_rate'])} of broken games ({wins['label']}).")
    page.figure("endings", fig, "How games end", sentence)
    page.split_table("How games end", ends.sort("players", "label").select(
        "label", "deck_name", "deck_id", "n_plays", "blocked_plays", "blocked_rate", "blocked_rate_lo",
        "blocked_rate_hi", "mean_bonus", "mean_bonus_lo", "mean_bonus_hi", "max_bonus", "breaker_win_rate",
        "seat0_breaks_rate", "mean_cards_left", "mean_opening_pairs", "mean_turns", "homogeneous"))


def pair_deciders(page: Page) -> None:
    deciders = page.with_labels(page.mart("mart_mauerbruch_pair_deciders")).sort("label")
    if deciders.is_empty():
        return
    measures = [("double_share", "double pairs"), ("joker_share", "a joker made the pair"),
                ("ban_decided_share", "a ban made it single"), ("ban_pair_share", "two bans"),
                ("swap_share", "after a Wunschkarte swap")]
    fig, ax = plt.subplots(figsize=(9, 3.8))
    width = 0.8 / deciders.height
    for i, row in enumerate(deciders.iter_rows(named=True)):
        ax.bar(np.arange(len(measures)) + (i - (deciders.height - 1) / 2) * width,
               [100 * row[m] for m, _ in measures], width, label=f"{row['label']} (n={row['n_pairs']:,} pairs)")
    ax.set_xticks(range(len(measures)), [name for _, name in measures], rotation=10)
    ax.set_ylabel("share of pairs taken (%)")
    ax.set_title("Mauerbruch: what decides pairs (runs logged with --events)")
    ax.legend(fontsize=7)
    first = deciders.row(0, named=True)
    ban_ci = interval(first["ban_decided_share_lo"], first["ban_decided_share_hi"])
    sentence = (f"In {first['label']}, a joker decides {pct(first['joker_share'])} "
                f"({interval(first['joker_share_lo'], first['joker_share_hi'])}) of pairs and a ban turns "
                f"{pct(first['ban_decided_share'])} ({ban_ci}) "
                f"from double into single, while a ban lies on the wall during {pct(first['ban_in_force_share'])} "
                f"of takes.")
    page.figure("pair_deciders", fig, "What decides pairs", sentence)
    page.table("What decides pairs", deciders.select(
        "label", "n_plays", "n_pairs", "double_share", "joker_share", "joker_share_lo", "joker_share_hi",
        "ban_decided_share", "ban_decided_share_lo", "ban_decided_share_hi", "ban_pair_share",
        "ban_in_force_share", "swap_share"))


# The sections this game hands to the report, in page order.
SECTIONS = (endings, pair_deciders)
