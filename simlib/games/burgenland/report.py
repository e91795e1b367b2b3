"""Burgenland's own report sections. The page leads with the question issue 13 asks first: is the start player
favoured, and is the extra colour card each later seat gets (staggered starting hands) fair compensation? It
compares staggered hands with equal ones seat by seat. Then the generic sections (seat advantage per run, game
length in turns, policy strength), then game length in rounds with the end reasons, which kind of piece holds
players back, the joker economy, what wells are worth, and how much the central castle is used.

The marts pool the runs of one set-up (players, start_hands, line-up of policies, other options); figures draw
the most common other options, sentences quote four random players where there is such a table."""

from __future__ import annotations

import math

import matplotlib.pyplot as plt
import numpy as np
import polars as pl

from ...analysis.page import Page, error_bars, interval, lead, pct, replaces

PP = " percentage points"
HANDS = ("staggered", "equal")
HAND_STYLE = {"staggered": {"marker": "o", "linestyle": "-", "fillstyle": "full", "color": "tab:blue"},
              "equal": {"marker": "s", "linestyle": "--", "fillstyle": "none", "color": "tab:orange"}}
KINDS = ("wall", "house", "palas", "well")
PLURAL = {"wall": "walls", "house": "houses", "palas": "palases", "well": "wells"}
KIND_COLOURS = {"wall": "tab:grey", "house": "tab:brown", "palas": "black", "well": "tab:cyan"}
SOURCES = {"walls": "walls", "spots": "joker spots", "tiles": "Zwei Joker tiles", "exchanged": "bought for coins"}
# (staggered_vs_fair, equal_vs_fair) at seat 0 -> what the extra cards do
VERDICTS = {
    ("within", "above"): "the extra card compensates: seat 0 is favoured under equal hands and fair under "
                         "staggered ones",
    ("below", "above"): "the extra card does not compensate fairly, it over-compensates: seat 0 goes from "
                        "favoured under equal hands to disadvantaged under staggered ones",
    ("above", "above"): "the extra card does not compensate fully: seat 0 stays favoured",
    ("within", "within"): "there is no start-player advantage to compensate, and staggered hands keep seat 0 fair",
    ("below", "within"): "the extra card does not compensate, it creates a disadvantage: seat 0 is fair under equal "
                         "hands and behind under staggered ones",
    ("above", "within"): "seat 0 is fair under equal hands and favoured under staggered ones",
}


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
    """A number with its 95% interval: "32.12 (32.01–32.24)"."""
    return f"{r[column]:.{digits}f} ({_ci(r[f'{column}_lo'], r[f'{column}_hi'], digits)})"


def _rate(r: dict, column: str) -> str:
    """A rate with its interval: "20.2% (19.6%–20.7%)"."""
    return f"{pct(r[column])} ({interval(r[f'{column}_lo'], r[f'{column}_hi'])})"


def _diff(r: dict, column: str) -> str:
    """A difference of rates in words: "7.8 percentage points lower (95% interval 7.0–8.6)"."""
    value, lo, hi = (100 * r[c] for c in (column, f"{column}_lo", f"{column}_hi"))
    if value < 0:
        return f"{-value:.1f}{PP} lower (95% interval {_ci(-hi, -lo, 1)})"
    return f"{value:.1f}{PP} higher (95% interval {_ci(lo, hi, 1)})"


def _values(rows: list[pl.DataFrame], column: str) -> np.ndarray:
    return np.array([r[column][0] if not r.is_empty() and not _missing(r[column][0]) else np.nan for r in rows],
                    dtype=float)


def _bars(ax, x, rows: list[pl.DataFrame], column: str, scale: float = 1.0, **style) -> None:
    """Points with their 95% intervals, one per row frame (NaN where a frame is empty)."""
    y, lo, hi = (_values(rows, c) for c in (column, f"{column}_lo", f"{column}_hi"))
    ax.errorbar(x, scale * y, yerr=scale * np.nan_to_num(error_bars(y, lo, hi)), capsize=2, linestyle="none",
                **style)


def _common_options(frame: pl.DataFrame) -> str | None:
    if frame.is_empty():
        return None
    weight = "n_plays" if "n_plays" in frame.columns else "staggered_n_plays"
    weights = frame.group_by("other_options").agg(pl.col(weight).sum()).sort(weight, descending=True)
    return weights["other_options"][0]


def _drawn(frame: pl.DataFrame) -> pl.DataFrame:
    """The rows figures draw: the most common other options."""
    return frame if frame.is_empty() else frame.filter(pl.col("other_options") == _common_options(frame))


def _labelled(frame: pl.DataFrame, by: str = "lineup", hands: bool = True) -> pl.DataFrame:
    """A `setup` label per row: "4p random staggered", with the other options when not the usual."""
    if frame.is_empty():
        return frame
    parts = [pl.col("players").cast(pl.String) + pl.lit("p "), pl.col(by)]
    if hands:
        parts += [pl.lit(" "), pl.col("start_hands")]
    parts.append(pl.when(pl.col("other_options") != _common_options(frame))
                 .then(pl.lit(" ") + pl.col("other_options")).otherwise(pl.lit("")))
    return frame.with_columns(pl.concat_str(parts).alias("setup"))


def _order(frame: pl.DataFrame) -> list[tuple[int, str]]:
    """(players, line-up) pairs: random tables by player count first, then the others."""
    pairs = frame.select("players", "lineup").unique().rows()
    return sorted(pairs, key=lambda p: (p[1] != "random", " + " in p[1], p[1], p[0]))


def _where(frame: pl.DataFrame, **equal) -> pl.DataFrame:
    for key, value in equal.items():
        frame = frame.filter(pl.col(key) == value)
    return frame


def _hands(frame: pl.DataFrame) -> str:
    """The starting hands single-hands figures draw: the seed's staggered ones where there are such runs."""
    found = frame["start_hands"].unique().to_list() if not frame.is_empty() else []
    return "staggered" if "staggered" in found or not found else found[0]


def _reference(frame: pl.DataFrame, column: str = "lineup") -> dict | None:
    """The rows the sentences quote: 4 random players where there is such a table."""
    if frame.is_empty():
        return None
    for players in (4, 3, 2):
        if not _where(frame, players=players, **{column: "random"}).is_empty():
            return {"players": players, column: "random"}
    return None


def _setup_axis(ax, frame: pl.DataFrame) -> list[tuple[int, str]]:
    pairs = _order(frame)
    ax.set_xticks(range(len(pairs)), [f"{p}p {lineup}".replace(" + ", "\n+ ") for p, lineup in pairs], fontsize=8,
                  rotation=30, ha="right", rotation_mode="anchor")
    return pairs


def _by_hands(ax, frame: pl.DataFrame, column: str, scale: float = 1.0, label: bool = True) -> None:
    """One point per set-up (x) and starting hands (staggered left, equal right), with intervals."""
    pairs = _order(frame)
    for offset, hands in zip((-0.12, 0.12), HANDS):
        rows = [_where(frame, players=p, lineup=lineup, start_hands=hands) for p, lineup in pairs]
        style = {k: v for k, v in HAND_STYLE[hands].items() if k != "linestyle"}
        _bars(ax, np.arange(len(pairs)) + offset, rows, column, scale, markersize=5,
              label=f"{hands} hands" if label else None, **style)
    _setup_axis(ax, frame)


# --- the start player and the starting hands -------------------------------------------------------------

@lead
def start_hands(page: Page) -> None:
    seats = _drawn(page.mart("mart_burgenland_seat_advantage"))
    if seats.is_empty():
        return
    groups = sorted(seats.select("players", "policy").unique().rows(), key=lambda g: (g[1] != "random", g[1], g[0]))
    fig, axes = plt.subplots(1, len(groups), figsize=(3.4 * len(groups) + 1, 4.2), squeeze=False)
    for ax, (players, policy) in zip(axes[0], groups):
        for offset, hands in zip((-0.08, 0.08), HANDS):
            run = _where(seats, players=players, policy=policy, start_hands=hands).sort("seat")
            if run.is_empty():
                continue
            y = run["win_rate"].to_numpy()
            ax.errorbar(run["seat"].to_numpy() + offset, 100 * y, capsize=2, markersize=5, linewidth=0.8,
                        yerr=100 * error_bars(y, run["win_rate_lo"], run["win_rate_hi"]), **HAND_STYLE[hands],
                        label=f"{hands} (n={run['n_plays'][0]:,})")
        ax.axhline(100 / players, color="black", linewidth=0.8, linestyle=":", label=f"fair {pct(1 / players, 0)}")
        ax.set_xticks(range(players))
        ax.set_xlabel("seat (0 = start player)")
        ax.set_title(f"{players} players, {policy}", fontsize=10)
        ax.legend(fontsize=7)
    axes[0][0].set_ylabel("win rate (%, 95% Wilson interval)")
    fig.suptitle(f"{page.game.title}: win rate by seat under staggered starting hands (seat k: 4 + k colour cards) "
                 "and equal ones (4 each), tables of one policy", y=1.02)

    gaps = _drawn(page.mart("mart_burgenland_start_hands"))
    zero = gaps.filter(pl.col("seat") == 0) if not gaps.is_empty() else gaps
    parts = []
    ref = _reference(zero, "policy")
    if ref is None:
        rows = _where(seats, seat=0).sort("players", descending=True).iter_rows(named=True)
        parts.append("only one kind of starting hands was simulated, so the extra card cannot be judged: " + ", ".join(
            f"{r['players']}p {r['policy']} {r['start_hands']}: seat 0 wins {_rate(r, 'win_rate')}" for r in rows))
    else:
        r = _where(zero, **ref).row(0, named=True)
        verdict = VERDICTS.get((r["staggered_vs_fair"], r["equal_vs_fair"]),
                               "seat 0 is behind even under equal hands")
        parts.append(f"at {r['players']} random players, under staggered hands seat 0 wins "
                     f"{_rate(r, 'staggered_win_rate')} against a fair {pct(r['fair_share'])}; under equal hands "
                     f"{_rate(r, 'equal_win_rate')}: {verdict}; its win rate is {_diff(r, 'difference')} with "
                     "staggered hands than with equal ones")
        last = _where(gaps, players=r["players"], policy="random", seat=r["players"] - 1).row(0, named=True)
        parts.append(f"the last seat, with {r['players'] - 1} more cards, wins {_rate(last, 'staggered_win_rate')} "
                     f"under staggered hands and {_rate(last, 'equal_win_rate')} under equal ones")
        others = zero.filter(~((pl.col("players") == r["players"]) & (pl.col("policy") == "random")))
        parts += [f"at {o['players']} {o['policy']} players seat 0 wins {pct(o['staggered_win_rate'])} staggered "
                  f"against {pct(o['equal_win_rate'])} equal ({o['staggered_vs_fair']} and {o['equal_vs_fair']} the "
                  f"fair share)" for o in others.sort("policy", "players").iter_rows(named=True)]
    page.figure("start_hands", fig, "Start-player advantage: staggered against equal starting hands",
                _sentence(parts))
    if not gaps.is_empty():
        page.table("Staggered against equal starting hands by seat", gaps.sort("players", "policy", "seat").select(
            "players", "policy", "seat", "fair_share", "staggered_n_plays", "equal_n_plays", "staggered_win_rate",
            "staggered_win_rate_lo", "staggered_win_rate_hi", "equal_win_rate", "equal_win_rate_lo",
            "equal_win_rate_hi", "difference", "difference_lo", "difference_hi", "staggered_vs_fair", "equal_vs_fair",
            "staggered_margin", "equal_margin", "margin_difference", "margin_difference_lo", "margin_difference_hi"),
            note="Tables of one policy. difference = staggered − equal win rate (95% interval, independent samples); "
                 "*_vs_fair: where the Wilson interval lies against 1/players; margin = pieces placed − the other "
                 "seats' mean in the same play.")
    table = _labelled(page.mart("mart_burgenland_seat_advantage"), "policy")
    page.table("Win rate and pieces placed by seat", table.sort("players", "policy", "start_hands", "seat").select(
        "setup", "seat", "n_runs", "n_plays", "wins", "win_rate", "win_rate_lo", "win_rate_hi", "fair_share",
        "advantage", "advantage_lo", "advantage_hi", "mean_placed", "mean_placed_lo", "mean_placed_hi", "margin",
        "margin_lo", "margin_hi"),
        note="A play has one winner (none when cut by turn_limit or stalled), so the win rate is the win share.")


# --- game length -----------------------------------------------------------------------------------------

@replaces("game_length")
def length(page: Page) -> None:
    lengths = _drawn(page.mart("mart_burgenland_length"))
    hist = _drawn(page.mart("mart_burgenland_length_hist"))
    if lengths.is_empty():
        return
    counts = sorted(hist["players"].unique().to_list())
    fig, axes = plt.subplots(1, len(counts) + 1, figsize=(4.4 * (len(counts) + 1), 4.2), squeeze=False,
                             constrained_layout=True)
    for ax, players in zip(axes[0], counts):
        lineups = [lu for p, lu in _order(hist) if p == players and " + " not in lu and "," not in lu]
        for i, lineup in enumerate(lineups):
            for hands in HANDS:
                run = _where(hist, players=players, lineup=lineup, start_hands=hands).sort("rounds")
                if not run.is_empty():
                    ax.step(run["rounds"], 100 * run["share"], where="mid", color=f"C{i}",
                            linestyle=HAND_STYLE[hands]["linestyle"],
                            label=f"{lineup}, {hands} (n={run['n_plays'][0]:,})")
        ax.set_title(f"{players} players, tables of one policy", fontsize=10)
        ax.set_xlabel("rounds begun per play")
        ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=2)
    axes[0][0].set_ylabel("share of plays (%)")
    ax = axes[0][-1]
    pairs = _order(lengths)
    for offset, hands in zip((0.12, -0.12), HANDS):
        rows = [_where(lengths, players=p, lineup=lineup, start_hands=hands) for p, lineup in pairs]
        y, lo, hi = (_values(rows, c) for c in ("mean_rounds", "mean_rounds_lo", "mean_rounds_hi"))
        ax.errorbar(y, np.arange(len(pairs)) + offset, xerr=np.nan_to_num(error_bars(y, lo, hi)), capsize=2,
                    linestyle="none", label=f"{hands} hands",
                    **{k: v for k, v in HAND_STYLE[hands].items() if k != "linestyle"})
    ax.set_yticks(range(len(pairs)), [f"{p}p {lineup}" for p, lineup in pairs], fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel("mean rounds per play (95% interval)")
    ax.set_title("every line-up", fontsize=10)
    ax.legend(fontsize=8)
    fig.suptitle(f"{page.game.title}: game length in rounds, staggered (solid) and equal (dashed) starting hands")
    parts = []
    for players in counts:
        rows = {r["start_hands"]: r for r in _where(lengths, players=players, lineup="random").iter_rows(named=True)}
        if rows:
            parts.append(f"{players} random players play " + " and ".join(
                f"{_n(rows[hands], 'mean_rounds', 1)} rounds with {hands} hands (median "
                f"{rows[hands]['median_rounds']}, 90% within {rows[hands]['p05_rounds']}–{rows[hands]['p95_rounds']})"
                for hands in HANDS if hands in rows))
    fast = lengths.sort("mean_rounds").row(0, named=True)
    parts.append(f"the shortest plays are at {fast['players']}p {fast['lineup']} {fast['start_hands']} "
                 f"({_n(fast, 'mean_rounds', 1)} rounds)")
    stalled, limited = int(lengths["n_stalled"].sum()), int(lengths["n_turn_limit"].sum())
    worst = lengths.sort("completion_rate").row(0, named=True)
    if stalled + limited == 0:
        parts.append(f"every one of the {int(lengths['n_plays'].sum()):,} plays ended with a seat placing its last "
                     "piece (none stalled, none cut by the turn limit)")
    else:
        parts.append(f"{_rate(worst, 'completion_rate')} of the plays or more ended with a last piece; {stalled:,} "
                     f"stalled, {limited:,} were cut by the turn limit")
    page.figure("length", fig, "Game length by players, starting hands and policy", _sentence(parts))
    table = _labelled(page.mart("mart_burgenland_length"))
    page.table("Game length by set-up", table.sort("players", "lineup", "start_hands").select(
        "setup", "n_runs", "n_plays", "mean_rounds", "mean_rounds_lo", "mean_rounds_hi", "sd_rounds", "min_rounds",
        "p05_rounds", "median_rounds", "p95_rounds", "max_rounds", "mean_turns", "mean_turns_lo", "mean_turns_hi",
        "completion_rate", "completion_rate_lo", "completion_rate_hi", "n_stalled", "stalled_rate", "n_turn_limit",
        "turn_limit_rate"),
        note="A round begun counts whole: the play ends at once when a seat places its last piece.")


# --- the pieces left -------------------------------------------------------------------------------------

def _own_rows(frame: pl.DataFrame) -> pl.DataFrame:
    """Tables of one policy, and the focal player of one-against-a-field tables."""
    return frame.filter((pl.col("lineup") == pl.col("policy"))
                        | pl.col("lineup").str.starts_with(pl.col("policy") + " + "))


def pieces_left(page: Page) -> None:
    left = _own_rows(_drawn(page.mart("mart_burgenland_pieces_left")))
    if left.is_empty():
        return
    hands = _hands(left)
    left = left.filter(pl.col("start_hands") == hands)
    pairs = _order(left)
    fig, ax = plt.subplots(figsize=(max(8.0, 1.5 * len(pairs) + 2), 4.4))
    width = 0.8 / len(KINDS)
    for k, kind in enumerate(KINDS):
        rows = [_where(left, players=p, lineup=lineup, kind=kind) for p, lineup in pairs]
        y, lo, hi = (_values(rows, c) for c in ("left_share", "left_share_lo", "left_share_hi"))
        ax.bar(np.arange(len(pairs)) + (k - 1.5) * width, 100 * y, width, color=KIND_COLOURS[kind],
               yerr=100 * np.nan_to_num(error_bars(y, lo, hi)), capsize=2, label=PLURAL[kind])
    _setup_axis(ax, left)
    ax.set_ylabel("share of the kind's supply left\n(%, seats that did not win, 95% interval)")
    ax.legend(fontsize=8)
    ax.set_title(f"{page.game.title}: which kind holds players back? Pieces left at the end by the seats that did "
                 f"not win, {hands} hands", fontsize=10)
    parts = []
    for players, lineup in pairs:
        rows = _where(left, players=players, lineup=lineup).filter(pl.col("kind") != "any")
        top = rows.sort("share_of_left", descending=True, nulls_last=True).row(0, named=True)
        total = _where(left, players=players, lineup=lineup, kind="any").row(0, named=True)
        who = f"{players}p {lineup}" + (f" ({top['policy']})" if " + " in lineup else "")
        parts.append(f"{who}: {PLURAL[top['kind']]}, {pct(top['share_of_left'], 0)} of the "
                     f"{total['mean_left']:.2f} pieces a losing seat keeps ({top['mean_left']:.2f} of {top['supply']}, "
                     f"{pct(top['holder_share'], 0)} of them stuck with one)")
    page.figure("pieces_left", fig, "Which kind holds players back",
                _sentence(["the kind left most at the end, by set-up: " + parts[0], *parts[1:]]))
    table = _labelled(page.mart("mart_burgenland_pieces_left"))
    page.table("Pieces left by kind (seats that did not win)", table.sort(
        "players", "lineup", "start_hands", "policy", "kind").select(
        "setup", "policy", "kind", "seat_plays", "supply", "mean_left", "mean_left_lo", "mean_left_hi",
        "left_share", "left_share_lo", "left_share_hi", "holder_share", "holder_share_lo", "holder_share_hi",
        "share_of_left"),
        note="left_share = mean left / the pieces of the kind a seat starts with; share_of_left = the kind's share "
             "of all pieces left.", collapsed=True)


# --- the joker economy -----------------------------------------------------------------------------------

def jokers(page: Page) -> None:
    jk = _own_rows(_drawn(page.mart("mart_burgenland_jokers")))
    if jk.is_empty():
        return
    hands = _hands(jk)
    jk = jk.filter(pl.col("start_hands") == hands)
    pairs = _order(jk)
    fig, axes = plt.subplots(1, 2, figsize=(15, 4.6), gridspec_kw={"width_ratios": [1.6, 1]})
    measures = [*SOURCES, "used", "left"]
    width = 0.8 / len(measures)
    for m, measure in enumerate(measures):
        rows = [_where(jk, players=p, lineup=lineup, measure=measure) for p, lineup in pairs]
        y, lo, hi = (_values(rows, c) for c in ("mean_jokers", "mean_jokers_lo", "mean_jokers_hi"))
        axes[0].bar(np.arange(len(pairs)) + (m - (len(measures) - 1) / 2) * width, y, width, capsize=2,
                    yerr=np.nan_to_num(error_bars(y, lo, hi)), color=f"C{m}", hatch="//" if m >= 4 else None,
                    label=SOURCES.get(measure, measure))
    _setup_axis(axes[0], jk)
    axes[0].set_ylabel("jokers per seat-play (95% interval)")
    axes[0].set_title(f"where jokers come from (plain) and where they go (hatched), besides the one dealt; "
                      f"{hands} hands", fontsize=10)
    axes[0].legend(fontsize=8, ncol=3)
    _by_hands(axes[1], _drawn(page.mart("mart_burgenland_jokers")).filter(
        (pl.col("measure") == "used") & (pl.col("lineup") == pl.col("policy"))), "mean_jokers")
    axes[1].set_ylabel("jokers used per seat-play (95% interval)")
    axes[1].set_title("jokers paid for buildings, by starting hands", fontsize=10)
    axes[1].legend(fontsize=8)
    fig.suptitle(f"{page.game.title}: the joker economy, tables of one policy and one policy among random ones",
                 y=1.02)
    parts = []
    for players, lineup in pairs:
        rows = {r["measure"]: r for r in _where(jk, players=players, lineup=lineup).iter_rows(named=True)}
        gained = rows["gained"]
        top = max(SOURCES, key=lambda s: rows[s]["mean_jokers"])
        who = f"{players}p {lineup}" + (f" ({gained['policy']} seats)" if " + " in lineup else "")
        text = (f"{who}: a seat gains {_n(gained, 'mean_jokers')} jokers besides the one dealt, "
                f"{pct(rows[top]['mean_jokers'] / gained['mean_jokers'] if gained['mean_jokers'] else None, 0)} "
                f"from {SOURCES[top]}, pays {_n(rows['used'], 'mean_jokers')} and keeps "
                f"{rows['left']['mean_jokers']:.2f} at the end")
        if rows["exchanged"]["mean_jokers"] > 0:
            text += f", {rows['exchanged']['mean_jokers']:.2f} bought for coins"
        parts.append(text)
    page.figure("jokers", fig, "The joker economy", _sentence(parts))
    table = _labelled(page.mart("mart_burgenland_jokers"))
    page.table("Jokers per seat-play by source and use", table.sort(
        "players", "lineup", "start_hands", "policy", "measure").select(
        "setup", "policy", "measure", "seat_plays", "mean_jokers", "mean_jokers_lo", "mean_jokers_hi",
        "holder_share", "holder_share_lo", "holder_share_hi", "share_of_jokers"),
        note="Every seat is dealt one joker besides these; 1 + gained = used + left. share_of_jokers: of all the "
             "jokers the seats had.", collapsed=True)


# --- the wells -------------------------------------------------------------------------------------------

def wells(page: Page) -> None:
    value = _drawn(page.mart("mart_burgenland_wells"))
    if value.is_empty():
        return
    own = _own_rows(value)
    hands = _hands(own)
    wins = _own_rows(_drawn(page.mart("mart_burgenland_win_by_wells"))).filter(pl.col("start_hands") == hands)
    fig, axes = plt.subplots(1, 3, figsize=(17, 4.4))
    _by_hands(axes[0], own.filter(pl.col("lineup") == pl.col("policy")), "wells_per_play")
    axes[0].set_ylabel("wells built per play (95% interval)")
    axes[0].set_title("wells built per play (8 rewards at most)", fontsize=10)
    axes[0].legend(fontsize=8)
    _by_hands(axes[1], own, "coins_per_well")
    axes[1].set_ylabel("reward coins per well (95% interval)")
    axes[1].set_title("what a well paid (5, 4, 3, 3, 2, 2, 1, 1 by order)", fontsize=10)
    axes[1].legend(fontsize=8)
    pairs = _order(wins)
    most = int(wins["wells_built"].max()) if not wins.is_empty() else 0
    width = 0.8 / (most + 1)
    for w in range(most + 1):
        rows = [_where(wins, players=p, lineup=lineup, wells_built=w) for p, lineup in pairs]
        axes[2].bar(np.arange(len(pairs)) + (w - most / 2) * width, 100 * _values(rows, "seat_play_share"), width,
                    color=f"C{w}",
                    label=f"{w} well{'s' * (w != 1)}")
    if pairs:
        _setup_axis(axes[2], wins)
    axes[2].set_ylabel("share of the policy's seat-plays (%)")
    axes[2].set_title(f"wells a seat built ({hands} hands)", fontsize=10)
    axes[2].legend(fontsize=8)
    fig.suptitle(f"{page.game.title}: what wells are worth, tables of one policy and one policy among random ones",
                 y=1.02)
    parts = []
    ref = _reference(own)
    if ref is not None:
        r = _where(own, start_hands=hands, **ref).row(0, named=True)
        parts.append(f"{r['players']} random players build {_n(r, 'wells_per_play')} wells a play ({hands} hands), "
                     f"{_n(r, 'coins_per_well')} coins each, {_n(r, 'mean_well_coins')} coins a seat")
    rich = own.sort("wells_per_play", descending=True).row(0, named=True)
    parts.append(f"{rich['players']}p {rich['lineup']} {rich['start_hands']} builds the most: "
                 f"{_n(rich, 'wells_per_play')} a play at {_n(rich, 'coins_per_well')} coins each")
    short = wins.filter(pl.col("wells_built") < pl.col("wells_supply"))
    if not short.is_empty():
        never = short["wins"].sum() == 0
        shares = short.group_by("players", "lineup", "policy").agg(pl.col("seat_play_share").sum())
        shares = sorted(shares.filter(pl.col("seat_play_share") >= 0.005).iter_rows(), key=lambda r: -r[3])
        parts.append(f"a seat must place its wells to win ({'no' if never else 'hardly any'} seat short of a well "
                     "won), and many fall short: " + ", ".join(
                         f"{pct(s, 0)} of the {pol} seats at {p}p {lu}" for p, lu, pol, s in shares))
    page.figure("wells", fig, "What wells are worth", _sentence(parts))
    table = _labelled(page.mart("mart_burgenland_wells"))
    page.table("Wells per play and per seat", table.sort("players", "lineup", "start_hands", "policy").select(
        "setup", "policy", "n_plays", "wells_per_play", "wells_per_play_lo", "wells_per_play_hi", "seat_plays",
        "mean_wells", "mean_wells_lo", "mean_wells_hi", "builder_share", "builder_share_lo", "builder_share_hi",
        "mean_well_coins", "mean_well_coins_lo", "mean_well_coins_hi", "coins_per_well", "coins_per_well_lo",
        "coins_per_well_hi"),
        note="A well that is a seat's last piece ends the play unpaid (0 coins).", collapsed=True)
    table = _labelled(page.mart("mart_burgenland_win_by_wells"))
    page.table("Win rate by wells built", table.sort("players", "lineup", "start_hands", "policy", "wells_built")
               .select("setup", "policy", "wells_built", "wells_supply", "seat_plays", "seat_play_share", "wins",
                       "win_rate", "win_rate_lo", "win_rate_hi", "fair_share", "mean_placed", "mean_placed_lo",
                       "mean_placed_hi", "mean_well_coins"),
               note="Observational; a seat wins only by placing every piece, its wells included.", collapsed=True)


# --- the central castle ----------------------------------------------------------------------------------

def central(page: Page) -> None:
    castle = _drawn(page.mart("mart_burgenland_central"))
    if castle.is_empty():
        return
    own = _own_rows(castle)
    fig, axes = plt.subplots(1, 2, figsize=(15, 4.4))
    _by_hands(axes[0], own.filter(pl.col("lineup") == pl.col("policy")), "central_per_play")
    axes[0].set_ylabel("pieces in the central castle per play\n(95% interval)")
    axes[0].set_title("pieces built there per play, all seats", fontsize=10)
    axes[0].legend(fontsize=8)
    _by_hands(axes[1], own, "policy_placed_share", 100)
    axes[1].set_ylabel("the policy's pieces placed there\n(% of its pieces placed, 95% interval)")
    axes[1].set_title("share of a policy's pieces that went to the central castle", fontsize=10)
    axes[1].legend(fontsize=8)
    fig.suptitle(f"{page.game.title}: how much the central castle is used", y=1.02)
    parts = []
    ref, hands = _reference(own), _hands(own)
    if ref is not None:
        r = _where(own, start_hands=hands, **ref).row(0, named=True)
        parts.append(f"{r['players']} random players build {_n(r, 'central_per_play', 1)} pieces a play in the central "
                     f"castle ({hands} hands), {_rate(r, 'placed_share')} of the pieces placed; "
                     f"{pct(r['play_share'])} of the plays use it")
    low = own.sort("policy_placed_share").row(0, named=True)
    high = own.sort("policy_placed_share", descending=True).row(0, named=True)
    parts.append(f"the share of a policy's pieces placed there ranges from {_rate(low, 'policy_placed_share')} "
                 f"({low['policy']} at {low['players']}p {low['lineup']} {low['start_hands']}) to "
                 f"{_rate(high, 'policy_placed_share')} ({high['policy']} at {high['players']}p {high['lineup']} "
                 f"{high['start_hands']})")
    users = own.filter((pl.col("non_users") >= 100) & (pl.col("users") >= 100))
    if not users.is_empty():
        u = users.sort("n_plays", descending=True).row(0, named=True)
        parts.append(f"observational: at {u['players']}p {u['lineup']} {u['start_hands']} the {u['policy']} seats that "
                     f"built there won {_rate(u, 'user_win_rate')}, those that did not "
                     f"{_rate(u, 'non_user_win_rate')} (a seat builds there when the small castles have no place)")
    page.figure("central", fig, "The central castle", _sentence(parts))
    table = _labelled(page.mart("mart_burgenland_central"))
    page.table("The central castle", table.sort("players", "lineup", "start_hands", "policy").select(
        "setup", "policy", "n_plays", "central_per_play", "central_per_play_lo", "central_per_play_hi",
        "play_share", "placed_share", "placed_share_lo", "placed_share_hi", "seat_plays", "mean_central",
        "mean_central_lo", "mean_central_hi", "user_share", "user_share_lo", "user_share_hi", "policy_placed_share",
        "policy_placed_share_lo", "policy_placed_share_hi", "user_win_rate", "user_win_rate_lo", "user_win_rate_hi",
        "non_user_win_rate", "non_user_win_rate_lo", "non_user_win_rate_hi"),
        note="Shares of pieces are ratios of sums (delta-method intervals); win rates by use are observational.",
        collapsed=True)


# The sections this game hands to the report, in page order (see simlib/analysis/page.py: lead, replaces).
SECTIONS = (start_hands, length, pieces_left, jokers, wells, central)
