"""The generic report sections: what every game's page shows, from the shared pooled marts (each distinct play
counted once, set-ups never pooled together; pipelines/shared). A game's own sections come after them, and a
game section marked `@replaces("game_length")` (simlib/analysis/page.py) is drawn instead of one of them."""

from __future__ import annotations

import re

import matplotlib.pyplot as plt
import numpy as np
import polars as pl

from .page import Page, count, excludes, interval, pct, sentence

MARKERS = ("o", "s", "^", "D", "v", "P", "X")


def one_policy_setups(frame: pl.DataFrame) -> pl.DataFrame:
    return frame.filter(pl.col("lineup_kind") == "one_policy")


def _policy(label: str) -> str:
    """The policy of a one-policy set-up's label ('4 random players, ...' -> 'random')."""
    return label.split(" ")[1]


def _series_style(page: Page, labels: list[str]) -> dict[str, dict]:
    """One colour per policy; set-ups of one policy with other options told apart by their marker."""
    style, seen = {}, {}
    for label in labels:
        policy = _policy(label)
        k = seen[policy] = seen.get(policy, -1) + 1
        style[label] = {"color": page.colour(policy), "marker": MARKERS[k % len(MARKERS)]}
    return style


def seat_advantage(page: Page) -> None:
    seats = one_policy_setups(page.mart("mart_seat_advantage"))
    if seats.is_empty():
        return
    counts = sorted(seats["players"].unique().to_list())
    fig, axes = plt.subplots(1, len(counts), figsize=(4.4 * len(counts), 3.8), squeeze=False, sharey=True)
    for ax, n in zip(axes[0], counts):
        group = seats.filter(pl.col("players") == n)
        labels = sorted(group["setup_label"].unique().to_list())
        style = _series_style(page, labels)
        for i, label in enumerate(labels):
            rows = group.filter(pl.col("setup_label") == label).sort("seat")
            x = rows["seat"].to_numpy() + (i - (len(labels) - 1) / 2) * 0.12
            y = rows["win_share"].to_numpy()
            err = np.maximum(0, np.array([y - rows["win_share_lo"].to_numpy(), rows["win_share_hi"].to_numpy() - y]))
            ax.errorbar(x, 100 * y, yerr=100 * err, fmt=style[label]["marker"], color=style[label]["color"],
                        capsize=3, label=f"{label} (n = {rows['n_plays'][0]:,})")
        ax.axhline(100 / n, color="grey", linestyle="--", linewidth=1, label="fair share" if n == counts[0] else None)
        ax.set_title(f"{n} players")
        ax.set_xlabel("seat (0 = the start player)")
        ax.set_xticks(range(n))
    axes[0][0].set_ylabel("win share (%, ties split; 95% interval)")
    handles = [h for ax in axes[0] for h in zip(*ax.get_legend_handles_labels())]
    fig.legend([h for h, _ in handles], [t for _, t in handles], fontsize=8, loc="upper center",
               bbox_to_anchor=(0.5, 0.0), ncol=2, frameon=False)
    fig.suptitle(f"{page.game.title}: does the seat matter? Tables of one policy")
    page.figure("seat_advantage", fig, "Start-player advantage", _seat_sentence(seats.filter(pl.col("seat") == 0)))
    page.table("Win share and advantage by seat, per set-up", seats.sort("players", "setup_label", "seat"), [
        "setup_label", "seat", "n_plays", "win_rate", "win_rate_lo", "win_rate_hi", "win_share", "advantage",
        "advantage_lo", "advantage_hi", "mean_score", "mean_score_lo", "mean_score_hi", "margin", "margin_lo",
        "margin_hi", "n_runs", "n_runs_repeated"], mart="mart_seat_advantage")
    balance = page.with_labels(page.mart("mart_run_balance")).filter(pl.col("counted"))
    page.split_table("Balance per run (chi-square test of seat against winning)", balance.sort("players", "label"), [
        "label", "n_plays", "seat0_win_rate", "seat0_win_rate_lo", "seat0_win_rate_hi", "seat0_advantage",
        "balance", "best_seat", "worst_seat", "chi2_p_value", "completion_rate", "tie_rate", "mean_turns", "run_id",
        "homogeneous"], mart="mart_run_balance", note="One row per run whose plays no other run holds.")


def _seat_sentence(seat0: pl.DataFrame) -> str:
    """Where the start player is favoured or handicapped, and where no effect shows (95% intervals)."""
    favoured = seat0.filter(pl.col("advantage_lo") > 0)
    handicapped = seat0.filter(pl.col("advantage_hi") < 0)
    level = seat0.filter((pl.col("advantage_lo") <= 0) & (pl.col("advantage_hi") >= 0))
    parts = []
    for rows, word in ((favoured, "favoured"), (handicapped, "handicapped")):
        if rows.is_empty():
            continue
        top = rows.sort(pl.col("advantage").abs(), descending=True).row(0, named=True)
        parts.append(f"the start player (seat 0) is {word} in {count(rows.height, 'set-up')} of {seat0.height}; "
                     f"most at {top['setup_label']}: a win share of {pct(top['win_share'])} (95% interval "
                     f"{interval(top['win_share_lo'], top['win_share_hi'])}) against a fair {pct(top['fair_share'])}")
    if not level.is_empty():
        names = ", ".join(level.sort("players")["setup_label"].to_list())
        parts.append(f"no significant start-player effect at {names}")
    return sentence(*parts)


def game_length(page: Page) -> None:
    hist = one_policy_setups(page.mart("mart_setup_length_hist"))
    length = page.mart("mart_setup_length")
    if hist.is_empty():
        return
    unit = page.game.turn_name
    shown = length.join(hist.select("setup_id").unique(), on="setup_id").sort("median_turns")
    fig, ax = plt.subplots(figsize=(8, 3.8))
    style = _series_style(page, sorted(shown["setup_label"].to_list()))
    for label in sorted(shown["setup_label"].to_list()):
        rows = hist.filter(pl.col("setup_label") == label).sort("turns")
        ax.step(rows["turns"], 100 * rows["share"], where="mid", color=style[label]["color"],
                label=f"{label} (n = {rows['n_plays'][0]:,})")
    ax.set_xlim(left=0, right=1.15 * float(shown["p95_turns"].max()))
    ax.set_xlabel(f"{unit} per play (to 1.15 x the longest 95% quantile)")
    ax.set_ylabel("share of plays (%)")
    ax.set_title(f"{page.game.title}: game length at tables of one policy")
    ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.18), ncol=2, frameon=False)
    page.figure("game_length", fig, "Game length", _length_sentence(shown, unit))
    page.table("Game length per set-up", length.sort("players", "setup_label"), [
        "setup_label", "n_plays", "mean_turns", "mean_turns_lo", "mean_turns_hi", "sd_turns", "min_turns",
        "p05_turns", "median_turns", "p95_turns", "max_turns", "n_runs"], mart="mart_setup_length")


def _length_sentence(shown: pl.DataFrame, unit: str) -> str:
    short, long = shown.row(0, named=True), shown.row(-1, named=True)
    if short["median_turns"] == long["median_turns"]:
        median = (f"the median play lasts {short['median_turns']} {unit}"
                  + (f" in every set-up drawn ({shown.height})" if shown.height > 1 else f" ({short['setup_label']})"))
    else:
        median = (f"the median play lasts from {short['median_turns']} {unit} ({short['setup_label']}) to "
                  f"{long['median_turns']} {unit} ({long['setup_label']})")
    return sentence(median, f"95% of {long['setup_label']} plays end within {long['p95_turns']} {unit} (mean "
                            f"{long['mean_turns']:.1f}, 95% interval "
                            f"{interval(long['mean_turns_lo'], long['mean_turns_hi'], as_pct=False, digits=1)})")


def policy_strength(page: Page) -> None:
    strength = page.mart("mart_policy_strength")
    if strength.is_empty():
        return
    for (n, options), table in strength.sort("players", "options").group_by("players", "options",
                                                                              maintain_order=True):
        if table.filter(pl.col("focal") != pl.col("field")).is_empty():
            continue  # tables of one policy only: nothing to compare
        suffix = "_".join(filter(None, [f"{n}p", re.sub(r"[^a-z0-9]+", "_", options.lower()).strip("_")]))
        words = table["options_label"][0]
        fig = _strength_matrix(page, table, n, words)
        page.figure(f"policy_table_{suffix}", fig, f"Policy strength, {n} players" + (f", {words}" if words else ""),
                    _strength_sentence(table, n))
    page.table("Policy strength (one focal player at a table of the field policy)",
               strength.sort("players", "options", "focal", "field"), [
                   "pairing_label", "n_plays", "win_rate", "win_rate_lo", "win_rate_hi", "win_share", "fair_share",
                   "mean_score", "mean_score_lo", "mean_score_hi", "seats_covered", "seat_balance", "n_runs",
                   "n_runs_repeated"], mart="mart_policy_strength")


def _strength_matrix(page: Page, table: pl.DataFrame, n: int, words: str):
    policies = [p for p in page.game.policies() if p in set(table["focal"]) | set(table["field"])]
    grid = np.full((len(policies), len(policies)), np.nan)
    for row in table.iter_rows(named=True):
        grid[policies.index(row["focal"]), policies.index(row["field"])] = row["win_rate"]
    fig, ax = plt.subplots(figsize=(1.5 * len(policies) + 2.5, 1.2 * len(policies) + 1.5))
    cmap = plt.get_cmap("RdBu").copy()
    cmap.set_bad("#dddddd")  # a pairing not played: grey, not the white of a fair share
    image = ax.imshow(100 * np.ma.masked_invalid(grid), cmap=cmap, vmin=0, vmax=200 / n)
    for row in table.iter_rows(named=True):
        i, j = policies.index(row["focal"]), policies.index(row["field"])
        half = (row["win_rate_hi"] - row["win_rate_lo"]) / 2
        ax.text(j, i, f"{pct(row['win_rate'])}\n±{100 * half:.1f}", ha="center", va="center", fontsize=8)
    ax.set_xticks(range(len(policies)), policies)
    ax.set_yticks(range(len(policies)), policies)
    ax.set_xlabel("field: the policy of every other seat")
    ax.set_ylabel("focal: one player of this policy")
    fig.colorbar(image, ax=ax, label="focal player's win rate (%)")
    ax.set_title(f"{page.game.title}: policy against policy, {n} players" + (f", {words}" if words else "")
                 + f"\n(seats rotated; grey: not played; fair share {pct(1 / n)})", fontsize=9)
    return fig


def _strength_sentence(table: pl.DataFrame, n: int) -> str:
    pairings = table.filter(pl.col("focal") != pl.col("field"))
    versus_random = pairings.filter(pl.col("field") == "random")
    best = None
    if not versus_random.is_empty():
        top = versus_random.sort("win_rate", descending=True).row(0, named=True)
        best = (f"at a table of random players, {top['focal']} wins most often: {pct(top['win_rate'])} (95% "
                f"interval {interval(top['win_rate_lo'], top['win_rate_hi'])}) against a fair {pct(1 / n)}")
    level = [r for r in pairings.iter_rows(named=True) if not excludes(r["win_rate_lo"], r["win_rate_hi"], 1 / n)]
    if not level:
        fair = ("the pairing differs" if pairings.height == 1 else f"all {pairings.height} pairings differ"
                ) + " significantly from the fair share"
    else:
        fair = ("not significantly different from the fair share: "
                + ", ".join(f"{r['focal']} against {r['field']}" for r in level))
    return sentence(best, fair)


SECTIONS = (seat_advantage, game_length, policy_strength)
