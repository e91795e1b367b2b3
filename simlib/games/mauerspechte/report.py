"""Die Mauerspechte's sections: the hotels lead; after the generic ones points, Love Parades, wall, length vs Catan.

On the fixed Berlin map a table of scripted players opens the same way in every play (mart_run_setups.fixed_opening):
such tables are drawn but no verdict rests on them. The start player's verdict reads the tables whose openings vary:
random or weighted players, and scripted ones on the shuffled layout. Who wins is told by the win share (a win split
among its winners), with intervals clustered by play; the tests of one figure share one error rate (Holm)."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import polars as pl

from ...analysis import sections
from ...analysis.estimators import holm
from ...analysis.page import (
    GameReport,
    Page,
    Points,
    SeatBars,
    ci,
    column_list,
    count,
    interval,
    lead,
    number,
    pct,
    replaces,
    sentence,
    span,
    stack,
)
from ...analysis.sections import quoted

CHIPS = {4: 3, 5: 4, 6: 5, 8: 5, 9: 4, 10: 3}  # a hotel's chip and its price in cards
DESIGN = 18  # rolls to earn the price back at the dice's 2 x pips/36 cards a roll, for every chip
SCRIPTED = ("builder", "specht", "hotelier")  # policies that open the same way every play on the fixed map
VARIED = ("", "layout=shuffled")  # the options of the tables a verdict reads: the published rules, or the shuffled map
XLABELS = {"seat": "seat (0 = the start player)", "owned": "hotels owned at the end"}
SOURCES = {"army": "police", "dev_cards": "VP cards", "wall": "wall pieces", "chips": "parade chips"}  # else as named


def _setups(page: Page, mart: str, *where: pl.Expr) -> tuple[pl.DataFrame, pl.DataFrame, list[str]]:
    """The mart's rows of each set-up's largest counted run, and what figures draw of them (sections.figure_rows)."""
    return sections.figure_rows(page, mart, pl.col.primary, *where)


def _fixed(page: Page) -> pl.Series:
    """The labels of the set-ups whose every play opens the same way (the fixed map, scripted players at every seat:
    mart_run_setups.fixed_opening)."""
    return page.runs.filter(pl.col.fixed_opening)["label"]


def _fixed_map(page: Page, frame: pl.DataFrame, y: str, what: str) -> str:
    """Under a figure that draws tables of one opening repeated: that they give no verdict, and the widest spread of
    `y` over their seats (what one opening does, not what the game does)."""
    rows = frame.filter(pl.col.label.is_in(_fixed(page).implode()))
    if rows.is_empty():
        return ""
    say = pct if "share" in y else number
    widest = rows.group_by("label").agg(pl.col(y).min().alias("low"), pl.col(y).max().alias("high")).sort(
        pl.col("high") - pl.col("low"), "label", descending=[True, False]).row(0, named=True)
    n = rows["label"].n_unique()
    tables = "the table of scripted players on the fixed map opens the same way in every play and gives" if n == 1 \
        else f"the {n} tables of scripted players on the fixed map open the same way in every play and give"
    return (f"{tables} no verdict (at {widest['label']} the seats' {what} run from {say(widest['low'])} to "
            f"{say(widest['high'])})")


def _tables(page: Page, title: str, frame: pl.DataFrame, columns: str, mart: str, **kw) -> None:
    """The set-ups' table by players, label and its first column; in `columns`, "x±" stands for x, x_lo and x_hi."""
    spec, frame = column_list(columns), frame.rename({"label": "setup_label"}, strict=False)
    page.split_table(title, frame.sort("players", "setup_label", *spec[:1]), ["setup_label", *spec], mart, **kw)


def _points(drawn: pl.DataFrame, x: str, panels: dict, title: str, scale: float = 1.0, ref: float | None = None,
            **kw) -> Points:
    """Points: a panel per column of `panels` (column: title), the set-ups side by side at each value of `x`, each
    in its policy's colour and its marker (a set-up of one play: its point without an interval)."""
    one = drawn.with_columns(pl.col(f"{y}{e}").fill_null(pl.col(y)) for y in panels for e in ("_lo", "_hi"))
    ticks = pl.format("{}\n(price {})", "chip", pl.col("chip").replace_strict(CHIPS)) if x == "chip" else x
    rows = stack(one.sort(x, "players", "label"), panels, dict.fromkeys(panels, scale), x=ticks, series="label",
                 n_plays="n_plays")
    return Points(rows if ref is None else rows.with_columns(reference=pl.lit(float(ref))), "Die Mauerspechte: "
                  f"{title} (tables of one policy, published rules, 95% intervals)", XLABELS.get(x, x), "",
                  panel_width=6.1 if len(panels) > 1 else 10.0, height=3.8, **kw)


@lead
def hotel_payback(page: Page) -> None:
    table, drawn, labels = _setups(page, "mart_mauerspechte_hotel_payback")
    if not labels:
        return
    fig = _points(drawn, "chip", {"yield_ratio": "the owner's cards a roll, % of the dice's 2 × pips/36",
                                  "paid_back_share": "hotels paid back by the end (%)"}, "do hotels pay back?", 100,
                  100, reference_label="100%", sharey=False)
    rows = sorted(quoted(drawn, "n_hotels"), key=lambda r: r["yield_ratio"])
    paid = sorted(rows, key=lambda r: r["paid_back_share"])
    ends = {k: " to ".join(dict.fromkeys(ci(r, k, where=f"chip {r['chip']}") for r in (o[0], o[-1])))
            for k, o in (("yield_ratio", rows), ("paid_back_share", paid))}
    rolls = f"{span([r['break_even_rolls'] for r in rows], lambda x: number(x, 1))} rolls"
    page.figure("hotel_payback", fig, "Does a hotel pay back its price?", sentence(
        f"at {rows[0]['label']} ({count(sum(r['n_hotels'] for r in rows), 'hotel')}) the owner got "
        f"{ends['yield_ratio']} of the dice's 2 × pips/36 cards a roll, earning the price in {rolls} (by design in "
        f"{DESIGN}); {ends['paid_back_share']} paid back by the game's end"))
    word = "mostly" if paid[0]["paid_back_share_lo"] > 0.5 else "mostly not" if paid[-1]["paid_back_share_hi"] < 0.5 \
        else "for some chips"
    page.verdict("own", "Does a hotel pay for itself?", sentence(
        f"{word}: at {rows[0]['label']} {ends['paid_back_share']} of hotels paid back by the end, in {rolls} at "
        f"the yield seen ({DESIGN} by design)"))
    _tables(page, "Hotel payback by chip", table, "chip n_hotels yield_ratio± break_even_rolls paid_back_share± "
            "km_median_payback_rolls analytic_median_payback_rolls late_share mean_net",
            "mart_mauerspechte_hotel_payback")


@lead
def hotel_payback_curve(page: Page) -> None:
    _, drawn, labels = _setups(page, "mart_mauerspechte_payback_curve")
    if not labels:
        return
    label = quoted(drawn.unique(["label", "chip"]), "n_hotels")[0]["label"]
    sizes = drawn.unique(["label", "chip"]).group_by("players", "label").agg(pl.col("n_hotels").sum())
    shown = sizes.sort("n_hotels", descending=True).unique("players", keep="first").sort("players")["label"]
    fig, axes = page.subplots(3 * len(shown), width=4.0, height=3.0, sharex=True, sharey=True,  # a row a count
                              gridspec_kw={"hspace": 0.3})
    for k, setup in enumerate(shown):  # the set-up with most hotels at each player count
        colour = page.style([setup])[setup]["color"]  # its policy's; its chips by line style
        for i, chip in enumerate((4, 10, 5, 9, 6, 8)):  # the two chips of a price share a panel and the dice's curve
            ax, rows = axes[3 * k + i // 2], drawn.filter(pl.col.label == setup, pl.col.chip == chip).sort("rolls")
            n = drawn.filter(pl.col.label == setup, pl.col.chip.is_in([c for c in CHIPS if CHIPS[c] == CHIPS[chip]]))
            ax.set(xlim=(0, 80), title=f"{setup}, price {CHIPS[chip]} (n = {n.unique('chip')['n_hotels'].sum():,})",
                   xlabel="rolls after the purchase" if k == len(shown) - 1 else "",
                   ylabel="paid back (%)" if i < 2 else "")
            ax.axvline(DESIGN, color="grey", linestyle=":", linewidth=1)
            if rows.height:
                x, ys = np.r_[0, rows["rolls"]], [100 * np.r_[0, rows[f"paid_share{e}"]] for e in ("", "_lo", "_hi")]
                ax.step(x, ys[0], where="post", color=colour, linestyle="-." if i % 2 else "-", label=f"chip {chip}")
                ax.fill_between(x, ys[1], ys[2], step="post", alpha=0.15, color=colour)
                ax.plot(rows["rolls"], 100 * rows["analytic_paid_share"], "k--", linewidth=1,
                        label="the dice alone" if i % 2 else None)
                ax.legend()
    fig.suptitle(f"Die Mauerspechte: how fast hotels pay back against the dice (Kaplan-Meier, 95% bands; dotted: "
                 f"{DESIGN} rolls)")
    by = drawn.filter((pl.col("label") == label) & (pl.col("rolls") <= DESIGN)).sort("rolls").group_by("chip").last()
    page.figure("hotel_payback_curve", fig, "Hotel payback over time", sentence(
        by.height and f"at {label} (Kaplan-Meier: a hotel whose game ended first is cut off) {span(by['paid_share'])} "
        f"of a chip's hotels paid back within {DESIGN} rolls, the dice alone {span(by['analytic_paid_share'])}",
        "the yield comes in pairs: a 4/10 hotel needs 2 rolls of its chip, a 6/8 three; only the 5/9's price is exact"))


@lead
def hotel_field(page: Page) -> None:
    table, drawn, labels = _setups(page, "mart_mauerspechte_hotel_field")
    if not labels:
        return
    fig = _points(drawn, "chip", {"owner_uplift": "to the owner's buildings", "others_uplift": "to the opponents'"},
                  "cards a hotel's chip gives its field beyond the old 2/3/11/12")
    most, owner, others, shares = max(rows := quoted(drawn, "n_hotels"), key=lambda r: r["others_uplift"]), *(
        [r[c] for r in rows] for c in ("owner_uplift", "others_uplift", "others_share"))
    page.figure("hotel_field", fig, "What a hotel chip does to the field", sentence(
        f"at {most['label']} the new chip gave the owner's buildings on the field {span(owner, number)} cards a hotel "
        f"more than the old token, the opponents' {span(others, number)}, most "
        f"{ci(most, 'others_uplift', False, where='chip ' + str(most['chip']))}",
        None not in shares and f"{span(shares)} of the extra cards go to opponents"))
    _tables(page, "Hotel chips and the field's buildings", table, "chip n_hotels mean_yield owner_uplift± "
            "others_uplift± others_share", "mart_mauerspechte_hotel_field")


@lead
def hotel_wins(page: Page) -> None:
    table, drawn, labels = _setups(page, "mart_mauerspechte_buyers", pl.col.item == "hotel", pl.col.seat.is_null())
    _, held, shown = _setups(page, "mart_mauerspechte_win_by_holdings", pl.col.item == "hotels", pl.col.seat_plays > 29)
    if not labels or not shown:
        return
    fig = _points(held, "owned", {"win_share": "win share (%) of seats by hotels owned, counts of 30 seat-plays or "
                                               "more"}, "hotels and winning", 100).draw(page)
    for n in sorted(set(held["players"])):
        fig.axes[0].axhline(100 / n, color="grey", linestyle="--", linewidth=1 + n % 2,
                            label=f"fair share, {n} players")
    fig.axes[0].legend()
    r = quoted(drawn)[0]
    page.figure("hotel_wins", fig, "Hotels and winning", sentence(
        f"at {r['label']} the {pct(r['buyer_share'])} of seats that owned a hotel at the end win a share of "
        f"{ci(r, 'buyer_win_share')}, the others {ci(r, 'non_buyer_win_share')}, against a fair "
        f"{pct(r['fair_share'])}: an association, not a cause (a seat that is doing well can afford hotels)"))
    _tables(page, "Hotel owners against the other seats", table, "policy seat_plays buyer_share mean_owned± "
            "buyer_wins buyer_win_share± non_buyer_win_share± fair_share", "mart_mauerspechte_buyers",
            note="Every seat together; win shares split a shared win among its winners, intervals count plays.")


def _shuffled_seats(page: Page, seats: pl.DataFrame) -> None:
    """The tables of one policy on the shuffled layout, where scripted openings vary: win share by seat, a series
    per set-up, and the generic seat sentence (Holm over the seats drawn here)."""
    if seats.is_empty():
        return
    bars = SeatBars(seats, "Die Mauerspechte: does the seat matter when the openings vary? Tables of one policy, "
                    "shuffled layout, 95% intervals", ylabel="win share (%, 95% interval)", panel_width=6.0)
    page.figure("seat_advantage_shuffled", bars, "Does the seat matter on the shuffled map?",
                sections.seat_sentence(seats))


@replaces("seat_advantage")
def seat_advantage(page: Page) -> None:
    one = sections.one_policy_setups(page.mart("mart_seat_advantage"))
    varied = sections.without_fixed_openings(page, one.filter(pl.col.options.is_in(VARIED)))
    page.verdict("start_player", "Is the start player favoured?", sections.start_player_verdict(  # the index's answer
        varied, "one-policy tables whose openings vary"))
    sections.seat_advantage(page)  # the generic section: the published rules' tables, those whose openings vary judged
    _shuffled_seats(page, varied.filter(pl.col.options != ""))
    seats = sections.published_rules(page, one)
    fixed = seats.filter(pl.col.setup_label.is_in(_fixed(page).implode()))
    if fixed.is_empty():
        return
    page.add_to_sentence("seat_advantage", _fixed_map(page, seats.rename({"setup_label": "label"}), "win_share",
                                                      "win shares"))
    r = fixed.filter(pl.col.seat == 0).sort((pl.col.win_share - pl.col.fair_share).abs(), descending=True).row(
        0, named=True)
    page.notes.append(f"The Berlin map is fixed, so a scripted policy ({', '.join(SCRIPTED)}) opens the same way in "
                      f"every play and each seat repeats one opening: at those tables seat effects are extreme (at "
                      f"{r['setup_label']} seat 0 wins a share of {ci(r, 'win_share')} against a fair "
                      f"{pct(r['fair_share'])}) and say little about human play; no verdict rests on them. Random "
                      "players, or layout = shuffled, vary the openings.")


def points(page: Page) -> None:
    table, drawn, labels = _setups(page, "mart_mauerspechte_points_by_source")
    if labels:
        drawn = drawn.with_columns(name=pl.col.source.replace(SOURCES).str.replace("_", " "), bar=pl.concat_str(
            "label", "side", separator=": "))
        bars = drawn.pivot(on="name", index=["players", "bar"], values="mean_points").sort("players", "bar")
        fig, ax = plt.subplots(figsize=(8.8, 1.2 + 0.3 * bars.height))
        bars.drop("players").to_pandas().set_index("bar").loc[::-1, lambda f: f.sum() > 0].plot.barh(
            stacked=True, ax=ax, color=plt.cm.Set3.colors, edgecolor="white", width=0.8,  # no policy's colours
            xlabel="mean points a seat-play", ylabel="", title="Die Mauerspechte: points by source").legend()
        win, other = ({r["source"]: r for r in quoted(drawn) if r["side"] == side} for side in ("winners", "others"))
        gaps = sorted(((win[s]["mean_points"] - other[s]["mean_points"], s) for s in win if s in other), reverse=True)
        page.figure("points_by_source", fig, "Where the winners' points come from", sentence(
            gaps and f"at {win['wall']['label']} the winners end with {number(win['wall']['mean_total_points'])} "
            f"points, the others {number(other['wall']['mean_total_points'])}; the gap comes most from " + ", ".join(
                f"{win[s]['name']} ({g:+.2f}: {ci(win[s], 'mean_points', False)} a winner)" for g, s in gaps[:3])))
        _tables(page, "Points by source", table, "side source seat_plays mean_points± points_share mean_total_points",
                "mart_mauerspechte_points_by_source")
    table, drawn, labels = _setups(page, "mart_mauerspechte_love_parades", pl.col.n_parades > 0)
    if labels:  # the victory-point chips of Love Parades, and their price
        fig = _points(drawn, "players", {"parades_per_play": "Love Parades a play", "mean_price": "cards paid for a "
                      "chip"}, "Love Parades and the price of a victory-point chip", sharey=False)
        r = quoted(drawn)[0]
        page.figure("love_parades", fig, "Love Parades and the price of a chip", sentence(
            f"at {r['label']} a play holds {ci(r, 'parades_per_play', False)} Love Parades and a chip costs "
            f"{ci(r, 'mean_price', False)} cards ({pct(r['free_share'])} free); {ci(r, 'missing_number_share')} of "
            f"the parades come from a missing 2 or 12; the player on turn wins {ci(r, 'opener_win_share')} of them"))
        _tables(page, "Love Parades", table, "n_plays parades_per_play± mean_price± median_price max_price free_share "
                "missing_number_share opener_win_share± mean_tiergarten_left", "mart_mauerspechte_love_parades")


def wall(page: Page) -> None:
    table, drawn, labels = _setups(page, "mart_mauerspechte_wall")
    _, hist, _ = _setups(page, "mart_mauerspechte_wall_open_hist")
    _, seats, _ = _setups(page, "mart_mauerspechte_buyers", pl.col.item == "wall_piece", pl.col.seat >= 0)
    if not labels:
        return
    fig, axes = page.subplots(2, width=6.1, height=3.8)  # a curve beside points by seat: the game's own figure
    page.steps(axes[0], hist, labels, "opened_turn", "opened_share", 100, markevery=0.2, markersize=4)
    page.error_bars(axes[1], seats, "seat", "mean_owned", "label", spread=0.7 / len(labels), markersize=4,
                    series_style=page.style(labels))
    axes[0].set(title="plays whose wall has opened (%), by turn", xlabel="turn")
    axes[1].set(title="wall pieces a play, by seat", xlabel=XLABELS["seat"], xticks=sorted(set(seats["seat"])))
    axes[1].legend()
    fig.suptitle("Die Mauerspechte: the wall, opened by its first lower piece (tables of one policy, published rules, "
                 "95% intervals)")
    r = quoted(drawn)[0]
    page.figure("wall", fig, "When the wall opens, and who buys it", sentence(
        f"at {r['label']} the wall opened in {ci(r, 'opened_share')} of the plays, on average at turn "
        f"{number(r['mean_opened_turn'], 0)}, {pct(r['mean_opened_fraction'])} into the play; "
        f"{number(r['mean_pieces'], 1)} of its 12 pieces are bought",
        _fixed_map(page, seats, "mean_owned", "wall pieces a play")))
    _tables(page, "The wall", table, "n_plays opened_share± mean_opened_turn± median_opened_turn mean_opened_fraction "
            "mean_pieces holder_share holder_win_share± without_win_share±", "mart_mauerspechte_wall",
            note="Win shares of the Bester Mauerspecht holder and of the seats without it (observational).")


def _catan_words(tested: pl.DataFrame) -> list[str]:
    """The set-ups' differences from Catan in words: significant ones (Holm over the figure's set-ups) with the
    largest, those within 1% of Catan's mean (TOST), and those the plays cannot tell."""
    apart = tested.filter(pl.col.p_holm < 0.05)
    r = apart.sort(pl.col.difference.abs(), descending=True).row(0, named=True) if apart.height else None
    small = tested.filter(pl.col.p_holm >= 0.05, pl.col.equivalent)
    unclear = tested.filter(pl.col.p_holm >= 0.05, ~pl.col.equivalent)
    return [
        r and f"Die Mauerspechte's length differs from Catan's at {apart.height} of {tested.height} set-ups (Holm "
        f"over them), most at {r['setup_label']}: {ci(r, 'mean_turns', False)} turns against "
        f"{ci(r, 'catan_mean_turns', False)}, {pct(abs(r['ratio'] - 1))} {'shorter' if r['ratio'] < 1 else 'longer'}",
        small.height and "no difference larger than 1% of Catan's length at " + ", ".join(small["setup_label"]),
        unclear.height and "too few plays to tell at " + ", ".join(
            f"{u['setup_label']} ({interval(u['difference_lo'], u['difference_hi'], False)} turns)"
            for u in unclear.iter_rows(named=True))]


def length_vs_catan(page: Page) -> None:
    length = page.mart("mart_mauerspechte_length_vs_catan")
    if (matched := sections.published_rules(page, length.filter(pl.col.catan_n_plays > 0)) if length.height
            else length).is_empty():  # set-ups at the published rules that Catan also played
        return
    drawn = page.with_setups(matched, "label")
    fig = _points(drawn, "players", {"difference": "turns Die Mauerspechte adds to Catan's mean (95% interval)"},
                  "game length against Catan's default")
    tested = matched.with_columns(p_holm=pl.Series(holm(matched["p_value"].to_numpy()), dtype=pl.Float64))
    page.figure("length_vs_catan", fig, "Game length against the base game", sentence(
        *_catan_words(tested), "played to 15 points at 4 players, 17 at 3; Catan to 10"))
    _tables(page, "Game length against Catan", length, "n_plays mean_turns± median_turns catan_setup_label "
            "catan_n_plays catan_mean_turns± difference± p_value equivalent ratio", "mart_mauerspechte_length_vs_catan")


REPORT = GameReport(
    sections=(hotel_payback, hotel_payback_curve, hotel_field, hotel_wins,
              seat_advantage, points, wall, length_vs_catan),
    order=40,
)
