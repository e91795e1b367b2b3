"""The report's What-if page: each sweep's variants against its baseline, from mart_variant_effects.

A figure per sweep, player count and line-up: one panel per metric (the game's headline first), the metric
against the varied value, the baseline marked; each variant's error bar is the 95% interval of its paired
difference from the baseline, drawn around the variant's value. Balance is not a mean over plays: its panel draws
each variant's own balance with its own interval (mart_run_balance), and no sentence compares them. Under the
figure, one computed sentence per variant: a change where its Holm-adjusted p (over the figure's tests) is below
0.05, "no change larger than X" where the 90% interval lies within the metric's margin, else "too few plays to
tell" with the interval (docs/statistics.md).
"""

from __future__ import annotations

import json
import re

import polars as pl

from ..core.setups import phrase, table_words
from .layout import error_bar_lengths
from .page import Page
from .plugin import game_report
from .words import digits_apart, p_text, signed

_NAMES = {"seat0_advantage": "seat 0's advantage", "balance": "balance", "length": "game length"}
BALANCE = "balance"  # a panel of each run's own balance (mart_run_balance), not a paired metric
_AS_POINTS = ("seat0_advantage", "balance")  # shares: shown in percentage points


def metric_name(metric: str, game) -> str:
    if metric == "length":
        return f"game length ({game_report(game).turn_name})"
    return _NAMES.get(metric, metric.removeprefix("headline: "))


def is_share(metric: str) -> bool:
    """Shares are shown in percent (and differences in percentage points): seat 0's advantage, balance, and a
    headline that names itself a rate."""
    return metric in _AS_POINTS or metric.endswith("rate")


def _value(metric: str, x: float) -> str:
    return f"{100 * x:.1f}%" if is_share(metric) else f"{x:.2f}"


def _scale(metric: str) -> tuple[int, int, str]:
    """How a metric's differences are written: a share in percentage points to 1 decimal, anything else as is to 2
    (each with more decimals where an interval needs them)."""
    return (100, 1, " pp") if is_share(metric) else (1, 2, "")


def variant_words(game, variant_values: str) -> str:
    """A variant's varied values in words, from the game's set-up phrases ("tower 12 penalty points")."""
    return ", ".join(phrase(game, name, value) for name, value in json.loads(variant_values).items())


def _x_positions(group: pl.DataFrame) -> tuple[list, list[str], bool]:
    """Each variant's place on the x axis: its value when one numeric parameter is swept, else its rank
    (the baseline first, then the values as given)."""
    values = [json.loads(v) for v in group["variant_values"]]
    single = [list(v.values())[0] for v in values] if all(len(v) == 1 for v in values) else None
    if single is None:
        return list(range(group.height)), group["variant"].to_list(), False
    if all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in single):
        return single, [str(v) for v in single], True
    return list(range(group.height)), [str(v) for v in single], False


def sweep_metrics(effects: pl.DataFrame, policies: str) -> list[str]:
    """The panels of one figure: the headlines, then seat 0's advantage and balance where every seat plays one
    policy (at a mixed table they measure the policies, not the seats), then length."""
    present = effects["metric"].unique().to_list()
    headlines = sorted(m for m in present if m.startswith("headline: "))
    one_policy = len(set(policies.split(","))) == 1
    seats = ["seat0_advantage"] if one_policy and "seat0_advantage" in present else []
    return headlines + seats + [BALANCE] * one_policy + ["length"] * ("length" in present)


def _unit(metric: str, game) -> str:
    """The unit a metric's numbers are said in: a length in the game's one unit of length."""
    return f" {game_report(game).turn_name}" if metric == "length" else ""


def _change(metric: str, row: dict, game) -> str:
    """"-1.95 (-1.97 to -1.92)", "+3.1 pp (+2.2 to +4.0 pp)", "-28.50 turns (-34.49 to -22.51)", with as many
    decimals as the interval's ends need to print apart ("-1.170 (-1.175 to -1.165)")."""
    lo, hi = row["difference_lo"], row["difference_hi"]
    scale, digits, unit = _scale(metric)
    digits = digits_apart(scale * lo, scale * hi, signed, digits)
    return (f"{signed(scale * row['difference'], digits)}{unit}{_unit(metric, game)} ({signed(scale * lo, digits)} "
            f"to {signed(scale * hi, digits)}{unit})")


def _largest_change(metric: str, row: dict, game) -> str:
    """The change the 90% interval rules out anything above: the farther of its ends."""
    largest = max(abs(row["difference_lo90"]), abs(row["difference_hi90"]))
    scale, digits, unit = _scale(metric)
    digits = digits_apart(0.0, scale * largest, signed, digits)  # never "no change larger than 0.0 pp"
    return f"{signed(scale * largest, digits).lstrip('+')}{unit}{_unit(metric, game)}"


def _short(metric: str, game) -> str:
    """A metric's name without its explanation in brackets (the index's lines)."""
    return re.sub(r" [(].*[)]", "", metric_name(metric, game))


def _verdicts(rows: dict[str, dict], game) -> tuple[list[str], list[str], list[str], list[str]]:
    """Each metric's row as what may be said of it: changed (Holm p < 0.05), within its margin (TOST), too few plays
    to tell, unchanged in every paired play."""
    changed, small, unclear, unchanged = [], [], [], []
    for metric, row in rows.items():
        name = metric_name(metric, game)
        if row["difference_lo"] == row["difference_hi"] == 0:
            unchanged.append(name)
        elif row["p_holm"] < 0.05:
            changed.append(f"{name} {_value(metric, row['baseline_mean'])} → {_value(metric, row['variant_mean'])}, "
                           f"difference {_change(metric, row, game)}, Holm {p_text(row['p_holm'])}")
        elif row["equivalent"]:
            small.append(f"no change larger than {_largest_change(metric, row, game)} in {name}")
        else:
            unclear.append(f"{name} {_change(metric, row, game)}")
    return changed, small, unclear, unchanged


def variant_sentence(variant: str, baseline: str, rows: dict[str, dict], game) -> str:
    """"tower 12 penalty points (against tower 15 penalty points): penalty points per seat 15.04 -> 13.87,
    difference -1.17 (-1.18 to -1.16), Holm p < 0.001; no change larger than 0.3 pp in seat 0's advantage; too few
    plays to tell in game length (-0.21 to +0.40); unchanged in every paired play: ..." """
    changed, small, unclear, unchanged = _verdicts(rows, game)
    parts = changed + small + [f"too few plays to tell: {', '.join(unclear)}"] * bool(unclear) \
        + [f"unchanged in every paired play: {', '.join(unchanged)}"] * bool(unchanged)
    return f"{variant} (against {baseline}): " + "; ".join(parts) + "."


def variant_line(variant: str, rows: dict[str, dict], game) -> str:
    """The index's line: what changes (Holm p < 0.05), else what the plays rule out, else that they cannot tell."""
    changed = [f"{_short(m, game)} {_change(m, r, game)}" for m, r in rows.items()
               if r["p_holm"] < 0.05 and not r["difference_lo"] == r["difference_hi"] == 0]
    if changed:
        return f"{variant}: " + ", ".join(changed[:2])  # the headline first
    unclear = [f"{_short(m, game)} {_change(m, r, game)}" for m, r in rows.items()
               if not r["equivalent"] and not r["difference_lo"] == r["difference_hi"] == 0]
    if unclear:
        return f"{variant}: too few plays to tell (" + "; ".join(unclear[:2]) + ")"
    moved = any(not r["difference_lo"] == r["difference_hi"] == 0 for r in rows.values())
    return f"{variant}: " + ("no change larger than the margins" if moved else "unchanged in every paired play")


def _index_changes(lines: list[str]) -> str:
    """A sweep's variants on the index: each with what it changes; where every variant is shown to change nothing
    beyond the margins, that in a few words (the What-if page names them)."""
    if len(lines) < 2 or not all(line.endswith(": no change larger than the margins") for line in lines):
        return "; ".join(lines)
    return "no change larger than the margins in " + (
        "either variant" if len(lines) == 2 else f"any of its {len(lines)} variants")


def _index_lines(sweeps: list[tuple[str, str, list[str], list[str]]]) -> list[str]:
    """The index's lines from each sweep's (table, baseline, variants, lines): one a sweep, or one for the sweeps
    of the same variants against the same baseline at several tables (each table then named in it)."""
    groups: dict[tuple, list] = {}
    for table, baseline, variants, lines in sweeps:
        groups.setdefault((baseline, tuple(variants)), []).append((table, _index_changes(lines)))
    said = []
    for (baseline, variants), tables in groups.items():
        changes = [change for _, change in tables]
        if len(tables) == 1:
            said.append(f"{tables[0][0]}, against {baseline}: {changes[0]}")
        elif len(variants) == 1:  # "equal hands against staggered hands: at 2 players: ...; at 3 players: ..."
            at = [f"at {table}: {change.removeprefix(variants[0] + ': ')}" for table, change in tables]
            said.append(f"{variants[0]} against {baseline}: " + "; ".join(at))
        elif len(set(changes)) == 1 and changes[0].startswith("no change larger"):  # the same at every table
            said.append(f"against {baseline}: {changes[0]}, at " + " or at ".join(table for table, _ in tables))
        else:
            said.append(f"against {baseline}: " + "; ".join(f"at {table}, {change}" for table, change in tables))
    return [f"{line}." for line in said]


def _panel(ax, group: pl.DataFrame, metric: str, game) -> None:
    rows = group.filter((pl.col("metric") == metric) & pl.col("seat").is_null()).sort("variant_order")
    rows = pl.concat([rows.filter(pl.col("is_baseline")), rows.filter(~pl.col("is_baseline"))])
    if rows.is_empty() or not rows["is_baseline"][0]:  # e.g. a headline the baseline's plays never had
        ax.set_axis_off()
        return
    x, ticks, numeric = _x_positions(rows)
    scale = 100 if is_share(metric) else 1
    base = rows.row(0, named=True)
    y = rows["variant_mean"].to_numpy()
    # The paired interval of the difference, drawn around the variant's own value.
    lo = y - (rows["difference"] - rows["difference_lo"]).to_numpy()
    hi = y + (rows["difference_hi"] - rows["difference"]).to_numpy()
    ax.axhspan(scale * base["variant_mean_lo"], scale * base["variant_mean_hi"], color="grey", alpha=0.2,
               label="baseline's own 95% interval")
    order = sorted(range(len(x)), key=lambda i: x[i])  # the line runs along the axis, the baseline wherever it is
    ax.plot([x[i] for i in order], [scale * y[i] for i in order], color="C0")
    ax.errorbar(x, scale * y, yerr=scale * error_bar_lengths(y, lo, hi), fmt="o", color="C0", capsize=3,
                label="variant (bar: paired 95% interval of the difference)")
    ax.plot([x[0]], [scale * y[0]], marker="*", markersize=14, color="black", linestyle="", label="baseline")
    ax.set_xticks(x, ticks, rotation=0 if numeric or max(map(len, ticks)) < 10 else 30)
    ax.set_title(metric_name(metric, game) + (" (%)" if is_share(metric) else ""))
    ax.set_xlabel(rows["parameters"][0].replace("_", " ").replace(",", ", "))


def _balance_panel(ax, group: pl.DataFrame, balance: pl.DataFrame) -> None:
    """Each variant's own balance with its own 95% interval (mart_run_balance): balance takes the best and the worst
    seat, so it has no paired difference; the baseline's interval is shaded. Of a sweep run on several seeds, the run
    of its largest sweep (balance is not a sum that adds up over runs)."""
    runs = (group.filter(pl.col("metric") == "length").unique("run_id").sort("variant_order")
            .select("run_id", "variant", "variant_values", "variant_order", "is_baseline"))
    rows = runs.join(balance.select("run_id", "balance", "balance_lo", "balance_hi"), on="run_id").drop_nulls(
        "balance")
    rows = pl.concat([rows.filter(pl.col("is_baseline")), rows.filter(~pl.col("is_baseline"))])
    if rows.is_empty() or not rows["is_baseline"][0]:
        ax.set_axis_off()
        return
    x, ticks, numeric = _x_positions(rows)
    y = 100 * rows["balance"].to_numpy()
    base = rows.row(0, named=True)
    ax.axhspan(100 * base["balance_lo"], 100 * base["balance_hi"], color="grey", alpha=0.2)
    err = error_bar_lengths(y, 100 * rows["balance_lo"].to_numpy(), 100 * rows["balance_hi"].to_numpy())
    pooled = group["n_sweeps"].max() > 1
    ax.errorbar(x, y, yerr=err, fmt="s", color="C1", capsize=3,
                label="balance: each run's own 95% interval (not paired)" if not pooled else
                "balance: the run of the largest seed's sweep, its own 95% interval (not paired)")
    ax.plot([x[0]], [y[0]], marker="*", markersize=14, color="black", linestyle="")
    ax.set_ylim(top=100.5)
    ax.set_xticks(x, ticks, rotation=0 if numeric or max(map(len, ticks)) < 10 else 30)
    ax.set_title("balance (%)")
    ax.legend()  # its own entry: each run's interval, not a paired one (moved below the panels by page.figure)
    ax.set_xlabel(rows.join(group.select("run_id", "parameters").unique("run_id"), on="run_id")["parameters"][0]
                  .replace("_", " ").replace(",", ", "))


def what_if(page: Page) -> None:
    """One figure per sweep, player count and line-up, with one sentence per variant; then the table."""
    effects = page.mart("mart_variant_effects")
    if effects.is_empty():
        return
    groups = effects.sort("sweep_id", "players", "policies").group_by("sweep_id", "players", "policies",
                                                                       maintain_order=True)
    sweeps = []  # each figure's table, baseline, variants and index lines
    for i, (key, group) in enumerate(groups):
        sweep_id, players, policies = key
        metrics = sweep_metrics(group, policies)
        # room between the panels for tick labels as long as a length's "20.565"
        fig, axes = page.subplots(len(metrics), width=3.0, height=3.0, gridspec_kw={"wspace": 0.45, "hspace": 0.6})
        for ax, metric in zip(axes, metrics):
            if metric == BALANCE:
                _balance_panel(ax, group, page.mart("mart_run_balance"))
            else:
                _panel(ax, group, metric, page.game)
        axes[0].legend()  # moved below the panels by page.figure
        n = group["n_plays"].max()
        seeds = group["n_sweeps"].max()
        parameters = group["parameters"][0]
        baseline = variant_words(page.game, group.filter(pl.col("is_baseline"))["variant_values"][0])
        table = table_words(page.game, policies.split(","))
        fig.suptitle(f"{page.game.title}: what if {parameters.replace('_', ' ')} changed? {table}\n"
                     f"(n = {n:,} paired plays per variant{f' over {seeds} seeds' if seeds > 1 else ''}; "
                     f"baseline: {baseline})")
        sentences, lines, names = [], [], []
        main = [m for m in metrics if m != BALANCE]
        variants = group.filter(~pl.col("is_baseline")).sort("variant_order").unique("variant", maintain_order=True)
        for variant, values in zip(variants["variant"], variants["variant_values"]):
            of_variant = group.filter((pl.col("variant") == variant) & pl.col("seat").is_null())
            found = {m: of_variant.filter(pl.col("metric") == m) for m in main}
            rows = {m: frame.row(0, named=True) for m, frame in found.items() if not frame.is_empty()}
            sentences.append(variant_sentence(variant_words(page.game, values), baseline, rows, page.game))
            names.append(variant_words(page.game, values))
            lines.append(variant_line(names[-1], rows, page.game))
        sweeps.append((table, baseline, names, lines))
        page.figure(f"whatif_{i}", fig,
                    f"What if {parameters.replace('_', ' ')} changed ({table})", " ".join(sentences))
    page.index_lines += _index_lines(sweeps)
    page.table("What-if effects: each variant against its baseline, paired play by play",
               effects.sort("sweep_id", "players", "policies", "metric", "seat", "variant_order").select(
                   "parameters", "variant", "is_baseline", "players", "policies", "metric", "seat", "n_sweeps",
                   "n_plays", "baseline_mean", "variant_mean", "difference", "difference_lo", "difference_hi",
                   "p_value", "p_holm", "margin", "equivalent", "unpaired_lo", "unpaired_hi", "pairing_gain", "run_id",
                   "baseline_run_id"),
               collapsed=True,
               note="difference: variant - baseline over the same plays (same seed). p_holm: the p adjusted over the "
                    "figure's tests (Holm); equivalent: the 90% interval lies within +/- margin. unpaired: the "
                    "interval had the runs had independent seeds; pairing_gain: how many times wider that would be. "
                    "The shares "
                    "(seat0_advantage, balance, a headline rate) are written here as fractions, not percentages: "
                    "0.03 is 3%, a difference of 0.03 is 3 percentage points.")
