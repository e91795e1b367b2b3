"""The "Design search" section of a game's page: each `simlib tune` and `simlib fixes` search in the lake
(mart_tune_steps), its search path and its confirmed recommendation with intervals, shown only where one was run;
and the index's answer to "Which single change makes the start player fair?" from the fix searches (the answer is
rebuilt by the reading `simlib fixes` prints, simlib/analysis/tunes.py: the command and the report say the same)."""

from __future__ import annotations

import json

import polars as pl

from .layout import error_bar_lengths
from .page import Page
from .tunes import FIX_MARGIN, Dimension, Evaluation, Fix, candidate_ranges, estimate_from_interval, pp
from .words import count, interval, number

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


def _fix_rows(steps: pl.DataFrame) -> pl.DataFrame:
    """The steps of tunes of one number parameter aimed at seat 0's fair share (simlib fixes, or a tune of that
    shape)."""
    aimed = steps.filter((pl.col("metric") == "seat0_advantage") & (pl.col("target") == 0))
    if aimed.is_empty():
        return aimed
    ones = [t for t in aimed["tune_id"].unique().to_list() if _one_number(aimed.filter(pl.col("tune_id") == t))]
    return aimed.filter(pl.col("tune_id").is_in(ones))


def _evaluation(r: dict) -> Evaluation:
    x = estimate_from_interval(r["value"], r["value_lo"], r["value_hi"], r["n_plays"])
    return Evaluation(r["stage"], r["step"], json.loads(r["step_values"]), r["run_id"], r["seed"], r["n_plays"],
                      {r["metric"]: x}, r["loss"])


def fix_of(rows: pl.DataFrame, defaults: dict) -> Fix:
    """One fix search's answer rebuilt from its steps (mart_tune_steps): the values on the search seed, and the
    confirmation judged by TOST within the report's margin (FIX_MARGIN) from its recorded interval."""
    rows = rows.sort("step")
    name = _one_number(rows)
    low, _, high = rows["box"][0].partition("=")[2].partition("..")
    kind = type(defaults.get(name, 0.0))
    searched = [_evaluation(r) for r in rows.filter(pl.col("stage") != "confirm").iter_rows(named=True)]
    confirm = [_evaluation(r) for r in rows.filter(pl.col("stage") == "confirm").iter_rows(named=True)]
    return Fix(name, defaults.get(name), Dimension(name, kind(float(low)), kind(float(high))), "seat0_advantage",
               0.0, FIX_MARGIN, searched, confirm[-1] if confirm else None)


def _search_words(fix: Fix) -> str:
    half = max(x.hi - x.lo for _, x in fix.points) / 2
    return f"{max(e.plays for e in fix.searched):,} plays a value on one seed, each ±{100 * half:.1f} pp at 95%"


def fix_sentence(fix: Fix) -> str:
    """One parameter's fix search in a sentence, with the numbers: the value shown fair within the margin on fresh
    plays; or the crossings found on the search seed and what the confirmation showed (or why there was none); or
    the side seat 0's advantage reads on at every value of the range (on the search seed: a reading, not a test)."""
    pts = fix.points
    tried = f"{fix.name} {pts[0][0]}..{pts[-1][0]}"
    if fix.no_effect:
        return f"{tried} has no effect on these plays (seat 0's advantage {pp(pts[0][1].value)} at every value)."
    eq = fix.equivalence
    if eq and eq.verdict == "fair" and fix.value == fix.default:
        return (f"No change needed: the rule text's {fix.name} {fix.default} on fresh plays: {eq.words()} ({tried} "
                f"searched, {_search_words(fix)}).")
    if eq and eq.verdict == "fair":
        return (f"{fix.name} {fix.default} → {fix.value} on fresh plays: {eq.words()}, a change of {fix.change:.0%} "
                f"({tried} searched, {_search_words(fix)}).")
    confirmed = f"{fix.name} {fix.value} on fresh plays: {eq.words()}" if eq else fix.unconfirmed_words()
    if fix.crossings:
        said = fix.crossing_words()
        return f"{said[0].upper()}{said[1:]} ({_search_words(fix)}); {confirmed}."
    values = [x.value for _, x in pts]
    side = "above" if min(values) > fix.fair else "below"
    return (f"Over {tried} seat 0's advantage reads {side} 0 at every value, {pp(min(values))[:-3]} to "
            f"{pp(max(values))} ({_search_words(fix)}); {confirmed}.")


def fix_answer(steps: pl.DataFrame, game) -> str:
    """The index's answer for one game: its newest set-up's fix searches (each parameter's newest), the best first
    (shown fair within the margin, then a crossing found, then the nearest); a game with no number parameter of its
    rule text says so; "" when no fix search was run."""
    if not candidate_ranges(game, set()):
        choices = ", ".join(n for n, p in game.parameters().items() if not p.derived)
        return f"None to find: {game.title}'s rule text has no number a fix could change (only choices: {choices})."
    rows = _fix_rows(steps)
    if rows.is_empty():
        return ""
    setups = rows.group_by("players", "policies").agg(pl.col("finished_at").max())
    setup = setups.sort("finished_at", "players", "policies", nulls_last=True).row(-1, named=True)
    rows = rows.filter((pl.col("players") == setup["players"]) & (pl.col("policies") == setup["policies"]))
    newest_per_box = rows.group_by("box").agg(pl.col("tune_id").sort_by("finished_at", "tune_id").last())
    defaults = {n: p.default for n, p in game.parameters().items()}
    fixes = sorted((fix_of(rows.filter(pl.col("tune_id") == t), defaults) for t in newest_per_box["tune_id"]),
                   key=Fix.rank)
    best, margin = fixes[0], f"±{100 * FIX_MARGIN:g} pp"
    found = (", a bracket found" if best.clear_crossings else
             ", a sign change within the search's noise" if best.crossings else "")
    lead = (f"{best.name} {best.default} → {best.value}, fair within {margin}" if best.is_fix
            else f"None shown fair within {margin}{found}")
    others = f" Also searched: {', '.join(f.name for f in fixes[1:])}." if len(fixes) > 1 else ""
    return f"{lead}, at {setup['players']} players ({setup['policies']}). {fix_sentence(best)}{others}"


def design_search(page: Page) -> None:
    steps = page.mart("mart_tune_steps")
    page.verdict("fix", FIX_QUESTION, fix_answer(steps, page.game))
    if steps.is_empty():
        return
    fix_tunes = set(_fix_rows(steps)["tune_id"].to_list())
    defaults = {n: p.default for n, p in page.game.parameters().items()}
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
            if tune_id in fix_tunes:
                ax.axhspan(-FIX_MARGIN, FIX_MARGIN, color="#2ca02c", alpha=0.12,
                           label=f"fair: within ±{100 * FIX_MARGIN:g} pp")
            ax.set_xlabel(along or "evaluation, in order")
            ax.set_ylabel(metric)
            ax.set_title(f"{metric}, 95% intervals")
            ax.legend()
        names = ", ".join(json.loads(rows["step_values"][0]))
        aims = " and ".join(f"{m} to {rows.filter(pl.col('metric') == m)['target'][0]:g}" for m in metrics)
        fig.suptitle(f"{page.game.title}: which {names} brings {aims}? (tune {tune_id})")
        said = fix_sentence(fix_of(rows, defaults)) if tune_id in fix_tunes else tune_answer(rows)
        page.figure(f"tune_{tune_id}", fig, "Design search", said)
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
            said.append(f"{metric}: no parameter shown to move it beyond the plays' own noise")
        else:
            index = moving["index_name"][0].replace("mu_star", "mu*")
            parts = [f"{r['parameter']} ({index} {r['value']:.3g} ± {r['value_hi'] - r['value']:.2g})"
                     for r in moving.iter_rows(named=True)]
            still = mine.filter(~pl.col("has_effect"))["parameter"].to_list()
            said.append(f"{metric} moves with {', '.join(parts)}"
                        + (f"; not shown beyond noise with {', '.join(still)}" if still else ""))
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
