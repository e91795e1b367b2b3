"""7 Steps' own report sections. The page leads with what designers ask first: is the start player favoured
(by side), and does the mixed back side reward skill more than the front, as the seed claims (the skill gap of
one greedy or climber player among random ones)? Then the generic sections (seat advantage per run, game length
in turns, policy strength), then game length in rounds by side, the special tiles (taken, played, held; what a
played tile went with; winning by tiles taken) and the tile threshold option (7 against 8).

The marts pool the runs of one set-up (side, players, line-up of policies, tile threshold, other options);
figures draw the set-ups at the seed's threshold (7) and the most common other options, sentences quote four
random players where there is such a table."""

from __future__ import annotations

import math

import matplotlib.pyplot as plt
import numpy as np
import polars as pl

from ...analysis.page import Page, error_bars, interval, lead, pct, replaces

BASE_THRESHOLD = 7  # the seed's "weniger als 7 Punkte"
PP = " percentage points"
SIDES = ("front", "back")
SIDE_STYLE = {"front": {"marker": "o", "linestyle": "-", "fillstyle": "full"},
              "back": {"marker": "s", "linestyle": "--", "fillstyle": "none"}}
POLICY_COLOURS = {"random": "tab:grey", "greedy": "tab:blue", "climber": "tab:red"}
KINDS = {"aid": "build-aid tiles (B1-B5)", "bonus": "victory-point tiles (S1-S10)", "any": "tiles of both kinds"}
METRICS = {"tiles_taken": "tiles taken per seat-play", "score": "score per seat-play",
           "seat0_advantage": "seat 0's win share − fair share (points of %)",
           "seat0_margin": "seat 0's score − the others' mean", "rounds": "rounds per play"}


# --- helpers ---------------------------------------------------------------------------------------------

def _sentence(parts: list[str]) -> str:
    text = "; ".join(p for p in parts if p)
    return text[0].upper() + text[1:] + "."


def _missing(x) -> bool:
    return x is None or (isinstance(x, float) and math.isnan(x))


def _ci(lo, hi, digits: int = 2) -> str:
    if _missing(lo) or _missing(hi):
        return "–"
    return f"{lo:.{digits}f} to {hi:.{digits}f}" if lo < 0 else f"{lo:.{digits}f}–{hi:.{digits}f}"


def _n(r: dict, column: str, digits: int = 2) -> str:
    """A number with its 95% interval: "93.48 (93.31–93.65)"."""
    return f"{r[column]:.{digits}f} ({_ci(r[f'{column}_lo'], r[f'{column}_hi'], digits)})"


def _signed(r: dict, column: str, unit: str, scale: float = 1.0, digits: int = 2) -> str:
    """A signed difference in words with its interval: "4.2 percentage points (3.9–4.6) below"."""
    value, lo, hi = (scale * r[c] if not _missing(r[c]) else None for c in (column, f"{column}_lo", f"{column}_hi"))
    if value < 0:
        below = _ci(None if hi is None else -hi, None if lo is None else -lo, digits)
        return f"{-value:.{digits}f}{unit} ({below}) below"
    return f"{value:.{digits}f}{unit} ({_ci(lo, hi, digits)}) above"


def _excludes_zero(lo, hi) -> bool:
    return not _missing(lo) and not _missing(hi) and (lo > 0 or hi < 0)


def _colour(policy: str, i: int = 0) -> str:
    return POLICY_COLOURS.get(policy, f"C{(i + 3) % 10}")


def _common_options(frame: pl.DataFrame) -> str | None:
    """The other options most plays were simulated with: figures draw those set-ups."""
    if frame.is_empty():
        return None
    weights = frame.group_by("other_options").agg(pl.col("n_plays").sum()).sort("n_plays", descending=True)
    return weights["other_options"][0]


def _drawn(frame: pl.DataFrame, threshold: bool = True) -> pl.DataFrame:
    """The rows figures draw: the seed's threshold and the most common other options."""
    if frame.is_empty():
        return frame
    keep = pl.col("other_options") == _common_options(frame)
    if threshold and "tile_threshold" in frame.columns:
        keep = keep & (pl.col("tile_threshold") == BASE_THRESHOLD)
    return frame.filter(keep)


def _labelled(frame: pl.DataFrame, by: str = "lineup") -> pl.DataFrame:
    """A `setup` label per row: "4p random back", with the threshold and other options when not the usual."""
    if frame.is_empty():
        return frame
    usual = _common_options(frame)
    parts = [pl.col("players").cast(pl.String) + pl.lit("p "), pl.col(by), pl.lit(" "), pl.col("side")]
    if "tile_threshold" in frame.columns:
        parts.append(pl.when(pl.col("tile_threshold") != BASE_THRESHOLD)
                     .then(pl.lit(" tile_threshold=") + pl.col("tile_threshold").cast(pl.String)).otherwise(pl.lit("")))
    parts.append(pl.when(pl.col("other_options") != usual).then(pl.lit(" ") + pl.col("other_options"))
                 .otherwise(pl.lit("")))
    return frame.with_columns(pl.concat_str(parts).alias("setup"))


def _reference(frame: pl.DataFrame, column: str = "lineup") -> dict | None:
    """The row set the sentences quote: 4 random players where there is such a table."""
    for players in (4, 3, 2):
        rows = frame.filter((pl.col("players") == players) & (pl.col(column) == "random"))
        if not rows.is_empty():
            return {"players": players, column: "random"}
    return None


# --- the start player ------------------------------------------------------------------------------------

@lead
@replaces("seat_advantage")
def seat_advantage_by_side(page: Page) -> None:
    seats = _drawn(page.mart("mart_sevensteps_seat_advantage"))
    if seats.is_empty():
        return
    counts = sorted(seats["players"].unique().to_list())
    fig, axes = plt.subplots(2, len(counts), figsize=(4.6 * len(counts), 7.2), squeeze=False, sharex="col")
    policies = sorted(seats["policy"].unique().to_list(), key=lambda p: (p != "random", p))
    for col, players in enumerate(counts):
        group = seats.filter(pl.col("players") == players)
        series = [(p, s) for p in policies for s in SIDES
                  if not group.filter((pl.col("policy") == p) & (pl.col("side") == s)).is_empty()]
        offsets = (np.arange(len(series)) - (len(series) - 1) / 2) * min(0.12, 0.7 / max(len(series), 1))
        for offset, (policy, side) in zip(offsets, series):
            run = group.filter((pl.col("policy") == policy) & (pl.col("side") == side)).sort("seat")
            x = run["seat"].to_numpy() + offset
            for row, (column, scale) in enumerate((("advantage", 100), ("margin", 1))):
                y = run[column].to_numpy().astype(float)
                err = error_bars(y, run[f"{column}_lo"].to_numpy().astype(float),
                                 run[f"{column}_hi"].to_numpy().astype(float))
                axes[row][col].errorbar(x, scale * y, yerr=scale * np.nan_to_num(err), capsize=2, markersize=5,
                                        color=_colour(policy), linewidth=0.8, **SIDE_STYLE[side],
                                        label=f"{policy}, {side} (n={run['n_plays'][0]:,})")
        for row in range(2):
            axes[row][col].axhline(0, color="black", linewidth=0.8)
            axes[row][col].set_xticks(range(players))
        axes[0][col].set_title(f"{players} players")
        axes[1][col].set_xlabel("seat (0 = start player)")
        axes[1][col].legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.2), ncol=2)
    axes[0][0].set_ylabel("win share − fair share 1/players\n(points of %, 95% interval)")
    axes[1][0].set_ylabel("score − the other seats' mean\n(points, paired per play, 95% interval)")
    fig.suptitle(f"{page.game.title}: is the start player favoured? By seat, front (filled) and back (open), tables "
                 "of one policy", y=1.0)

    seat0 = seats.filter(pl.col("seat") == 0)
    behind = seat0.filter(pl.col("advantage_hi") < 0)
    ahead = seat0.filter(pl.col("advantage_lo") > 0)
    parts = []
    ref = _reference(seat0, "policy")
    if ref is not None:
        rows = {r["side"]: r for r in seat0.filter((pl.col("players") == ref["players"])
                                                   & (pl.col("policy") == "random")).iter_rows(named=True)}
        parts.append(f"at {ref['players']} random players seat 0 is " + " and ".join(
            f"{'disadvantaged' if r['advantage'] < 0 else 'favoured'} on the {side}: it wins "
            f"{pct(r['win_rate'])} ({interval(r['win_rate_lo'], r['win_rate_hi'])}) of the plays against a fair "
            f"{pct(r['fair_share'])}, a win share {_signed(r, 'advantage', PP, 100, 1)} the fair share, "
            f"and scores {_signed(r, 'margin', ' points')} the other seats' mean" for side, r in rows.items()))
    verdict = ("disadvantaged" if behind.height > ahead.height else "favoured" if ahead.height > behind.height
               else "neither favoured nor disadvantaged")
    parts.append(f"over all {seat0.height} set-ups drawn seat 0 is {verdict}: its win share is significantly below "
                 f"the fair share in {behind.height} and above it in {ahead.height}")
    if not behind.is_empty():
        worst = behind.sort("advantage").row(0, named=True)
        parts.append(f"the largest disadvantage is at {worst['players']}p {worst['policy']} on the {worst['side']}: "
                     f"seat 0's win share is {_signed(worst, 'advantage', PP, 100, 1)} the fair share "
                     f"and its score {_signed(worst, 'margin', ' points')} the others'")
    last = seats.filter(pl.col("seat") == pl.col("players") - 1)
    last_ahead = last.filter(pl.col("advantage_lo") > 0)
    parts.append(f"the last seat is significantly favoured in {last_ahead.height} of {last.height}")
    sides = seat0.pivot(on="side", index=["players", "policy"], values="advantage") if seat0["side"].n_unique() > 1 \
        else None
    if sides is not None and {"front", "back"} <= set(sides.columns):
        worse_back = sides.filter(pl.col("back") < pl.col("front")).height
        parts.append(f"seat 0's win share is lower on the back than on the front in {worse_back} of "
                     f"{sides.drop_nulls().height} set-ups")
    page.figure("seat_advantage_by_side", fig, "Start-player advantage by side", _sentence(parts))
    table = _labelled(page.mart("mart_sevensteps_seat_advantage"), "policy")
    page.table("Win rate, win share and score margin by seat", table.sort(
        "players", "policy", "side", "tile_threshold", "seat").select(
        "setup", "seat", "n_runs", "n_plays", "wins", "win_rate", "win_rate_lo", "win_rate_hi", "win_share",
        "fair_share", "advantage", "advantage_lo", "advantage_hi", "mean_score", "mean_score_lo", "mean_score_hi",
        "margin", "margin_lo", "margin_hi"),
        note="Tables of one policy, runs of the same set-up pooled. advantage = win share (ties split) − 1/players; "
             "margin = the seat's score − the other seats' mean score of the same play (paired per play).")


# --- skill by side ---------------------------------------------------------------------------------------

@lead
def skill_gap(page: Page) -> None:
    gaps = _drawn(page.mart("mart_sevensteps_skill_gap"))
    sides = _drawn(page.mart("mart_sevensteps_skill_gap_sides"))
    if gaps.is_empty():
        return
    gaps = gaps.sort("players", "focal", "field")
    pairs = gaps.select("players", "focal", "field").unique(maintain_order=True)
    fig, axes = plt.subplots(1, 3, figsize=(16, 4.6), gridspec_kw={"width_ratios": [1.3, 1, 1]})
    names = [f"{r['focal']} + {r['players'] - 1} {r['field']}" for r in pairs.iter_rows(named=True)]
    x = np.arange(len(names))
    for offset, side in zip((-0.18, 0.18), SIDES):
        rows = [gaps.filter((pl.col("players") == p["players"]) & (pl.col("focal") == p["focal"])
                            & (pl.col("field") == p["field"]) & (pl.col("side") == side))
                for p in pairs.iter_rows(named=True)]
        y = np.array([r["gap"][0] if not r.is_empty() else np.nan for r in rows])
        lo = np.array([r["gap_lo"][0] if not r.is_empty() else np.nan for r in rows], dtype=float)
        hi = np.array([r["gap_hi"][0] if not r.is_empty() else np.nan for r in rows], dtype=float)
        n = sum(int(r["n_plays"][0]) for r in rows if not r.is_empty())
        axes[0].bar(x + offset, y, 0.36, yerr=np.nan_to_num(error_bars(y, lo, hi)), capsize=3,
                    color="tab:blue" if side == "front" else "tab:orange", label=f"{side} (n={n:,} plays)")
        rel = np.array([r["relative_gap"][0] if not r.is_empty() else np.nan for r in rows])
        axes[1].bar(x + offset, rel, 0.36, color="tab:blue" if side == "front" else "tab:orange", label=side)
    axes[0].set_xticks(x, names, fontsize=8)
    axes[0].set_ylabel("focal score − field players' mean score\n(points, paired per play, 95% interval)")
    axes[0].set_title("the skill gap by side", fontsize=10)
    axes[0].legend(fontsize=8)
    axes[1].set_xticks(x, names, fontsize=8)
    axes[1].set_ylabel("skill gap / the field's mean score")
    axes[1].set_title("the gap relative to the field's score", fontsize=10)
    axes[1].legend(fontsize=8)
    parts = []
    if not sides.is_empty():
        sides = sides.sort("players", "focal", "field")
        labels = [f"{r['focal']} + {r['players'] - 1} {r['field']}" for r in sides.iter_rows(named=True)]
        y = sides["difference"].to_numpy()
        err = error_bars(y, sides["difference_lo"].to_numpy(), sides["difference_hi"].to_numpy())
        axes[2].errorbar(np.arange(len(labels)), y, yerr=err, fmt="D", capsize=4, color="black")
        axes[2].axhline(0, color="grey", linestyle="--", linewidth=1)
        axes[2].set_xticks(np.arange(len(labels)), labels, fontsize=8)
        axes[2].set_xlim(-0.6, len(labels) - 0.4)
        axes[2].set_ylabel("back gap − front gap (points, 95% interval)")
        axes[2].set_title("the seed's claim: > 0 if the back rewards skill more", fontsize=10)
        agree = sides.filter(pl.col("difference_lo") > 0)
        against = sides.filter(pl.col("difference_hi") < 0)
        verdict = ("the data agree with the seed's claim that the mixed back sides reward tactics more"
                   if agree.height == sides.height else
                   "the data contradict the seed's claim that the mixed back sides reward tactics more"
                   if against.height == sides.height else
                   f"the data agree with the seed's claim for {agree.height} and contradict it for {against.height} "
                   f"of {sides.height} focal policies")
        parts.append(verdict + ": " + "; ".join(
            f"one {r['focal']} player among {r['players'] - 1} {r['field']} ones outscores them by "
            f"{_n(r, 'front_gap', 1)} points on the front and {_n(r, 'back_gap', 1)} on the back, a difference "
            f"back − front of {_n(r, 'difference', 1)}" for r in sides.iter_rows(named=True)))
        parts.append("relative to the field's score (lower on the back) the gap grows from " + ", ".join(
            f"{r['front_relative_gap']:.2f} to {r['back_relative_gap']:.2f} ({r['focal']})"
            for r in sides.iter_rows(named=True)))
        saturated = gaps.filter(pl.col("focal_win_rate_lo") > 0.99)
        if saturated.height == gaps.height:
            won = ("won every one of its " if gaps["focal_win_rate"].min() == 1 else
                   f"won {pct(gaps['focal_win_rate'].min())}–{pct(gaps['focal_win_rate'].max())} of the ")
            parts.append(f"the focal player {won}{int(gaps['n_plays'].sum()):,} plays on both sides, so the win rate "
                         "cannot tell the sides apart: random players are far too weak a field for that")
        else:
            parts.append("the win gap changes by " + ", ".join(
                f"{r['win_gap_difference']:+.3f} ({_ci(r['win_gap_difference_lo'], r['win_gap_difference_hi'], 3)}, "
                f"{r['focal']})" for r in sides.iter_rows(named=True)))
    else:
        axes[2].set_axis_off()
        parts.append("no focal policy was played on both sides, so the seed's claim cannot be checked: "
                     + "; ".join(f"{r['focal']} on the {r['side']}: gap {_n(r, 'gap', 1)}"
                                 for r in gaps.iter_rows(named=True)))
    fig.suptitle(f"{page.game.title}: does the back reward skill more? One focal player among a field, seats "
                 "rotated", y=1.03)
    page.figure("skill_gap", fig, "Skill gap by side (the seed's claim)", _sentence(parts))
    table = _labelled(page.mart("mart_sevensteps_skill_gap").with_columns(
        (pl.col("focal") + " + " + (pl.col("players") - 1).cast(pl.String) + " " + pl.col("field")).alias("lineup")))
    page.table("Skill gap by side", table.sort("players", "focal", "side").select(
        "setup", "n_runs", "seats_covered", "seat_balance", "n_plays", "focal_mean_score", "focal_mean_score_lo",
        "focal_mean_score_hi", "field_mean_score", "gap", "gap_lo", "gap_hi", "relative_gap", "focal_win_rate",
        "focal_win_rate_lo", "focal_win_rate_hi", "field_win_rate", "fair_share", "win_gap", "win_gap_lo",
        "win_gap_hi"),
        note="gap = the focal player's score − the mean score of the field players of the same play (paired per "
             "play); win_gap likewise from winning. seat_balance = fewest / most plays in one focal seat.")
    all_sides = page.mart("mart_sevensteps_skill_gap_sides")
    if not all_sides.is_empty():
        page.table("Skill gap: back − front", all_sides.sort("players", "focal").select(
            "players", "focal", "field", "tile_threshold", "n_plays", "front_n_plays", "back_n_plays", "front_gap",
            "front_gap_lo", "front_gap_hi", "back_gap", "back_gap_lo", "back_gap_hi", "difference", "difference_lo",
            "difference_hi", "front_relative_gap", "back_relative_gap", "relative_difference", "front_win_gap",
            "back_win_gap", "win_gap_difference", "win_gap_difference_lo", "win_gap_difference_hi"),
            note="The seed's claim holds where difference > 0 and its interval excludes 0 (independent samples).")


# --- game length -----------------------------------------------------------------------------------------

@replaces("game_length")
def length_by_side(page: Page) -> None:
    length = _labelled(_drawn(page.mart("mart_sevensteps_length")))
    hist = _drawn(page.mart("mart_sevensteps_length_hist"))
    if length.is_empty():
        return
    counts = sorted(hist["players"].unique().to_list())
    fig, axes = plt.subplots(1, len(counts) + 1, figsize=(4.6 * (len(counts) + 1), 4.4), squeeze=False,
                             constrained_layout=True)
    axes = axes[0]
    one_policy = [lineup for lineup in hist["lineup"].unique().to_list() if " " not in lineup and "," not in lineup]
    for ax, players in zip(axes, counts):
        for i, lineup in enumerate(sorted(one_policy, key=lambda p: (p != "random", p))):
            for side in SIDES:
                run = hist.filter((pl.col("players") == players) & (pl.col("lineup") == lineup)
                                  & (pl.col("side") == side)).sort("rounds")
                if run.is_empty():
                    continue
                ax.step(run["rounds"], 100 * run["share"], where="mid", color=_colour(lineup, i),
                        linestyle=SIDE_STYLE[side]["linestyle"], label=f"{lineup}, {side} (n={run['n_plays'][0]:,})")
        ax.set_title(f"{players} players, tables of one policy", fontsize=10)
        ax.set_xlabel("rounds per play")
        ax.legend(fontsize=7)
    axes[0].set_ylabel("share of plays (%)")
    ax = axes[-1]
    lineups = length.select("players", "lineup").unique().sort("players", "lineup")
    names = [f"{r['players']}p {r['lineup']}" for r in lineups.iter_rows(named=True)]
    for offset, side in zip((-0.15, 0.15), SIDES):
        rows = [length.filter((pl.col("players") == r["players"]) & (pl.col("lineup") == r["lineup"])
                              & (pl.col("side") == side)) for r in lineups.iter_rows(named=True)]
        y = np.array([r["mean_rounds"][0] if not r.is_empty() else np.nan for r in rows])
        lo = np.array([r["mean_rounds_lo"][0] if not r.is_empty() else np.nan for r in rows], dtype=float)
        hi = np.array([r["mean_rounds_hi"][0] if not r.is_empty() else np.nan for r in rows], dtype=float)
        ax.errorbar(y, np.arange(len(names)) + offset, xerr=np.nan_to_num(error_bars(y, lo, hi)), capsize=2,
                    color="tab:blue" if side == "front" else "tab:orange", linestyle="none",
                    **{k: v for k, v in SIDE_STYLE[side].items() if k != "linestyle"}, label=side)
    ax.set_yticks(np.arange(len(names)), names, fontsize=7)
    ax.set_xlabel("mean rounds per play (95% interval)")
    ax.set_title("every line-up", fontsize=10)
    ax.legend(fontsize=8)
    fig.suptitle(f"{page.game.title}: game length in rounds (every seat has as many turns), front (solid) and back "
                 "(dashed)")
    parts = []
    ref = _reference(length)
    if ref is not None:
        rows = {r["side"]: r for r in length.filter((pl.col("players") == ref["players"])
                                                    & (pl.col("lineup") == "random")).iter_rows(named=True)}
        parts.append(f"{ref['players']} random players play " + " and ".join(
            f"{_n(r, 'mean_rounds', 1)} rounds on the {side} (median {r['median_rounds']}, 90% within "
            f"{r['p05_rounds']}–{r['p95_rounds']})" for side, r in rows.items()))
    paired = length.pivot(on="side", index=["players", "lineup"], values="mean_rounds")
    if {"front", "back"} <= set(paired.columns):
        paired = paired.drop_nulls()
        shorter = paired.filter(pl.col("back") < pl.col("front")).height
        parts.append(f"the back is shorter for {shorter} of {paired.height} line-ups")
    fast = length.sort("mean_rounds").row(0, named=True)
    parts.append(f"the shortest plays are at {fast['setup']} ({_n(fast, 'mean_rounds', 1)} rounds): strong players "
                 "place more discs a turn and empty the bag sooner")
    parts.append(f"{pct(length['completion_rate'].min())} of the plays or more ended by the bag (not the turn limit); "
                 f"towers collapsed {length['mean_collapses'].min():.3f}–{length['mean_collapses'].max():.3f} times "
                 "a play")
    page.figure("length_by_side", fig, "Game length by side, players and policy", _sentence(parts))
    table = _labelled(page.mart("mart_sevensteps_length"))
    page.table("Game length by set-up", table.sort("players", "lineup", "side", "tile_threshold").select(
        "setup", "n_runs", "n_plays", "mean_rounds", "mean_rounds_lo", "mean_rounds_hi", "sd_rounds", "min_rounds",
        "p05_rounds", "p25_rounds", "median_rounds", "p75_rounds", "p95_rounds", "max_rounds", "mean_turns",
        "mean_turns_lo", "mean_turns_hi", "completion_rate", "mean_collapses", "mean_collapses_lo",
        "mean_collapses_hi"))


# --- the special tiles -----------------------------------------------------------------------------------

def _policy_rows(frame: pl.DataFrame) -> pl.DataFrame:
    """Tables of one policy and the focal player of one-against-a-field tables, at four players if there."""
    focal = frame.filter((pl.col("lineup") == pl.col("policy"))
                         | pl.col("lineup").str.starts_with(pl.col("policy") + " + "))
    if focal.is_empty():
        return focal
    players = 4 if 4 in focal["players"].to_list() else focal["players"].max()
    return focal.filter(pl.col("players") == players).with_columns(
        pl.when(pl.col("lineup") == pl.col("policy")).then(pl.col("policy") + pl.lit(" table"))
        .otherwise(pl.col("policy") + pl.lit(" among random")).alias("who"))


def tiles(page: Page) -> None:
    all_tiles = page.mart("mart_sevensteps_tiles")
    drawn = _policy_rows(_drawn(all_tiles))
    if drawn.is_empty():
        return
    who = sorted(drawn["who"].unique().to_list(), key=lambda w: (not w.startswith("random"), w))
    fig, axes = plt.subplots(1, 2, figsize=(15, 4.6), sharey=False)
    measures = (("mean_taken", "taken", "o"), ("mean_played", "played", "^"), ("mean_left", "held at the end", "x"))
    for ax, kind in zip(axes, ("aid", "bonus")):
        rows = drawn.filter(pl.col("kind") == kind)
        for s, side in enumerate(SIDES):
            for m, (column, name, marker) in enumerate(measures):
                sub = [rows.filter((pl.col("who") == w) & (pl.col("side") == side)) for w in who]
                y = np.array([r[column][0] if not r.is_empty() else np.nan for r in sub])
                lo = np.array([r[f"{column}_lo"][0] if not r.is_empty() else np.nan for r in sub], dtype=float)
                hi = np.array([r[f"{column}_hi"][0] if not r.is_empty() else np.nan for r in sub], dtype=float)
                x = np.arange(len(who)) + (s - 0.5) * 0.4 + (m - 1) * 0.1
                ax.errorbar(x, y, yerr=np.nan_to_num(error_bars(y, lo, hi)), fmt=marker, capsize=2, linestyle="none",
                            color="tab:blue" if side == "front" else "tab:orange", label=f"{name}, {side}")
        ax.set_xticks(np.arange(len(who)), [w.replace(" among", "\namong") for w in who], fontsize=8)
        ax.set_ylabel("tiles per seat-play (95% interval)")
        ax.set_title(KINDS[kind], fontsize=10)
    axes[0].legend(fontsize=7, ncol=2)
    players = drawn["players"][0]
    fig.suptitle(f"{page.game.title}: special tiles taken, played and held at the end, {players} players", y=1.02)
    parts = []
    anys = drawn.filter(pl.col("kind") == "any")
    taken = []
    for w in who:
        rows = {r["side"]: r for r in anys.filter(pl.col("who") == w).iter_rows(named=True)}
        if rows:
            taken.append(f"{w} " + " / ".join(f"{rows[side]['mean_taken']:.2f}" for side in SIDES if side in rows))
    parts.append(f"seats take per play (front / back, {players} players): " + ", ".join(taken))
    fewer = [w for w in who if {"front", "back"} <= set(anys.filter(pl.col("who") == w)["side"].to_list())
             and anys.filter((pl.col("who") == w) & (pl.col("side") == "back"))["mean_taken_hi"][0]
             < anys.filter((pl.col("who") == w) & (pl.col("side") == "front"))["mean_taken_lo"][0]]
    if fewer:
        parts.append(f"fewer on the back for {len(fewer)} of {len(who)}: its chains score more, so fewer turns fall "
                     f"below the threshold")
    kinds = drawn.filter(pl.col("kind") != "any")
    aid_shares = kinds.filter(pl.col("kind") == "aid")["played_share"].drop_nulls()
    bonus_shares = kinds.filter(pl.col("kind") == "bonus")["played_share"].drop_nulls()
    if len(aid_shares) and len(bonus_shares):
        parts.append(f"{pct(aid_shares.min())}–{pct(aid_shares.max())} of the build-aid tiles taken are played, but "
                     f"only {pct(bonus_shares.min())}–{pct(bonus_shares.max())} of the victory-point tiles: most are "
                     "held to the end for their 2 points")
    anys_all = all_tiles.filter(pl.col("kind") == "any")
    if not anys_all.is_empty():
        parts.append(f"at the end {pct(anys_all['holder_share'].min())}–{pct(anys_all['holder_share'].max())} of "
                     "the seats still hold a tile")
    page.figure("tiles", fig, "Special tiles: taken, played, held", _sentence(parts))
    table = _labelled(all_tiles)
    page.table("Special tiles per seat-play", table.sort("players", "lineup", "side", "tile_threshold", "policy",
                                                          "kind").select(
        "setup", "policy", "kind", "n_runs", "n_plays", "seat_plays", "taker_share", "mean_taken", "mean_taken_lo",
        "mean_taken_hi", "mean_played", "mean_played_lo", "mean_played_hi", "played_share", "mean_left",
        "mean_left_lo", "mean_left_hi", "holder_share", "holder_share_lo", "holder_share_hi"),
        note="Per seat-play of the policy; kind any = both kinds; held at the end = worth 2 points each.")


def tile_value(page: Page) -> None:
    value = _labelled(_drawn(page.mart("mart_sevensteps_tile_value")))
    if value.is_empty():
        return
    groups = value.select("setup", "policy").unique().sort("setup", "policy")
    groups = groups.filter(pl.struct("setup", "policy").map_elements(
        lambda r: value.filter((pl.col("setup") == r["setup"]) & (pl.col("policy") == r["policy"]))["n_played"].sum()
        >= 50, return_dtype=pl.Boolean))
    if groups.is_empty():
        return
    aids = sorted(value.filter(pl.col("kind") == "aid")["tile"].unique().to_list(), key=lambda t: (len(t), t))
    bonuses = sorted(value.filter(pl.col("kind") == "bonus")["tile"].unique().to_list(), key=lambda t: (len(t), t))
    fig, axes = plt.subplots(1, 3, figsize=(17, 4.6), gridspec_kw={"width_ratios": [len(aids) + 1, len(bonuses) + 1,
                                                                                     len(bonuses) + 1]})
    offsets = (np.arange(groups.height) - (groups.height - 1) / 2) * (0.8 / groups.height)
    for g, (offset, r) in enumerate(zip(offsets, groups.iter_rows(named=True))):
        rows = value.filter((pl.col("setup") == r["setup"]) & (pl.col("policy") == r["policy"]))
        colour = f"C{g % 10}"
        for ax, kind, ids, column in ((axes[0], "aid", aids, "difference"), (axes[1], "bonus", bonuses, "difference"),
                                      (axes[2], "bonus", bonuses, "played_share")):
            sub = [rows.filter((pl.col("kind") == kind) & (pl.col("tile") == t)) for t in ids]
            y = np.array([s[column][0] if not s.is_empty() and s[column][0] is not None else np.nan for s in sub])
            lo = np.array([s[f"{column}_lo"][0] if not s.is_empty() and s[f"{column}_lo"][0] is not None else np.nan
                           for s in sub])
            hi = np.array([s[f"{column}_hi"][0] if not s.is_empty() and s[f"{column}_hi"][0] is not None else np.nan
                           for s in sub])
            scale = 100 if column == "played_share" else 1
            ax.errorbar(np.arange(len(ids)) + offset, scale * y, yerr=scale * np.nan_to_num(error_bars(y, lo, hi)),
                        fmt="o", capsize=2, markersize=4, color=colour,
                        label=f"{r['policy']} at a {r['setup']} table" if ax is axes[0] else None)
    for ax, ids in zip(axes, (aids, bonuses, bonuses)):
        ax.set_xticks(np.arange(len(ids)), ids)
    for ax in axes[:2]:
        ax.axhline(0, color="grey", linestyle="--", linewidth=1)
    axes[0].set_ylabel("turn score when played − the policy's turns\nwithout one (points, 95% Welch interval)")
    axes[0].set_title("build-aid tiles: the turns they were played in", fontsize=10)
    axes[1].set_title("victory-point tiles: the turns they were played in (bonus included)", fontsize=10)
    axes[2].set_ylabel("takings that ended in a play (%, Wilson)")
    axes[2].set_title("victory-point tiles: played when held", fontsize=10)
    axes[0].legend(fontsize=7, loc="upper center", bbox_to_anchor=(1.6, -0.1), ncol=3)
    fig.suptitle(f"{page.game.title}: what a played special tile went with (runs with events; observational)", y=1.02)

    main = groups.join(value.group_by("setup", "policy", "lineup").agg(pl.col("n_played").sum()),
                       on=["setup", "policy"])
    main = main.with_columns(((pl.col("lineup") == pl.col("policy")) & (pl.col("policy") != "random")).alias("own"))
    top = main.sort("own", "n_played", descending=True).row(0, named=True)
    rows = value.filter((pl.col("setup") == top["setup"]) & (pl.col("policy") == top["policy"]))
    aid_rows = rows.filter((pl.col("kind") == "aid") & pl.col("difference").is_not_null()).sort("difference")
    bonus_rows = rows.filter(pl.col("kind") == "bonus")
    parts = [f"observational, not causal (the policy chooses when to play a tile): at {top['setup']}, "
             f"{top['policy']}'s turns with a build-aid tile scored " + ", ".join(
                 f"{r['tile']} {r['difference']:+.1f} ({_ci(r['difference_lo'], r['difference_hi'], 1)})"
                 for r in aid_rows.sort("tile").iter_rows(named=True))
             + " points against its turns without one"]
    if not aid_rows.is_empty():
        best = aid_rows.row(-1, named=True)
        parts.append(f"{best['tile']} went with the most ({best['mean_turn_score']:.1f} against "
                     f"{best['base_mean_turn_score']:.1f} points, {best['n_played']:,} plays of it)")
    paid = bonus_rows.filter(pl.col("n_played") > 0)
    if not paid.is_empty():
        parts.append("the victory-point tiles paid " + ", ".join(
            f"{r['tile']} {r['mean_bonus']:.0f}" for r in sorted(paid.iter_rows(named=True), key=lambda r: (
                len(r["tile"]), r["tile"]))) + " points a play")
    held = bonus_rows.filter(pl.col("n_taken") >= 10).sort("played_share")
    if not held.is_empty():
        lo, hi = held.row(0, named=True), held.row(-1, named=True)
        parts.append(f"of those it took, it played {hi['tile']} most often ({pct(hi['played_share'])}, "
                     f"{interval(hi['played_share_lo'], hi['played_share_hi'])}) and {lo['tile']} least "
                     f"({pct(lo['played_share'])} of {lo['n_taken']} takings)")
    page.figure("tile_value", fig, "What the special tiles are worth", _sentence(parts))
    table = _labelled(page.mart("mart_sevensteps_tile_value"))
    page.table("Special tiles by id (runs with events)", table.sort("players", "lineup", "side", "policy", "kind",
                                                                    "tile").select(
        "setup", "policy", "kind", "tile", "n_runs", "n_plays", "n_taken", "n_played", "played_share",
        "played_share_lo", "played_share_hi", "mean_turn_score", "mean_turn_score_lo", "mean_turn_score_hi",
        "mean_placed", "mean_bonus", "base_turns", "base_mean_turn_score", "base_mean_placed", "difference",
        "difference_lo", "difference_hi"),
        note="Observational: difference = mean score of the turns the tile was played in − the policy's turns "
             "without a tile of its kind; the policy chose when to play it. played_share = plays / takings.")


def win_by_tiles(page: Page) -> None:
    wins = _policy_rows(_drawn(page.mart("mart_sevensteps_win_by_tiles")))
    if wins.is_empty():
        return
    wins = wins.filter((pl.col("kind") == "any") & (pl.col("lineup") == pl.col("policy")))
    if wins.is_empty():
        return
    who = sorted(wins["who"].unique().to_list(), key=lambda w: (not w.startswith("random"), w))
    fig, ax = plt.subplots(figsize=(10, 4.6))
    for i, w in enumerate(who):
        for side in SIDES:
            run = wins.filter((pl.col("who") == w) & (pl.col("side") == side) & (pl.col("seat_plays") >= 30)).sort(
                "taken")
            if run.is_empty():
                continue
            y = run["win_rate"].to_numpy()
            ax.errorbar(run["taken"].to_numpy(), 100 * y,
                        yerr=100 * error_bars(y, run["win_rate_lo"], run["win_rate_hi"]), capsize=2, markersize=4,
                        color=f"C{i}", linewidth=1, **SIDE_STYLE[side],
                        label=f"{w}, {side} (n={int(run['seat_plays'].sum()):,})")
    players = wins["players"][0]
    ax.axhline(100 / players, color="grey", linestyle=":", linewidth=1, label=f"fair share {pct(1 / players, 0)}")
    ax.xaxis.get_major_locator().set_params(integer=True)
    ax.set_xlabel("tiles the seat took in the play (both kinds)")
    ax.set_ylabel("win rate (%, 95% Wilson interval)")
    ax.legend(fontsize=7, ncol=2)
    ax.set_title(f"{page.game.title}: win rate by tiles taken, {players} players, tables of one policy\n(counts of "
                 "at least 30 seat-plays; observational)", fontsize=10)
    parts = ["observational: a seat takes a tile after a turn scoring below the threshold, so many tiles mark weak "
             "turns as much as they help"]
    for w in who:
        rows = wins.filter((pl.col("who") == w) & (pl.col("side") == "front") & (pl.col("seat_plays") >= 100))
        if rows.height >= 2:
            few, many = rows.sort("taken").row(0, named=True), rows.sort("taken").row(-1, named=True)
            parts.append(f"{w} on the front: {pct(few['win_rate'])} "
                         f"({interval(few['win_rate_lo'], few['win_rate_hi'])}) with {few['taken']} "
                         f"tile{'s' * (few['taken'] != 1)}, "
                         f"{pct(many['win_rate'])} "
                         f"({interval(many['win_rate_lo'], many['win_rate_hi'])}) with {many['taken']}")
    page.figure("win_by_tiles", fig, "Winning by tiles taken", _sentence(parts))
    table = _labelled(page.mart("mart_sevensteps_win_by_tiles"))
    page.table("Win rate by tiles taken", table.sort("players", "lineup", "side", "tile_threshold", "policy", "kind",
                                                     "taken").select(
        "setup", "policy", "kind", "taken", "n_plays", "seat_plays", "seat_play_share", "wins", "win_rate",
        "win_rate_lo", "win_rate_hi", "fair_share", "mean_score", "mean_score_lo", "mean_score_hi"),
        note="Observational: seats take tiles after low-scoring turns.")


# --- the threshold option --------------------------------------------------------------------------------

def threshold(page: Page) -> None:
    effect = _drawn(page.mart("mart_sevensteps_threshold"), threshold=False)
    if effect.is_empty():
        return
    effect = effect.sort("players", "policy", "side")
    groups = effect.select("players", "policy", "side", "tile_threshold").unique(maintain_order=True)
    metrics = [m for m in METRICS if m in effect["metric"].to_list()]
    fig, axes = plt.subplots(1, len(metrics), figsize=(3.4 * len(metrics), 4.2), squeeze=False)
    names = [f"{g['players']}p {g['policy']}\n{g['side']}, {g['tile_threshold']}" for g in groups.iter_rows(named=True)]
    for ax, metric in zip(axes[0], metrics):
        scale = 100 if metric == "seat0_advantage" else 1
        rows = [effect.filter((pl.col("metric") == metric) & (pl.col("players") == g["players"])
                              & (pl.col("policy") == g["policy"]) & (pl.col("side") == g["side"])
                              & (pl.col("tile_threshold") == g["tile_threshold"]))
                for g in groups.iter_rows(named=True)]
        y = np.array([r["difference"][0] if not r.is_empty() else np.nan for r in rows])
        lo = np.array([r["difference_lo"][0] if not r.is_empty() else np.nan for r in rows], dtype=float)
        hi = np.array([r["difference_hi"][0] if not r.is_empty() else np.nan for r in rows], dtype=float)
        for i, g in enumerate(groups.iter_rows(named=True)):
            ax.errorbar([i], scale * y[i:i + 1], yerr=scale * np.nan_to_num(error_bars(y[i:i + 1], lo[i:i + 1],
                                                                                       hi[i:i + 1])),
                        fmt="D", capsize=4, color=_colour(g["policy"], i))
        ax.axhline(0, color="grey", linestyle="--", linewidth=1)
        ax.set_xticks(np.arange(len(names)), names, fontsize=7)
        ax.set_xlim(-0.6, len(names) - 0.4)
        ax.set_title(METRICS[metric], fontsize=9)
    axes[0][0].set_ylabel(f"other threshold − {BASE_THRESHOLD} (95% interval)")
    fig.suptitle(f"{page.game.title}: what the tile threshold changes: a tile after a turn scoring 'fewer than "
                 f"{BASE_THRESHOLD}' (the seed) against the other threshold, tables of one policy", y=1.04)
    parts = []
    for g in groups.iter_rows(named=True):
        rows = {r["metric"]: r for r in effect.filter(
            (pl.col("players") == g["players"]) & (pl.col("policy") == g["policy"]) & (pl.col("side") == g["side"])
            & (pl.col("tile_threshold") == g["tile_threshold"])).iter_rows(named=True)}
        bits = []
        for metric, words in (("tiles_taken", "tiles taken a seat-play"), ("score", "score"),
                              ("seat0_advantage", "seat 0's win share"), ("seat0_margin", "seat 0's margin"),
                              ("rounds", "rounds")):
            if metric not in rows:
                continue
            r = rows[metric]
            scale, unit = (100, PP) if metric == "seat0_advantage" else (1, "")
            sig = "" if _excludes_zero(r["difference_lo"], r["difference_hi"]) else ", not significant"
            bits.append(f"{words} {scale * r['difference']:+.2f}{unit} "
                        f"({_ci(scale * r['difference_lo'], scale * r['difference_hi'])}{sig})".replace("+-", "−"))
        parts.append(f"at {g['players']} {g['policy']} players on the {g['side']}, threshold {g['tile_threshold']} "
                     f"against {BASE_THRESHOLD} changes " + ", ".join(bits))
    page.figure("threshold", fig, "The tile threshold option", _sentence(parts))
    table = page.mart("mart_sevensteps_threshold")
    page.table("Tile threshold against the seed's 7", table.sort("players", "policy", "side", "metric").select(
        "side", "players", "policy", "metric", "base_threshold", "tile_threshold", "base_n_plays", "n_plays", "base_n",
        "n", "base_value", "base_value_lo", "base_value_hi", "value", "value_lo", "value_hi", "difference",
        "difference_lo", "difference_hi"),
        note="seat0_advantage = seat 0's win share − 1/players (as a fraction); seat0_margin = seat 0's score − "
             "the other seats' mean. Intervals for independent samples.")


# The sections this game hands to the report, in page order (see simlib/analysis/page.py: lead, replaces).
SECTIONS = (seat_advantage_by_side, skill_gap, length_by_side, tiles, tile_value, win_by_tiles, threshold)
