"""The generic report sections: what every game's page shows, from the shared pooled marts (each distinct play
counted once, set-ups never pooled together; pipelines/shared). A game's own sections come after them, and a
game section marked `@replaces("game_length")` (simlib/analysis/page.py) is drawn instead of one of them.

What games' sections share lives here too: the rows a figure draws (`figure_rows`, `published_rules`,
`one_policy_setups`) and the set-up a sentence quotes (`quoted`), the index's answers on the start player and
on length (`start_player_verdict`, `length_verdict`)."""

from __future__ import annotations

import re

import matplotlib.pyplot as plt
import numpy as np
import polars as pl

from ..core.setups import distinct_labels
from .estimators import MARGIN_SHARE, Z90, holm, wilson
from .figure_kinds import Histogram, SeatBars
from .page import Page
from .words import ci, count, interval, number, pct, sentence


def one_policy_setups(frame: pl.DataFrame) -> pl.DataFrame:
    return frame.filter(pl.col("lineup_kind") == "one_policy")


def published_rules(page: Page, frame: pl.DataFrame) -> pl.DataFrame:
    """The rows of set-ups at the game's published rules (no option changed): variants belong to the What-if
    page, and a variant that changes nothing a figure shows would lie on top of its baseline."""
    published = page.runs.filter(pl.col("options") == "")["setup_id"].unique()
    rows = frame.filter(pl.col("setup_id").is_in(published.implode()))
    return frame if rows.is_empty() else rows  # a lake of variants only: draw what there is (labels say it)


def figure_rows(page: Page, mart: str, *where: pl.Expr) -> tuple[pl.DataFrame, pl.DataFrame, list[str]]:
    """A per-run mart's rows with their set-ups (page.with_labels) and `focal` (the set-up's policy), those `where`
    keeps; of them the largest run of each one-policy set-up at the published rules (what figures draw: mixed
    tables and variants are in the tables only); and the labels of those, by players."""
    frame = page.mart(mart)
    if frame.is_empty():
        return frame, frame, []
    frame = page.with_labels(frame).filter(*where).join(page.runs.select("run_id", "focal"), on="run_id")
    drawn, labels = page.drawn(published_rules(page, frame.filter(pl.col("homogeneous"))))
    return frame, drawn, labels


def quoted(drawn: pl.DataFrame, n: str = "n_plays") -> list[dict]:
    """The rows of the set-up a figure's sentence quotes: of a figure's rows (figure_rows' `drawn`), those of the
    set-up with the most `n` (plays, or what the figure counts) over its rows, then the most players, then the first
    label (a tie is not left to group_by's order: a page reads the same each time it is written)."""
    sizes = (drawn.group_by("label", "players").agg(pl.col(n).sum())
             .sort(n, "players", "label", descending=[True, True, False]))
    return drawn.filter(pl.col("label") == sizes["label"][0]).rows(named=True)


def _policy(label: str) -> str:
    """The policy of a one-policy set-up's label ('4 random players, ...' -> 'random')."""
    return label.split(" ")[1]


def seat_advantage(page: Page) -> None:
    seats = one_policy_setups(page.mart("mart_seat_advantage"))
    drawn = published_rules(page, seats)
    if drawn.is_empty():
        return
    varied = without_fixed_openings(page, drawn)
    title = f"{page.game.title}: does the seat matter? Tables of one policy, 95% intervals"
    page.figure("seat_advantage", SeatBars(drawn, title), "Does the seat matter?", seat_sentence(varied))
    page.verdict("start_player", "Is the start player favoured?", start_player_verdict(varied))
    by_seat = seats.sort("players", "setup_label", "seat").select(
        "setup_label", "seat", "n_plays", "win_share", "win_share_lo", "win_share_hi", "advantage",
        "advantage_lo", "advantage_hi", "p_holm", "win_rate", "win_rate_lo", "win_rate_hi", "shared_wins",
        "mean_score", "mean_score_lo", "mean_score_hi", "margin", "margin_lo", "margin_hi", "n_runs",
        "n_runs_repeated")
    page.table("Win share and advantage by seat, per set-up", _scored(page, by_seat), mart="mart_seat_advantage",
               note="The win share splits a shared win among its winners; the win rate counts it for each winner, "
                    "so read it beside the shared wins.")
    balance = page.mart("mart_setup_balance")
    if not balance.is_empty():
        page.split_table("Balance and the seat test per set-up", balance.sort("players", "setup_label"), [
            "setup_label", "n_plays", "seat0_advantage", "seat0_advantage_lo", "seat0_advantage_hi", "largest_seat",
            "largest_advantage", "largest_p_holm", "balance", "balance_lo", "balance_hi", "seat_test_p", "tie_rate",
            "n_runs", "lineup_kind"], mart="mart_setup_balance",
            note="Balance: 1 - (the largest seat's win share - the smallest's). The seat test asks whether any seat's "
                 "share differs from the fair share, the seats of a play taken together.")


def without_fixed_openings(page: Page, frame: pl.DataFrame) -> pl.DataFrame:
    """The rows of set-ups whose openings vary (mart_run_setups.fixed_opening): a verdict never rests on one opening
    repeated."""
    fixed = page.runs.filter(pl.col("fixed_opening"))["setup_id"].unique() if "fixed_opening" in page.runs.columns \
        else pl.Series([], dtype=pl.String)
    return frame.filter(~pl.col("setup_id").is_in(fixed.implode()))


def _with_page_tests(seats: pl.DataFrame) -> pl.DataFrame:
    """Every seat row with its p Holm-adjusted over all the rows (one family: every seat of every table a figure
    draws), and whether its 90% interval lies within the margin of the fair share (TOST: no effect larger)."""
    near = []
    for r in seats.iter_rows(named=True):
        lo, hi = wilson(r["win_share"] * r["effective_plays"], r["effective_plays"], Z90)
        near.append(r["fair_share"] - MARGIN_SHARE < lo and hi < r["fair_share"] + MARGIN_SHARE)
    return seats.with_columns(p_page=pl.Series(holm(seats["p_value"].to_numpy()), dtype=pl.Float64),
                              within_margin=pl.Series(near, dtype=pl.Boolean))


def _seat_effect(r: dict) -> str:
    return (f"seat {r['seat']} at {r['setup_label']}: a win share of {ci(r, 'win_share')} against a fair "
            f"{pct(r['fair_share'])}")


def start_player_verdict(seats: pl.DataFrame, tables: str = "one-policy tables") -> str:
    """The index's answer from rows of mart_seat_advantage (every seat of the tables in question: `tables`, as the
    answer calls them): where seat 0 is favoured or handicapped, and the seat with the largest effect, with the
    tests of every seat shown sharing one error rate (Holm); where nothing is significant, whether the plays rule
    out an effect larger than the margin or are too few to tell."""
    if seats.is_empty():
        return ""
    tested = _with_page_tests(seats)
    n_tables = tested["setup_id"].n_unique()
    apart = tested.filter(pl.col("p_page") < 0.05)
    seat0 = apart.filter(pl.col("seat") == 0)
    favoured, handicapped = seat0.filter(pl.col("advantage") > 0).height, seat0.filter(pl.col("advantage") < 0).height
    where = f"the only {tables.replace('tables', 'table', 1)}" if n_tables == 1 else f"{n_tables} {tables}"
    top = (apart if apart.height else tested).sort(pl.col("advantage").abs(), descending=True).row(0, named=True)
    if apart.height:
        start = " and ".join(f"{word} at {n} of them" if n_tables > 1 else word for n, word in (
            (favoured, "favoured"), (handicapped, "handicapped")) if n)
        if not start:  # another seat differs; seat 0 shows no effect: say what its plays rule out, if anything
            near = tested.filter(pl.col("seat") == 0)["within_margin"].all()
            start = (f"within {MARGIN_SHARE * 100:.0f} percentage point of the fair share" if near
                     else "not shown to differ from the fair share (too few plays to tell)")
        elif n_tables == 1 and top["seat"] != 0:  # its own share, lest another seat's read as the start player's
            own = seat0.row(0, named=True)
            start += f" ({ci(own, 'win_share')} against a fair {pct(own['fair_share'])})"
        return sentence(f"of {where}, the start player is {start}", f"the largest effect: {_seat_effect(top)}")
    if tested["within_margin"].all():
        return sentence(f"no seat's share differs from the fair share by more than {MARGIN_SHARE * 100:.0f} "
                        f"percentage point at {where} (90% intervals); the farthest: {_seat_effect(top)}")
    return sentence(f"too few plays to tell at {where}: no seat differs significantly, nor is an effect larger than "
                    f"{MARGIN_SHARE * 100:.0f} percentage point ruled out; the largest: {_seat_effect(top)}")


def seat_sentence(seats: pl.DataFrame) -> str:
    """Under the seats figure: per seat 0 where it is favoured or handicapped, the largest effect of any seat, and
    where the plays show no effect (Holm over every seat drawn)."""
    if seats.is_empty():
        return sentence("every table drawn opens the same way in every play: no verdict")
    tested = _with_page_tests(seats)
    seat0 = tested.filter(pl.col("seat") == 0)
    parts = []
    for rows, word in ((seat0.filter((pl.col("p_page") < 0.05) & (pl.col("advantage") > 0)), "favoured"),
                       (seat0.filter((pl.col("p_page") < 0.05) & (pl.col("advantage") < 0)), "handicapped")):
        if not rows.is_empty():
            top = rows.sort(pl.col("advantage").abs(), descending=True).row(0, named=True)
            parts.append(f"the start player (seat 0) is {word} at {count(rows.height, 'set-up')} of {seat0.height}; "
                         f"most at {top['setup_label']}: {ci(top, 'win_share')} against a fair "
                         f"{pct(top['fair_share'])}")
    others = tested.filter((pl.col("seat") > 0) & (pl.col("p_page") < 0.05))
    if not others.is_empty():
        top = others.sort(pl.col("advantage").abs(), descending=True).row(0, named=True)
        verb = "differs" if others.height == 1 else "differ"
        parts.append(f"of the other seats, {count(others.height, 'seat')} {verb} from the fair share; most "
                     f"{_seat_effect(top)}")
    level = tested.group_by("setup_label").agg((pl.col("p_page") >= 0.05).all().alias("none"),
                                              pl.col("within_margin").all().alias("near"))
    near = sorted(level.filter(pl.col("none") & pl.col("near"))["setup_label"].to_list())
    unclear = sorted(level.filter(pl.col("none") & ~pl.col("near"))["setup_label"].to_list())
    if near:
        parts.append(f"every seat within {MARGIN_SHARE * 100:.0f} percentage point of the fair share at "
                     f"{_listed(near)}")
    if unclear:
        parts.append(f"too few plays to tell at {_listed(unclear)}")
    return sentence(*parts, f"tests of every seat drawn share one 5% error rate (Holm, {tested.height} tests)")


def _listed(names: list[str]) -> str:
    return ", ".join(names[:3]) + (f" and {count(len(names) - 3, 'other')}" if len(names) > 3 else "")


def _scored(page: Page, frame: pl.DataFrame) -> pl.DataFrame:
    """Scores as the game names them: a penalty taken negative (score_sign -1) shown as positive points, its
    interval's ends swapped."""
    if page.report.score_sign == 1:
        return frame
    name = page.report.score_name.replace(" ", "_")
    renamed = {"mean_score": f"mean_{name}", "margin": f"{name}_margin"}
    swapped = {"": "", "_lo": "_hi", "_hi": "_lo"}
    columns = []
    for column in frame.columns:
        base = next((b for b in renamed if column.removeprefix(b) in swapped and column.startswith(b)), None)
        if base is None:
            columns.append(pl.col(column))
        else:
            end = column.removeprefix(base)
            columns.append((-pl.col(base + swapped[end])).alias(renamed[base] + end))
    return frame.select(columns)


def game_length(page: Page) -> None:
    hist = published_rules(page, one_policy_setups(page.mart("mart_setup_length_hist")))
    length = page.mart("mart_setup_length")
    if hist.is_empty():
        return
    unit = page.report.turn_name
    shown = length.join(hist.select("setup_id").unique(), on="setup_id").sort("median_turns")
    right = 1.15 * float(shown["p95_turns"].max())
    width = max(1, int(np.ceil(right / 60)))  # about 60 bars across: one a turn is noise at 1,000 plays
    rows = hist.join(shown.select("setup_id"), on="setup_id").with_columns(
        policy=pl.col("setup_label").map_elements(_policy, return_dtype=pl.String))  # a line's name in the legend
    fig = Histogram(rows, f"{page.game.title}: game length at tables of one policy", f"{unit} per play",
                    legend="policy", bins=width, right=right, panel_width=6.0)
    page.figure("game_length", fig, "Game length", _length_sentence(shown, unit))
    page.verdict("length", "How long does a play last?", length_verdict(published_rules(page, length), unit))
    page.table("Game length per set-up", length.sort("players", "setup_label"), [
        "setup_label", "n_plays", "median_turns", "mean_turns", "mean_turns_lo", "mean_turns_hi", "p05_turns",
        "p95_turns", "min_turns", "max_turns", "sd_turns", "n_runs"], mart="mart_setup_length")


def length_verdict(length: pl.DataFrame, unit: str, measure: str = "turns") -> str:
    """The index's answer from mart_setup_length (or a game's mart of lengths in `measure`, its columns named
    median_<measure>, mean_<measure>, ...): the most-played table of one policy, and the range over all."""
    one = one_policy_setups(length) if "lineup_kind" in length.columns else length
    if one.is_empty():
        return ""
    median, mean = f"median_{measure}", f"mean_{measure}"
    top = one.sort("n_plays", "players", "setup_label", descending=[True, True, False]).row(0, named=True)
    said = (f"median {top[median]} {unit} at {top['setup_label']} (mean {number(top[mean], 1)}, "
            f"{interval(top[f'{mean}_lo'], top[f'{mean}_hi'], False, 1)})")
    low, high = one[median].min(), one[median].max()
    spread = f"medians {low} to {high} over {count(one.height, 'one-policy table')}"
    return sentence(said, spread if low != high else None)


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
        labels = dict(zip(specs := _ordered_specs(page, table), distinct_labels(specs)))
        table = table.with_columns(pl.col("focal_spec").replace_strict(labels).alias("focal"),
                                   pl.col("field_spec").replace_strict(labels).alias("field"))
        if table.filter(pl.col("focal") != pl.col("field")).is_empty():
            continue  # tables of one policy only: nothing to compare
        suffix = "_".join(filter(None, [f"{n}p", re.sub(r"[^a-z0-9]+", "_", options.lower()).strip("_")]))
        words = table["options_label"][0]
        fig = _strength_matrix(page, table, n, words)
        page.figure(f"policy_table_{suffix}", fig, f"Policy strength, {n} players" + (f", {words}" if words else ""),
                    _strength_sentence(table, n))
    page.table("Policy strength (one focal player at a table of the field policy)",
               strength.sort("players", "options", "focal", "field"), [
                   "pairing_label", "n_plays", "win_share", "win_share_lo", "win_share_hi", "fair_share", "p_value",
                   "fair_by_construction", "win_rate", "win_rate_lo", "win_rate_hi", "mean_score", "mean_score_lo",
                   "mean_score_hi", "seats_covered", "seat_balance", "n_runs", "n_runs_repeated"],
               mart="mart_policy_strength")


def _ordered_specs(page: Page, table: pl.DataFrame) -> list[str]:
    """The policy specs of a strength table, in catalogue order (a search's by budget): one row and column each
    in the matrix, so that a policy at two budgets is two."""
    names = list(page.game.policies())
    return sorted(set(table["focal_spec"]) | set(table["field_spec"]),
                  key=lambda spec: (names.index(spec.split(":")[0]), _budget(spec), spec))


def _strength_matrix(page: Page, table: pl.DataFrame, n: int, words: str):
    specs = _ordered_specs(page, table)
    policies = distinct_labels(specs)
    grid = np.full((len(specs), len(specs)), np.nan)
    for row in table.iter_rows(named=True):
        grid[specs.index(row["focal_spec"]), specs.index(row["field_spec"])] = row["win_share"]
    fig, ax = plt.subplots(figsize=(1.6 * len(policies) + 3, 1.2 * len(policies) + 1.8))
    cmap = plt.get_cmap("RdBu").with_extremes(bad="#dddddd")  # a pairing not played: grey, not a fair white
    image = ax.imshow(100 * np.ma.masked_invalid(grid), cmap=cmap, vmin=0, vmax=200 / n)
    for i, j in zip(*np.nonzero(np.isnan(grid))):
        ax.text(j, i, "untested", ha="center", va="center", color="#555555")
    for row in table.iter_rows(named=True):
        i, j = specs.index(row["focal_spec"]), specs.index(row["field_spec"])
        half = (row["win_share_hi"] - row["win_share_lo"]) / 2
        dark = abs(row["win_share"] - 1 / n) > 0.6 / n  # the far ends of the colour scale: white text
        text = (f"{pct(row['win_share'])}\nfair by\nconstruction" if row["fair_by_construction"]
                else f"{pct(row['win_share'])}\n±{100 * half:.1f}")
        ax.text(j, i, text, ha="center", va="center", color="white" if dark else "black")
    ax.set_xticks(range(len(policies)), [p.replace(" (", "\n(") for p in policies])
    ax.set_yticks(range(len(policies)), policies)
    ax.set_xlabel("field: the policy of every other seat")
    ax.set_ylabel("focal: one player of this policy")
    fig.colorbar(image, ax=ax, label="focal player's win share (%, ties split)")
    ax.set_title(f"{page.game.title}: policy against policy, {n} players" + (f", {words}" if words else "")
                 + f"\n(seats rotated; fair share {pct(1 / n)})")
    return fig


def _budget(spec: str) -> float:
    """A search spec's budget (0 for other policies): rungs of one policy in the order of their strength."""
    params = dict(p.split("=") for p in spec.split(":")[1:])
    return float(params.get("budget", 0))


def _strength_sentence(table: pl.DataFrame, n: int) -> str:
    """The strongest focal policy against random players, the weakest pairing, and which pairings differ from the
    fair share: win shares (ties split), the pairings' tests sharing one error rate (Holm)."""
    pairings = table.filter(~pl.col("fair_by_construction"))
    pairings = pairings.with_columns(p_page=pl.Series(holm(pairings["p_value"].to_numpy()), dtype=pl.Float64))
    versus_random = pairings.filter(pl.col("field") == "random")
    best = top = None
    if not versus_random.is_empty():
        top = versus_random.sort("win_share", descending=True).row(0, named=True)
        best = (f"at a table of random players, {top['focal']} has the largest win share: {ci(top, 'win_share')} "
                f"against a fair {pct(1 / n)}")
    low = pairings.sort("win_share").row(0, named=True) if pairings.height > 1 else None
    worst = None
    if low is not None and low != top:
        worst = f"the weakest focal player is {low['focal']} among {low['field']} players: {ci(low, 'win_share')}"
    level = [r for r in pairings.iter_rows(named=True) if r["p_page"] >= 0.05]
    if not level:
        fair = ("the pairing differs" if pairings.height == 1 else f"all {pairings.height} pairings differ"
                ) + " significantly from the fair share (Holm over the pairings)"
    else:
        fair = ("too few plays to tell from the fair share (Holm over the pairings): "
                + ", ".join(f"{r['focal']} against {r['field']}" for r in level))
    return sentence(best, worst, fair)
