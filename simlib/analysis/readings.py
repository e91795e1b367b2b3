"""Readings of the rule text: where the text can be read two ways, the game has an option whose parameter names
the words (`reading` in its parameters.toml), and its report batch sweeps the option from the default reading to
the other. This section says what choosing one reading over the other changes, from mart_variant_effects (paired
plays, so a small change shows): a forest plot of each reading's difference per metric, a sentence per reading,
the index's verdict and a table. A reading the batch did not sweep is named as not measured, never as harmless.
"""

from __future__ import annotations

import polars as pl

from ..core.setups import table_words
from .estimators import holm
from .figure_kinds import Forest
from .page import Page
from .whatif import BALANCE, is_share, metric_name, sweep_metrics, variant_line, variant_sentence, variant_words

QUESTION = "Does reading the rule text another way change the game?"


def _reading_rows(page: Page) -> pl.DataFrame:
    """The sweeps' rows (whole plays, not seats) of every one-option sweep over a reading."""
    names = [name for name, p in page.game.parameters().items() if p.reading]
    effects = page.mart("mart_variant_effects")
    if effects.is_empty() or not names:
        return pl.DataFrame()
    return effects.filter(pl.col("parameters").is_in(names) & pl.col("seat").is_null())


def _readings(page: Page, rows: pl.DataFrame) -> list[dict]:
    """One entry per (option, variant, table): its words, the metrics' rows and the sentence; the tests of every
    reading the figure draws share one error rate (their p Holm-adjusted together)."""
    found = []
    for (name, players, policies), group in rows.sort("parameters", "players", "policies").group_by(
            "parameters", "players", "policies", maintain_order=True):
        baseline = variant_words(page.game, group.filter(pl.col("is_baseline"))["variant_values"][0])
        metrics = [m for m in sweep_metrics(group, policies) if m != BALANCE]
        variants = group.filter(~pl.col("is_baseline")).sort("variant_order").unique("variant", maintain_order=True)
        for variant, values in zip(variants["variant"], variants["variant_values"]):
            of_variant = group.filter(pl.col("variant") == variant)
            by_metric = {m: of_variant.filter(pl.col("metric") == m) for m in metrics}
            metric_rows = {m: frame.row(0, named=True) for m, frame in by_metric.items() if not frame.is_empty()}
            words, setup = variant_words(page.game, values), _setup_words(page, group, policies)
            found.append({"name": name, "baseline": baseline, "variant": words, "table": setup, "rows": metric_rows})
    tests = [row for entry in found for row in entry["rows"].values()]
    for row, p in zip(tests, holm([row["p_value"] for row in tests])):
        row["p_holm"] = p
    for e in found:
        e["sentence"] = f"At {e['table']}, " + variant_sentence(e["variant"], e["baseline"], e["rows"], page.game)
        e["line"] = variant_line(f"{e['variant']} ({e['table']})", e["rows"], page.game)
    return found


def _setup_words(page: Page, group: pl.DataFrame, policies: str) -> str:
    """The baseline run's set-up in words (its fixed options too, such as 7 Steps' back side), else the table."""
    if "label" in page.runs.columns:
        labels = page.runs.filter(pl.col("run_id") == group["baseline_run_id"][0])["label"]
        if not labels.is_empty():
            return labels[0]
    return table_words(page.game, policies.split(","))


def _forest(page: Page, found: list[dict]) -> Forest:
    """A panel per metric: each reading's paired difference from the default reading with its 95% interval."""
    rows = []
    for e in found:
        for metric, r in e["rows"].items():
            scale = 100 if is_share(metric) else 1
            rows.append({"panel": metric_name(metric, page.game) + (" (pp)" if is_share(metric) else ""),
                         "row": f"{e['variant']}\n(against {e['baseline']}, {e['table']})",
                         "value": scale * r["difference"], "lo": scale * r["difference_lo"],
                         "hi": scale * r["difference_hi"]})
    return Forest(pl.DataFrame(rows), f"{page.game.title}: what reading the rule text another way changes",
                  "other reading − default", point_label="paired difference, 95% interval")


def rule_readings(page: Page) -> None:
    readings = {name: p for name, p in page.game.parameters().items() if p.reading}
    if not readings:
        return
    rows = _reading_rows(page)
    found = _readings(page, rows) if not rows.is_empty() else []
    unmeasured = [name for name in readings if name not in {e["name"] for e in found}]
    said = [e["line"] for e in found]
    if unmeasured:
        said.append(f"not measured in this report (no sweep over it): {', '.join(unmeasured)}")
    page.verdict("readings", QUESTION, "; ".join(said) + ".")
    if not found:
        return
    quotes = " ".join(f"{name}: {readings[name].reading}" for name in dict.fromkeys(e["name"] for e in found))
    page.figure("readings", _forest(page, found), "Readings of the rule text",
                " ".join(e["sentence"] for e in found) + f" The text's words: {quotes}")
    mixed = pl.col("policies").str.split(",").list.unique().list.len() > 1  # seat 0's advantage measures policies
    table = rows.filter(~pl.col("is_baseline")
                        & ~((pl.col("metric") == "seat0_advantage") & mixed)).with_columns(
        reading=pl.col("parameters").replace_strict({n: p.reading for n, p in readings.items()}, default=""))
    page.table("Readings of the rule text: each other reading against the default, paired play by play",
               table.sort("parameters", "players", "policies", "metric", "variant_order"),
               "parameters reading variant players policies metric n_plays baseline_mean variant_mean difference "
               "difference_lo difference_hi p_value equivalent", mart="mart_variant_effects", collapsed=True,
               note="Shares (seat0_advantage, a headline rate) as fractions: 0.03 is 3 percentage points.")

