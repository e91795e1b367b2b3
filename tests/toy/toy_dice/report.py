"""Toy dice's report section, written with the page API."""

import matplotlib.pyplot as plt
import polars as pl

from simlib.analysis.page import GameReport, Page, pct


def totals(page: Page) -> None:
    frame = page.with_labels(page.mart("mart_toydice_totals")).sort("label", "total")
    if frame.is_empty():
        return
    fig, ax = plt.subplots()
    for label in frame["label"].unique(maintain_order=True):
        run = frame.filter(pl.col("label") == label)
        ax.step(run["total"], 100 * run["share"], where="mid", label=label)
    ax.set_xlabel("total of pips")
    ax.set_ylabel("share of seat-plays (%)")
    ax.legend()
    top = frame.sort("share", descending=True).row(0, named=True)
    page.figure("totals", fig, "Totals rolled", f"The most common total is {top['total']} "
                f"({pct(top['share'])} of seat-plays in {top['label']}).")
    page.table("Totals rolled", frame.select("label", "total", "n_seat_plays", "n_plays", "share"))


REPORT = GameReport(sections=(totals,))
