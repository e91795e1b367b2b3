"""Catan's own report sections: production against the dice (the page's lead: how much of the dice's promise
arrives), cards lost to the robber and to discards, and the win rate of the longest-route and largest-army
card holders. Figures draw the tables of one policy, a colour per policy and a marker per set-up of it."""

from __future__ import annotations

import numpy as np
import polars as pl

from ...analysis.page import Page, ci, error_bars, lead, pct, sentence, span
from ...analysis.sections import figure_rows
from .constants import RESOURCES

BUILDINGS = {"settlement": "settlements", "city": "cities"}
CARDS = {"longest_route": "longest-route card", "largest_army": "largest-army card"}


def _most_played(drawn: pl.DataFrame) -> str:
    """The set-up a sentence quotes: the most plays, then the most players."""
    sizes = drawn.group_by("label", "players").agg(pl.col("n_plays").max())
    return sizes.sort("n_plays", "players", "label", descending=[True, True, False])["label"][0]


def _points(ax, page: Page, drawn: pl.DataFrame, labels: list[str], x: str, y: str, ticks: list, scale: float = 1):
    """Each set-up's y with its interval at the positions of `ticks` (the values of column x), side by side."""
    style = page.style(labels)
    for i, label in enumerate(labels):
        rows = {r[x]: r for r in drawn.filter(pl.col("label") == label).iter_rows(named=True)}
        shown = [t for t in ticks if t in rows]
        if not shown:
            continue
        xs = np.array([ticks.index(t) for t in shown]) + (i - (len(labels) - 1) / 2) * 0.7 / len(labels)
        ys = np.array([rows[t][y] for t in shown], dtype=float)
        err = error_bars(ys, [rows[t][f"{y}_lo"] for t in shown], [rows[t][f"{y}_hi"] for t in shown])
        n = max(r["n_plays"] for r in rows.values())
        ax.errorbar(xs, scale * ys, yerr=scale * err, fmt=style[label]["marker"], color=style[label]["color"],
                    capsize=2, markersize=4, label=f"{label} (n = {n:,})")
    ax.set_xticks(range(len(ticks)), [str(t) for t in ticks])


@lead
def production_vs_dice(page: Page) -> None:
    production, drawn, labels = figure_rows(page, "mart_catan_production_vs_dice")
    if not labels:
        return
    fig, axes = page.subplots(len(BUILDINGS), width=5.8, height=3.6, sharey=True)
    for ax, (building, plural) in zip(axes, BUILDINGS.items()):
        _points(ax, page, drawn.filter(pl.col("building") == building), labels, "resource", "ratio",
                list(RESOURCES), 100)
        ax.axhline(100, color="grey", linestyle="--", linewidth=1, label="the dice's promise (pips/36 a roll)")
        ax.set_title(f"cards received by {plural}")
        ax.legend()
    axes[0].set_ylabel("received, % of the dice's promise")
    fig.suptitle("Catan: cards received from rolls against the dice's promise\n"
                 "(tables of one policy, published rules, 95% intervals)")
    quoted = drawn.filter(pl.col("label") == _most_played(drawn)).sort("ratio")
    least, most = (ci(r, "ratio", where=f"{r['building']} {r['resource']}")
                   for r in (quoted.row(0, named=True), quoted.row(-1, named=True)))
    short = drawn.filter(pl.col("ratio_hi") < 1)
    page.figure("production_vs_dice", fig, "Production against the dice", sentence(
        f"{short.height} of the {drawn.height} buildings and resources drawn get significantly less than the dice "
        f"promise: at {quoted['label'][0]} from {least} to {most} of it arrives",
        "the robber and the bank's shortage take the rest"))
    fewer = quoted.filter(pl.col("ratio_hi") < 1).height  # at the set-up quoted
    said = ("no: every building and resource gets" if fewer == quoted.height else
            f"not everywhere: {fewer} of {quoted.height} buildings and resources get" if fewer else
            "yes: no building or resource gets")
    page.verdict("own", "Do the dice deliver what they promise?", sentence(
        f"{said} significantly less at {quoted['label'][0]}, {least} to {most} of the promise"))
    page.split_table("Production against the dice", production.sort("players", "label", "building", "resource"), [
        "label", "building", "resource", "n_plays", "ratio", "ratio_lo", "ratio_hi", "received_per_play",
        "expected_per_play", "mean_difference", "mean_difference_lo", "mean_difference_hi", "sd_difference",
        "n_seat_plays", "homogeneous"], mart="mart_catan_production_vs_dice",
        note="Per play, all seats together; the difference is per seat-play (received - expected).")


def losses(page: Page) -> None:
    lost, drawn, labels = figure_rows(page, "mart_catan_losses")
    if not labels:
        return
    seats = list(range(int(drawn["seat"].max()) + 1))
    fig, axes = page.subplots(2, width=5.8, height=3.6, sharey=True)
    for ax, (what, title) in zip(axes, (("robbed", "stolen by the robber"), ("discarded", "discarded on a 7"))):
        _points(ax, page, drawn, labels, "seat", f"mean_{what}", seats)
        ax.set(title=f"cards {title}", xlabel="seat (0 = the start player)")
        ax.legend()
    axes[0].set_ylabel("cards lost a play (95% interval)")
    fig.suptitle("Catan: cards lost by seat (tables of one policy, published rules, 95% intervals)")
    apart = [lb for lb in labels if _seats_apart(drawn.filter(pl.col("label") == lb))]
    quoted = drawn.filter(pl.col("label") == _most_played(drawn), pl.col("seat") == 0).row(0, named=True)
    page.figure("losses", fig, "Cards lost to the robber and to discards", sentence(
        f"seats lose {span(drawn['lost_share'])} of the cards they receive" + (", most of them discarded on a 7" if (
            drawn["mean_discarded"] > drawn["mean_robbed"]).all() else "") + ": at "
        f"{quoted['label']} seat 0 discards {ci(quoted, 'mean_discarded', False)} cards a play and loses "
        f"{ci(quoted, 'mean_robbed', False)} to the robber",
        f"some seat loses significantly more than another at {', '.join(apart)}" if apart else
        "no seat's losses stand apart from another's at any table drawn"))
    page.split_table("Cards lost to the robber and to discards", lost.sort("players", "label", "seat"), [
        "label", "seat", "n_plays", "mean_lost", "mean_lost_lo", "mean_lost_hi", "lost_share", "mean_robbed",
        "mean_robbed_lo", "mean_robbed_hi", "mean_discarded", "mean_discarded_lo", "mean_discarded_hi",
        "mean_received", "robbed_share", "discarded_share", "policy", "homogeneous"], mart="mart_catan_losses")


def _seats_apart(run: pl.DataFrame) -> bool:
    """Some seat loses significantly more cards than another (intervals apart)."""
    return run["mean_lost_lo"].max() > run["mean_lost_hi"].min()


def card_holders(page: Page) -> None:
    holders, drawn, labels = figure_rows(page, "mart_catan_card_holders")
    if not labels:
        return
    style = page.style(labels)
    fig, axes = page.subplots(len(CARDS), width=4.2, height=1.4 + 0.42 * len(labels), sharey=True)
    parts, quoted = [], _most_played(drawn)
    for ax, (card, name) in zip(axes, CARDS.items()):
        rows = {r["label"]: r for r in drawn.filter(pl.col("card") == card).iter_rows(named=True)}
        for y, label in enumerate(labels):
            r = rows.get(label)
            if r is None or r["holder_win_rate"] is None:
                continue
            for who, fill, dy in (("holder", style[label]["color"], -0.15), ("without", "white", 0.15)):
                x = np.array([r[f"{who}_win_rate"]])
                err = error_bars(x, [r[f"{who}_win_rate_lo"]], [r[f"{who}_win_rate_hi"]])
                ax.errorbar(100 * x, [y + dy], xerr=100 * err, fmt="o", color=style[label]["color"],
                            markerfacecolor=fill, capsize=2, markersize=5)
        ax.set_yticks(range(len(labels)), [f"{lb} (n = {rows[lb]['n_plays']:,})" if lb in rows else lb
                                           for lb in labels])
        ax.set(title=f"the {name}", xlabel="win rate (%, 95% Wilson interval)")
        ax.plot([], [], "o", color="grey", label="the card's holder at the end")
        ax.plot([], [], "o", color="grey", markerfacecolor="white", label="the seats without it")
        ax.legend()
        ahead = [r for r in rows.values() if r["holder_win_rate_lo"] is not None
                 and r["holder_win_rate_lo"] > r["without_win_rate_hi"]]
        if (r := rows.get(quoted)) and r["holder_win_rate"] is not None:
            parts.append((f"the {name}'s holder{'' if parts else ' wins'} {ci(r, 'holder_win_rate')} against "
                          f"{pct(r['without_win_rate'])}{'' if parts else ' for the seats without it'}",
                          (len(ahead), len(rows))))
    axes[0].invert_yaxis()  # the shared axis: once, so the set-ups read top-down in players order
    fig.suptitle("Catan: do the card holders win? (tables of one policy, published rules)")
    said, ahead = ", ".join(p for p, _ in parts), [t for _, t in parts]
    tables = "every table drawn" if all(a == n for a, n in ahead) else " and ".join(
        f"{a} of {n}" for a, n in ahead) + " tables drawn"
    page.figure("card_holders", fig, "Longest route and largest army", sentence(
        said and f"at {quoted} {said}", ahead and f"significantly more often at {tables}",
        "an association, not a cause: the card is worth 2 points and goes to a seat doing well"))
    page.split_table("Win rate of the card holders", holders.sort("players", "label", "card"), [
        "label", "card", "n_plays", "holder_win_rate", "holder_win_rate_lo", "holder_win_rate_hi",
        "without_win_rate", "without_win_rate_lo", "without_win_rate_hi", "holder_share", "plays_with_holder",
        "holder_wins", "seat_plays_without", "wins_without", "homogeneous"], mart="mart_catan_card_holders")


# The sections this game hands to the report, in page order.
SECTIONS = (production_vs_dice, losses, card_holders)
