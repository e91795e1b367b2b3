"""Die Mauer's own report sections: penalty points by seat (the game's question) at every table size, penalty
totals over a match by table position, and how build rounds (the rule text's Baurunden) resolve. Penalty points are
drawn as the designer counts them (Minuspunkte, positive; fewer is better), never as the negative score the generic
marts rank by. Seats (and table positions) are compared pair by pair, play by play (match by match), the tests of
every pair a figure draws sharing one error rate (Holm; docs/statistics.md)."""

from __future__ import annotations

import polars as pl
from matplotlib.lines import Line2D
from matplotlib.patches import Patch

from ...analysis.estimators import holm
from ...analysis.page import (
    Forest,
    GameReport,
    Page,
    Points,
    ci,
    count,
    error_bar_lengths,
    interval,
    lead,
    number,
    pct,
    sentence,
)

# How a build round resolved, in the rule text's cases (docs/games/mauer.md), in the order of the text.
OUTCOMES = {"builder_builds": "the builder builds (nobody guessed)", "competitors_build": "guessers build",
            "builder_outguessed": "the builder builds (too many guessed)", "illegal_plan": "no site: nobody builds",
            "hollow_1": "hollow hand: the builder builds", "hollow_2": "hollow hand: a gift",
            "hollow_3": "hollow hand: nothing happens"}
# What a pair compares, in words: its key, the one who opens (key 0), the points' unit, and what the interval counts.
SEATS = {"key": "seat", "first": "the first builder", "unit": "penalty points a play", "per": "play"}
POSITIONS = {"key": "position", "first": "the match's first builder", "unit": "points a match", "per": "match"}


def _one_policy(page: Page, frame: pl.DataFrame) -> pl.DataFrame:
    """The rows a figure draws: the largest run of each one-policy set-up at the published rules (the What-if
    page draws the rule variants), with the set-up's policy."""
    runs = page.runs.select("run_id", "focal", options=pl.col("options").fill_null(""))
    return (page.with_labels(frame).join(runs, on="run_id")
            .filter(pl.col("primary") & pl.col("homogeneous") & (pl.col("options") == ""))
            .rename({"focal": "set_up_policy"}))


def _tested_pairs(page: Page, compared: str, run_ids: pl.Series) -> pl.DataFrame:
    """The pairs (mart_mauer_pair_differences) of the runs a figure draws, each p Holm-adjusted over all of them:
    one family, every pair of every table drawn."""
    pairs = page.mart("mart_mauer_pair_differences").filter(
        (pl.col("compared") == compared) & pl.col("run_id").is_in(run_ids.implode()))
    pairs = page.with_labels(pairs).sort("players", "label", "a", "b")
    return pairs.with_columns(p_holm=pl.Series(holm(pairs["p_value"].to_numpy()), dtype=pl.Float64))


def _gap(pair: dict) -> dict:
    """A pair as its lower and higher side: which has fewer points, by how much, with the interval of the gap."""
    d, lo, hi = pair["difference"], pair["difference_lo"], pair["difference_hi"]
    if d >= 0:
        return {"low": pair["a"], "high": pair["b"], "gap": d, "gap_lo": lo, "gap_hi": hi}
    return {"low": pair["b"], "high": pair["a"], "gap": -d, "gap_lo": -hi, "gap_hi": -lo}


def _tables(pairs: pl.DataFrame) -> list[dict]:
    """Each table drawn: whether some pair differs (Holm p < 0.05), whether every pair is shown within the margin
    (TOST), the pair with the widest gap (of those that differ, if any) and whether key 0 has fewer points than
    every other (each of its pairs differing)."""
    tables = []
    for (label,), rows in pairs.group_by("label", maintain_order=True):
        apart = rows.filter(pl.col("p_holm") < 0.05)
        widest = (apart if apart.height else rows).sort(pl.col("difference").abs(), descending=True).row(0, named=True)
        first = rows.filter(pl.col("a") == 0)
        tables.append({"label": label, "apart": apart.height > 0, "near": bool(rows["equivalent"].all()),
                       "widest": widest, "largest90": float(rows.select(pl.max_horizontal(
                           pl.col("difference_lo90").abs(), pl.col("difference_hi90").abs())).max().item()),
                       "first_fewest": first.height > 0 and bool(((first["p_holm"] < 0.05)
                                                                  & (first["difference"] > 0)).all())})
    return tables


def _gap_words(table: dict, means: pl.DataFrame, words: dict, opening: str = "at {}") -> str:
    """The table's widest gap: the two sides' means with their 95% intervals, and the paired gap with its own."""
    gap, key = _gap(table["widest"]), words["key"]
    row = {r[key]: r for r in means.filter(pl.col("label") == table["label"]).iter_rows(named=True)}
    low, high = row[gap["low"]], row[gap["high"]]
    return (f"{opening.format(table['label'])} {key} {gap['low']} averages {ci(low, 'mean', False, 1)} "
            f"{words['unit']} and {key} {gap['high']} {ci(high, 'mean', False, 1)}, a gap of "
            f"{ci(gap, 'gap', False, 1, where=words['per'] + ' by ' + words['per'])}")


def _findings(tables: list[dict], n_tests: int, means: pl.DataFrame, words: dict) -> list[str]:
    """The figure's sentence: where the seats (positions) differ, Holm over every pair drawn; where key 0 has fewer
    than every other; the widest gap; where the plays rule out a gap above the margin, and where they cannot tell."""
    key, apart = words["key"], [t for t in tables if t["apart"]]
    first = sum(t["first_fewest"] for t in tables)
    widest = max(apart or tables, key=lambda t: abs(t["widest"]["difference"]))
    near = [t for t in tables if not t["apart"] and t["near"]]
    unclear = [t["label"] for t in tables if not t["apart"] and not t["near"]]
    return [
        f"{key}s differ at {len(apart)} of {count(len(tables), 'table')} of one policy (each pair of {key}s compared "
        f"{words['per']} by {words['per']}, Holm over {count(n_tests, 'pair')})",
        f"{key} 0 ({words['first']}) has fewer than every other {key} at {first} of them" if first else None,
        _gap_words(widest, means, words, "the widest gap: at {}"),
        f"no two {key}s differ by more than " + ", ".join(
            f"{number(t['largest90'], 2)} at {t['label']}" for t in near) + " (90% intervals, within 1% of the mean)"
        if near else None,
        f"too few plays to tell at {', '.join(unclear)}" if unclear else None]


@lead
def penalties_by_seat(page: Page) -> None:
    by_seat = _one_policy(page, page.mart("mart_mauer_penalties_by_seat"))
    if by_seat.is_empty():
        return
    counts = sorted(by_seat["players"].unique().to_list())
    fig, axes = page.subplots(len(counts), width=6.0, height=3.6, most=2, sharey=True,
                              gridspec_kw={"hspace": 0.45})
    for ax, n in zip(axes, counts):
        table = by_seat.filter(players=n)
        policies = [p for p in page.game.policies() if p in set(table["set_up_policy"])]
        width = 0.8 / len(policies)
        for i, policy in enumerate(policies):
            rows = table.filter(set_up_policy=policy).sort("seat")
            x = rows["seat"].to_numpy() + (i - (len(policies) - 1) / 2) * width
            ax.bxp([{"whislo": r["p05_penalty"], "q1": r["p25_penalty"], "med": r["median_penalty"],
                     "q3": r["p75_penalty"], "whishi": r["p95_penalty"]} for r in rows.iter_rows(named=True)],
                   positions=x, widths=0.85 * width, showfliers=False, patch_artist=True,
                   boxprops={"facecolor": page.colour(policy), "alpha": 0.45},
                   medianprops={"color": "black"})
            ax.errorbar(x, rows["mean_penalty"], fmt="D", color="black", markersize=3.5, yerr=error_bar_lengths(
                rows["mean_penalty"], rows["mean_penalty_lo"], rows["mean_penalty_hi"]))
        ax.legend(handles=[Patch(facecolor=page.colour(p), alpha=0.45, label=f"{p} players") for p in policies]
                  + [Line2D([], [], color="black", marker="D", markersize=3.5, linestyle="none",
                            label="mean (95% interval)")])
        plays = sorted(set(table["n_plays"]))
        ax.set(title=f"{n} players (n = {plays[0]:,}" + (f" to {plays[-1]:,}" if len(plays) > 1 else "")
               + " plays a set-up)", xticks=range(n), xticklabels=range(n), xlabel="seat (0 = the first builder)")
    for ax in axes[::2]:
        ax.set_ylabel("penalty points a play")
    fig.suptitle(f"{page.game.title}: penalty points by seat, tables of one policy (fewer is better; boxes 25% to "
                 "75%, whiskers 5% to 95%, line the median)")
    pairs = _tested_pairs(page, "seat", by_seat["run_id"].unique())
    means = by_seat.rename({"mean_penalty": "mean", "mean_penalty_lo": "mean_lo", "mean_penalty_hi": "mean_hi"})
    tables = _tables(pairs)
    page.figure("penalty_by_seat", fig, "Penalty points by seat", sentence(
        *_findings(tables, pairs.height, means, SEATS)))
    page.verdict("own", "Are penalty points fair by seat?", _penalty_verdict(tables, pairs.height, means))
    labelled = page.with_labels(page.mart("mart_mauer_penalties_by_seat")).filter(pl.col("counted"))
    page.split_table("Penalty points by seat", labelled.sort("players", "label", "seat"), [
        "label", "seat", "n_plays", "mean_penalty", "mean_penalty_lo", "mean_penalty_hi", "median_penalty",
        "p05_penalty", "p25_penalty", "p75_penalty", "p95_penalty", "share_zero", "max_penalty", "sd_penalty",
        "policy", "run_id"], mart="mart_mauer_penalties_by_seat")
    _pairs_table(page, "seat", "Penalty points, seat against seat (play by play)", labelled["run_id"])
    by_policy = page.with_labels(page.mart("mart_mauer_penalties_by_policy")).filter(pl.col("counted"))
    page.split_table("Penalty points by policy", by_policy.sort("players", "label", "policy"), [
        "label", "policy", "n_plays", "mean_penalty", "mean_penalty_lo", "mean_penalty_hi", "median_penalty",
        "p95_penalty", "share_zero", "n_seat_plays", "run_id"], mart="mart_mauer_penalties_by_policy")


def _pairs_table(page: Page, compared: str, title: str, runs: pl.Series) -> None:
    """The pairs (mart_mauer_pair_differences) of one kind of the counted `runs`, folded: the tests behind the
    sentences."""
    pairs = page.with_labels(page.mart("mart_mauer_pair_differences")).filter(
        pl.col("counted") & (pl.col("compared") == compared) & pl.col("run_id").is_in(runs.implode()))
    if pairs.is_empty():
        return
    page.table(title, pairs.sort("players", "label", "a", "b"),
               "label a b n_units n_plays mean_a mean_b difference± p_value margin equivalent run_id",
               mart="mart_mauer_pair_differences", collapsed=True,
               note="difference: b's mean minus a's, compared unit by unit (the seats of a play share its deal). The "
                    "figure's sentence adjusts the p-values over every pair it draws (Holm); equivalent: the 90% "
                    "interval lies within +/- margin (1% of the run's mean).")


def _penalty_verdict(tables: list[dict], n_tests: int, means: pl.DataFrame) -> str:
    """The index's answer: at how many tables of one policy some seats differ (Holm over every pair drawn), where
    seat 0 gets fewer than every other, and the widest gap with its intervals; where none differs, whether the
    plays rule out a gap above the margin."""
    n, apart = len(tables), [t for t in tables if t["apart"]]
    widest = max(apart or tables, key=lambda t: abs(t["widest"]["difference"]))
    gap = _gap_words(widest, means, SEATS, "widest at {}:" if n > 1 else "at {}")
    if not apart:
        if all(t["near"] for t in tables):
            where = "the only one-policy table" if n == 1 else f"any of {n} one-policy tables"
            return sentence(f"yes: no two seats differ by more than 1% of the mean at {where} (90% intervals)", gap)
        where = "the only one-policy table" if n == 1 else f"{n} one-policy tables"
        return sentence(f"too few plays to tell at {where}: no pair of seats is shown to differ (Holm over "
                        f"{count(n_tests, 'pair')}), nor is a gap above 1% of the mean ruled out", gap)
    where = "the only one-policy table" if n == 1 else f"{len(apart)} of {n} one-policy tables"
    first = sum(t["first_fewest"] for t in tables)
    fewest = ""
    if first:  # where seat 0 gets fewer than every other seat: said only where it does
        fewest = ", seat 0 (the first builder) getting fewer than every other seat"
        fewest += "" if n == 1 else f" at all {n}" if first == n else f" at {first} of the {n}"
    return sentence(f"no: seats differ at {where} (Holm over {count(n_tests, 'pair')} of seats){fewest}", gap)


def match_totals(page: Page) -> None:
    totals = _one_policy(page, page.mart("mart_mauer_match_totals")).filter(pl.col("rounds") > 1)
    if totals.is_empty():
        return
    matches = {n: sorted(set(table["n_matches"])) for (n,), table in totals.group_by("players")}
    panels = {n: f"{n} players\n(n = {m[0]:,}" + (f" to {m[-1]:,}" if len(m) > 1 else "") + " matches)"
              for n, m in matches.items()}
    rounds = sorted(totals["rounds"].unique().to_list())
    order = pl.col("set_up_policy").replace_strict(list(page.game.policies()), range(len(page.game.policies())))
    fig = Points(totals.sort("players", order, "player").select(
        x="player", series=pl.format("{} players", "set_up_policy"), policy="set_up_policy",
        panel=pl.col("players").replace_strict(panels),
        value="mean_total", lo="mean_total_lo", hi="mean_total_hi"), f"{page.game.title}: penalty points over a "
        f"match of {' or '.join(map(str, rounds))} plays by table position (0 = the match's first builder), tables "
        "of one policy", "table position", "mean penalty points per match\n(95% bootstrap interval)", height=3.4)
    pairs = _tested_pairs(page, "position", totals["run_id"].unique())
    means = totals.rename({"player": "position", "mean_total": "mean", "mean_total_lo": "mean_lo",
                           "mean_total_hi": "mean_hi"})
    page.figure("match_totals", fig, "Penalty points over a match by table position", sentence(
        "over a match the first builder changes from play to play", *_findings(_tables(pairs), pairs.height, means,
                                                                               POSITIONS)))
    labelled = page.with_labels(page.mart("mart_mauer_match_totals")).filter(pl.col("counted"),
                                                                             pl.col("rounds") > 1)
    page.split_table("Match totals by table position", labelled.sort("players", "label", "player"), [
        "label", "player", "n_matches", "mean_total", "mean_total_lo", "mean_total_hi", "median_total",
        "match_win_share", "match_win_share_lo", "match_win_share_hi", "p05_total", "p95_total", "p25_total",
        "p75_total", "share_zero", "rounds", "n_plays", "policy", "run_id"], mart="mart_mauer_match_totals",
        note="The match win share splits a tied match among its winners (the lowest total wins).")
    _pairs_table(page, "position", "Match totals, table position against table position (match by match)",
                 labelled["run_id"])


def baurunde_cases(page: Page) -> None:
    cases = page.with_labels(page.mart("mart_mauer_baurunde_cases"))
    if cases.is_empty():
        return
    unit = page.report.turn_name  # the rule text's Baurunden: the game's unit of length
    # Events are logged by runs of their own, whose plays a larger run may hold too: one run per set-up is drawn.
    shown = (cases.sort("n_baurunden", descending=True).unique("label", keep="first").select("run_id", "label")
             .sort("label"))
    cases = cases.join(shown.select("run_id"), on="run_id")
    labels = shown["label"].to_list()
    policies = dict(shown.join(page.runs.select("run_id", "focal"), on="run_id").select("label", "focal").rows())
    names = {r["label"]: f"{r['label']} (n = {r['n_baurunden']:,} {unit} in {r['n_plays']:,} plays)"
             for r in cases.unique("label").iter_rows(named=True)}
    order = pl.col("outcome").replace_strict(list(OUTCOMES), range(len(OUTCOMES)))  # the text's first case on top
    fig = Forest(cases.sort(order, "label").select(
        row=pl.col("outcome").replace_strict(OUTCOMES), panel=pl.lit(""),
        series=pl.col("label").replace_strict(names),
        policy=pl.col("label").replace_strict(policies).fill_null("mixed"),
        **{k: 100 * pl.col(f"share{e}") for k, e in (("value", ""), ("lo", "_lo"), ("hi", "_hi"))}),
        f"{page.game.title}: how {unit} resolve (runs that logged every one)",
        f"share of {unit} (%, 95% intervals, the play the unit)", None, panel_width=7.0)
    parts = []
    for label in labels:
        top = cases.filter(label=label).sort("share", descending=True).row(0, named=True)
        hollow = cases.filter(pl.col("label") == label, pl.col("outcome").str.starts_with("hollow"))
        parts.append(f"at {label} the commonest outcome is {OUTCOMES[top['outcome']]}: {pct(top['share'])} of "
                     f"{unit} ({interval(top['share_lo'], top['share_hi'])}); a hollow hand decides "
                     f"{pct(hollow['share'].sum())}")
    page.figure("baurunde_cases", fig, f"How {unit} resolve", sentence(*parts))
    page.table(f"How {unit} resolve", cases.sort("label", "outcome").with_columns(
        pl.col("outcome").replace(OUTCOMES)), [
        "label", "outcome", "n_baurunden_with_outcome", "share", "share_lo", "share_hi", "per_play",
        "pieces_built", "n_baurunden", "n_plays"], mart="mart_mauer_baurunde_cases",
        note="A build round is the rule text's Baurunde; a play (one Spielrunde) has many.")


# The sections this game hands to the report, in page order.
REPORT = GameReport(
    sections=(penalties_by_seat, match_totals, baurunde_cases),
    order=10,
    # Die Mauer's score is its penalty taken negative: the report shows the points positive.
    score_name="penalty points",
    score_sign=-1,
    turn_name="build rounds",  # the rule text's Baurunden, in the reader's words
)
