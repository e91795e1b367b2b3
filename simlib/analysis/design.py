"""The "Design search" section of a game's page: each `simlib tune` in the lake (mart_tune_steps), its search
path and its confirmed recommendation with intervals. A page shows it only where a tune was run."""

from __future__ import annotations

import json

import polars as pl

from .page import Page, count, error_bar_lengths, interval, number

STAGE_LOOK = {"search": ("o", "#9aa5b1"), "refine": ("s", "#1f77b4"), "confirm": ("D", "#d62728")}
MOST_TUNES = 3  # figures for the newest three; every step of every one stays in the table


def _values_words(text: str) -> str:
    return ", ".join(f"{k} = {v}" for k, v in json.loads(text).items())


def _one_number(rows: pl.DataFrame) -> str | None:
    """The varied parameter when the tune varies one number parameter (its values make the x axis)."""
    first = json.loads(rows["step_values"][0])
    if len(first) == 1:
        name, value = next(iter(first.items()))
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return name
    return None


def tune_answer(rows: pl.DataFrame) -> str:
    """The recommendation in a sentence: values, each metric confirmed with its interval, target inside or not."""
    final = rows.filter(pl.col("is_recommendation"))
    if final.is_empty():
        return ""
    first = final.row(0, named=True)
    said = []
    for r in final.iter_rows(named=True):
        where = "inside" if r["target_inside"] else "outside"
        said.append(f"{r['metric']} {number(r['value'], 3)} (95% interval "
                    f"{interval(r['value_lo'], r['value_hi'], as_pct=False, digits=3)}; target {r['target']:g}, "
                    f"{where})")
    return " ".join(filter(None, [
        f"Searching {first['box']} at {first['players']} players ({first['policies']}), the design search "
        f"recommends {_values_words(first['step_values'])}: on {first['n_plays']:,} fresh plays {', '.join(said)}.",
        *(_between(rows, r) for r in final.iter_rows(named=True) if not r["target_inside"]),
        f"It spent {first['plays_simulated']:,} plays in {count(first['n_runs'], 'run')}."]))


def _between(rows: pl.DataFrame, final: dict) -> str:
    """For a tune of one number parameter whose target lies outside the confirmed interval: the two values tried
    (each with its most plays) on either side of the target, or that none lies on one side."""
    name = _one_number(rows)
    if name is None:
        return ""
    tried = (rows.filter((pl.col("metric") == final["metric"]) & ~pl.col("is_recommendation"))
             .sort("n_plays").unique("step_values", keep="last"))
    below = tried.filter(pl.col("value") < final["target"]).sort("value").tail(1)
    above = tried.filter(pl.col("value") > final["target"]).sort("value").head(1)
    if below.is_empty() or above.is_empty():
        return (f"No value of {name} tried gives {final['metric']} {'below' if below.is_empty() else 'above'} "
                f"{final['target']:g}: the target may be out of the range's reach.")
    lo, hi = below.row(0, named=True), above.row(0, named=True)
    return (f"The target lies between {_values_words(lo['step_values'])} ({number(lo['value'], 3)}) and "
            f"{_values_words(hi['step_values'])} ({number(hi['value'], 3)}) on the search's seed.")


FIX_QUESTION = "Which single change makes the start player fair?"


def fix_answer(steps: pl.DataFrame, defaults: dict) -> str:
    """From the tunes of one parameter aimed at seat 0's fair share (simlib fixes, or a tune of that shape): the
    confirmed value nearest the rule text's, relative to it; "" when no such tune was run."""
    aimed = steps.filter(pl.col("is_recommendation") & (pl.col("metric") == "seat0_advantage")
                         & (pl.col("target") == 0))
    aimed = aimed.filter(pl.col("step_values").map_elements(lambda t: len(json.loads(t)) == 1,
                                                            return_dtype=pl.Boolean))
    if aimed.is_empty():
        return ""
    fixes = []
    for r in aimed.filter(pl.col("target_inside")).iter_rows(named=True):
        name, value = next(iter(json.loads(r["step_values"]).items()))
        default = defaults.get(name)
        if isinstance(default, (int, float)) and not isinstance(default, bool):
            fixes.append((abs(value - default) / max(abs(default), 1), name, default, value, r))
    tried = aimed["box"].unique().sort().to_list()
    if not fixes:
        first = aimed.row(0, named=True)
        return (f"No single change tried was confirmed to make it fair at {first['players']} players "
                f"({first['policies']}): {', '.join(tried)}; seat 0's advantage outside 0 at every recommendation.")
    _, name, default, value, r = min(fixes, key=lambda f: f[0])
    pp = f"{100 * r['value']:+.1f} pp ({100 * r['value_lo']:+.1f} to {100 * r['value_hi']:+.1f})"
    return (f"{name} {default} → {value} at {r['players']} players ({r['policies']}): seat 0's advantage {pp} on "
            f"{r['n_plays']:,} fresh plays, the smallest change of {len(fixes)} confirmed.")


def design_search(page: Page) -> None:
    steps = page.mart("mart_tune_steps")
    if steps.is_empty():
        return
    page.verdict("fix", FIX_QUESTION, fix_answer(steps, {n: p.default for n, p in page.game.parameters().items()}))
    for tune_id in newest(steps, "tune_id"):
        rows = steps.filter(pl.col("tune_id") == tune_id).sort("step")
        metrics = rows["metric"].unique(maintain_order=True).to_list()
        along = _one_number(rows)
        if along:
            rows = rows.with_columns(x=pl.col("step_values").map_elements(lambda t: float(next(iter(
                json.loads(t).values()))), return_dtype=pl.Float64))
        fig, axes = page.subplots(len(metrics), width=5.0, height=3.6)
        for ax, metric in zip(axes, metrics):
            mine = rows.filter(pl.col("metric") == metric)
            for stage, (marker, colour) in STAGE_LOOK.items():
                part = mine.filter(pl.col("stage") == stage)
                if part.is_empty():
                    continue
                err = error_bar_lengths(part["value"].to_numpy(), part["value_lo"], part["value_hi"])
                ax.errorbar(part["x" if along else "step"].to_numpy(), part["value"].to_numpy(), yerr=err,
                            fmt=marker, color=colour, capsize=3, label=f"{stage} ({part['n_plays'].max():,} plays)")
            ax.axhline(mine["target"][0], color="black", linestyle="--", linewidth=1, label="target")
            ax.set_xlabel(along or "evaluation, in order")
            ax.set_ylabel(metric)
            ax.set_title(f"{metric}, 95% intervals")
            ax.legend()
        names = ", ".join(json.loads(rows["step_values"][0]))
        aims = " and ".join(f"{m} to {rows.filter(pl.col('metric') == m)['target'][0]:g}" for m in metrics)
        fig.suptitle(f"{page.game.title}: which {names} brings {aims}? (tune {tune_id})")
        page.figure(f"tune_{tune_id}", fig, "Design search", tune_answer(rows))
    page.table("Design search: every step (search on one seed, the best again with more plays, the recommendation "
               "confirmed on a fresh seed)", steps.sort("tune_id", "step", "metric"),
               "tune_id box players policies stage step step_values seed n_plays metric target value± target_inside "
               "loss", mart="mart_tune_steps", collapsed=True)


def newest(rows: pl.DataFrame, key: str) -> list[str]:
    """The MOST_TUNES searches or analyses whose runs ended last, newest first (the id breaks a tie)."""
    last = rows.group_by(key).agg(pl.col("finished_at").max()).sort(["finished_at", key], descending=[True, False],
                                                                     nulls_last=True)
    return last[key].head(MOST_TUNES).to_list()


def sensitivity_answer(rows: pl.DataFrame) -> str:
    """Per metric, which parameters move it (main index above 0 beyond its interval), the largest first."""
    main = rows.filter(pl.col("is_main_index"))
    said = []
    for metric in main["metric"].unique(maintain_order=True):
        mine = main.filter(pl.col("metric") == metric).sort("value", descending=True)
        if mine["has_effect"].is_null().all():  # Sobol: the indices without a judgement of noise
            said.append(f"{metric}: " + ", ".join(
                f"{r['parameter']} ST {r['value']:.3g} ± {r['value_hi'] - r['value']:.2g}"
                for r in mine.iter_rows(named=True)))
            continue
        moving = mine.filter(pl.col("has_effect"))
        if moving.is_empty():
            said.append(f"{metric} moves with none of them")
        else:
            index = moving["index_name"][0].replace("mu_star", "mu*")
            parts = [f"{r['parameter']} ({index} {r['value']:.3g} ± {r['value_hi'] - r['value']:.2g})"
                     for r in moving.iter_rows(named=True)]
            still = mine.filter(~pl.col("has_effect"))["parameter"].to_list()
            said.append(f"{metric} moves with {', '.join(parts)}" + (f", not with {', '.join(still)}" if still else ""))
    first = rows.row(0, named=True)
    fixed = json.loads(first["options"] or "{}")
    held = f" with {', '.join(f'{k}={v}' for k, v in fixed.items())} fixed" if fixed else ""
    return (f"Over {first['box']} at {first['players']} players ({first['policies']}){held}, {first['method']}, "
            f"{first['n_points']} points of {first['n_plays']:,} plays on one seed: " + "; ".join(said) + ".")


def parameters_that_matter(page: Page) -> None:
    rows = page.mart("mart_sensitivity")
    if rows.is_empty():
        return
    for analysis_id in newest(rows, "analysis_id"):
        mine = rows.filter((pl.col("analysis_id") == analysis_id) & pl.col("is_main_index"))
        metrics = mine["metric"].unique(maintain_order=True).to_list()
        fig, axes = page.subplots(len(metrics), width=4.2, height=0.5 * mine["parameter"].n_unique() + 1.8)
        for ax, metric in zip(axes, metrics):
            part = mine.filter(pl.col("metric") == metric).sort("parameter")
            y = list(range(part.height))
            shades = ["#c7c7c7" if e is False else "#1f77b4" for e in part["has_effect"]]
            ax.barh(y, part["value"].to_numpy(), color=shades,
                    xerr=error_bar_lengths(part["value"].to_numpy(), part["value_lo"], part["value_hi"]), capsize=3)
            ax.set_yticks(y, part["parameter"].to_list(), fontsize=9)
            ax.set_title(metric)
            ax.set_xlabel(f"{part['index_name'][0].replace('mu_star', 'mu*')}, 95% interval")
            if part["noise"].is_not_null().any():
                ax.axvline(part["noise"].max(), color="black", linestyle=":", linewidth=1, label="noise alone")
                ax.legend()
        fig.suptitle(f"{page.game.title}: which parameters matter? (grey: no effect beyond noise and interval)")
        page.figure(f"sensitivity_{analysis_id}", fig, "Which parameters matter", sensitivity_answer(
            rows.filter(pl.col("analysis_id") == analysis_id)))
    page.table("Which parameters matter: every index (Morris mu* and sigma, Sobol S1 and ST)",
               rows.sort("analysis_id", "metric", "parameter", "index_name"),
               "analysis_id method box players policies n_plays n_points parameter metric index_name value± "
               "has_effect", mart="mart_sensitivity", collapsed=True)
