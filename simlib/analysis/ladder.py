"""The skill ladder's report section, on every game page: does the start player's edge grow with skill, and how
much skill does the game reward? From the ladder marts (pipelines/shared/mart_ladder_*.sql): tables where every
seat plays one rung (random, the heuristics, search at rising budgets), each rung against the rung below, and each
search against the game's best heuristic (the strength test). Tables whose plays all open alike are left out by
the marts (mart_run_setups.fixed_opening): the ladder reads set-ups whose openings vary, and says so."""

from __future__ import annotations

import polars as pl

from .estimators import MARGIN_SHARE
from .figure_kinds import Ladder
from .page import Page
from .words import count, digits_apart, interval, pct, sentence, signed

QUESTION = "Does the start player's edge grow with skill?"


def _pp(x: float, digits: int = 1) -> str:
    return f"{signed(100 * x, digits)} pp"


def _pp_interval(value: float, lo: float, hi: float, per: str = "") -> str:
    """"+3.8 pp (+3.6 pp to +4.0 pp)", "+1.3 pp a rung (...)" (per: " a rung"), with as many decimals as the ends
    need to print apart."""
    digits = digits_apart(100 * lo, 100 * hi, signed, 1)
    return f"{_pp(value, digits)}{per} ({_pp(lo, digits)} to {_pp(hi, digits)})"


def edge_answer(depth: dict) -> str:
    """The answer to QUESTION from a row of mart_ladder_depth ("" with fewer than two rungs played alone): the trend
    over every rung (the slope's interval), worded by the sign of the slope and of the advantage: a handicap that
    moves toward 0 shrinks, it does not grow."""
    if depth["n_rungs_alone"] < 2 or depth["edge_slope"] is None:
        return ""
    n, slope = depth["players"], depth["edge_slope"]
    bottom, top = ([depth[f"{end}_advantage{part}"] for part in ("", "_lo", "_hi")] for end in ("bottom", "top"))
    ends = (f"seat 0's advantage is {_pp_interval(*bottom)} at {n} {depth['bottom_rung']} players "
            f"and {_pp_interval(*top)} at {n} {depth['top_rung']} players")
    trend = (f"a trend of {_pp_interval(slope, depth['edge_slope_lo'], depth['edge_slope_hi'], ' a rung')} over "
             f"{'both' if depth['n_rungs_alone'] == 2 else 'all ' + str(depth['n_rungs_alone'])} rungs played alone")
    if depth["edge_slope_p"] >= 0.05:
        if -MARGIN_SHARE < depth["edge_slope_lo"] and depth["edge_slope_hi"] < MARGIN_SHARE:
            return sentence(f"the start player's edge changes by no more than {MARGIN_SHARE * 100:.0f} percentage "
                            f"point a rung up the ladder: {trend}", ends)
        return sentence(f"too few plays to tell whether the start player's edge changes with skill: {trend}", ends)
    mean = (depth["bottom_advantage"] + depth["top_advantage"]) / 2
    larger = slope > 0
    if mean >= 0:
        said = "the start player's edge grows with skill" if larger else "the start player's edge shrinks with skill"
    else:
        said = ("the start player's handicap shrinks with skill" if larger
                else "the start player's handicap grows with skill")
    top, bottom = depth["top_rung"], depth["bottom_rung"]
    where = f"seat 0's advantage is {'larger' if larger else 'smaller'} at {top} than at {bottom}"
    return sentence(f"{said}: {where}, {trend}", ends)


def depth_answer(depth: dict) -> str:
    """How many steps up the ladder pay (by more than the least effect, Holm over the steps), and what the rung
    below still wins at the top step."""
    if depth["n_steps"] == 0:
        return ""
    below = (f"at the top step ({depth['top_step_rung']} against {depth['top_step_below']}) each player of the rung "
             f"below still wins {pct(depth['top_below_share_of_fair'], 0)} of a fair share (95% interval "
             f"{interval(depth['top_below_share_of_fair_lo'], depth['top_below_share_of_fair_hi'], digits=0)}; 100% "
             f"would mean the step up gives no edge)")
    return sentence(f"{depth['skill_depth']} of {count(depth['n_steps'], 'step')} up the ladder "
                    f"{'pays' if depth['n_steps'] == 1 else 'pay'}: the stronger rung wins more than 1 percentage "
                    f"point above the fair share against the rung below (Holm over the steps)", below)


def strength_answer(strength: pl.DataFrame) -> str:
    """How the rungs above the best heuristic (the search's budgets) fare against it, from mart_ladder_strength
    rows of one players and options ("" for none)."""
    if strength.is_empty():
        return ""
    rows = list(strength.sort("rung").iter_rows(named=True))
    first = rows[0]
    shares = ", ".join(f"{r['rung_label']} {pct(r['win_share'])} ({interval(r['win_share_lo'], r['win_share_hi'])})"
                       for r in rows)
    beaten = [r["rung_label"] for r in rows if r["beats_best"]]
    said = ("every one of them wins significantly more than the fair share" if len(beaten) == len(rows) else
            "none of them wins significantly more than the fair share" if not beaten else
            f"only {', '.join(beaten)} {'wins' if len(beaten) == 1 else 'win'} significantly more than the fair share")
    weaker = [f"{r['rung_label']} wins significantly less than {r['previous_label']}" for r in rows
              if r["significantly_weaker"]]
    return sentence(f"one player against {first['players'] - 1} {first['best_label']} players (the best heuristic), "
                    f"seats rotated, wins {shares} (the fair share is {pct(first['fair_share'], 0)}): {said} "
                    f"(one-sided tests, Holm over the rungs)",
                    *weaker)


def _main_row(depth: pl.DataFrame) -> dict:
    """The ladder the sentences quote: at the published rules where played, the most rungs, then most players."""
    depth = depth.with_columns((pl.col("options") == "").alias("published"),
                               (pl.col("n_rungs_alone") + pl.col("n_steps")).alias("size"))
    return depth.sort("published", "size", "players", descending=True).row(0, named=True)


def skill_ladder(page: Page) -> None:
    balance, steps = page.mart("mart_ladder_balance"), page.mart("mart_ladder_head_to_head")
    depth, strength = page.mart("mart_ladder_depth"), page.mart("mart_ladder_strength")
    if depth.is_empty():
        return
    main = _main_row(depth)
    answer, steps_said = edge_answer(main), depth_answer(main)
    if not answer and not steps_said:
        return  # one rung alone and no step up: nothing a figure could answer
    alone = balance.filter((pl.col("players") == main["players"]) & (pl.col("options") == main["options"]))
    step = steps.filter((pl.col("players") == main["players"]) & (pl.col("table_options") == main["options"]))
    against_best = strength.filter((pl.col("players") == main["players"])
                                   & (pl.col("table_options") == main["options"]))
    strength_said = strength_answer(against_best)
    title = f"{page.game.title}: {QUESTION[:-1].lower()}? {main['players']} players, 95% intervals"
    ladder = Ladder(alone, step, against_best, 1 / main["players"], title)
    left_out = "fixed_opening" in page.runs.columns and page.runs["fixed_opening"].any()
    note = sentence("tables whose plays all open alike (a fixed map, scripted openings) are left out: the ladder "
                    "reads tables whose openings vary") if left_out else ""
    page.figure("skill_ladder", ladder, "The skill ladder",
                " ".join(filter(None, [answer, steps_said, strength_said, note])))
    page.verdict("skill", QUESTION, answer)
    page.table("The skill ladder: balance at each rung (every seat plays it)", alone.sort("players", "rung"),
               "setup_label n_plays seat0_advantage± balance± mean_turns± headline headline_mean± rung",
               mart="mart_ladder_balance")
    page.table("The skill ladder: each rung against the rung below", steps.sort("players", "options", "rung"),
               "pairing_label n_plays win_share± fair_share p_holm beats_below below_share_of_fair± seats_covered "
               "seat_balance",
               mart="mart_ladder_head_to_head")
    if not strength.is_empty():
        page.table("The skill ladder: the strength test, each rung above the best heuristic against it",
                   strength.sort("players", "options", "rung"),
                   "pairing_label n_plays win_share± fair_share beats_best previous_label change± significantly_weaker "
                   "seats_covered seat_balance", mart="mart_ladder_strength")
    page.table("The skill ladder: skill depth and the start player's edge", depth.sort("players", "options"),
               "players options_label n_steps skill_depth top_step_rung top_below_share_of_fair± n_rungs_alone "
               "bottom_rung bottom_advantage± top_rung top_advantage± edge_slope± edge_slope_p",
               mart="mart_ladder_depth")
