"""Die Mauerspechte's own report sections. The page leads with the hotels (do they pay for themselves, how
fast, what their chip does for the field, do their buyers win), then the generic sections (seat advantage,
game length, policy strength), then where the points come from, the Love Parades, the wall, and the game's
length against the base game. Figures draw the one-policy tables (the largest run of each); the sentences
quote the reference table (four random players) and the spread over the others."""

from __future__ import annotations

import math

import matplotlib.pyplot as plt
import numpy as np
import polars as pl
from scipy import stats

from ...analysis.page import Page, error_bars, interval, lead, pct

CHIPS = (4, 5, 6, 8, 9, 10)
PRICES = {3: (4, 10), 4: (5, 9), 5: (6, 8)}  # a hotel's price in cards by its chip
DESIGN_ROLLS = 18  # cost / (2 x pips/36) for every chip: the price's design
REFERENCE = "4p random"
SOURCES = {"settlements": "settlements", "cities": "cities", "longest_route": "longest route", "army": "police",
           "dev_cards": "VP cards", "wall": "wall pieces", "chips": "parade chips", "mauerspecht": "Mauerspecht",
           "raver": "Raver", "hotels": "hotels"}


def _pips(chip: int) -> int:
    return 6 - abs(7 - chip)


def _sentence(parts: list[str]) -> str:
    text = "; ".join(p for p in parts if p)
    return text[0].upper() + text[1:] + "."


def _drawn(frame: pl.DataFrame) -> tuple[pl.DataFrame, list[str]]:
    """The rows of the runs figures draw (the largest run of each one-policy table) and their labels in order."""
    if frame.is_empty():
        return frame, []
    drawn = frame.filter(pl.col("primary"))
    labels = drawn.sort("players", "label")["label"].unique(maintain_order=True).to_list()
    return drawn, labels


def _reference(labels: list[str]) -> str:
    """The table the sentences quote: four random players if drawn, else the first table drawn."""
    return REFERENCE if REFERENCE in labels else labels[0]


def _colours(labels: list[str]) -> dict[str, str]:
    return {label: f"C{i % 10}" for i, label in enumerate(labels)}


def _offsets(n: int, span: float = 0.7) -> np.ndarray:
    return (np.arange(n) - (n - 1) / 2) * (span / max(n, 1))


def _ci(lo, hi, digits: int = 2) -> str:
    if lo is None or hi is None or (isinstance(lo, float) and math.isnan(lo)) or (
            isinstance(hi, float) and math.isnan(hi)):
        return "–"
    return f"{lo:.{digits}f}–{hi:.{digits}f}"


def _p(r: dict, column: str, note: str = "") -> str:
    """A share with its 95% interval (and a note): "12.3% (11.0%–13.6%, chip 4)"."""
    return f"{pct(r[column])} ({interval(r[f'{column}_lo'], r[f'{column}_hi'])}{note and ', ' + note})"


def _n(r: dict, column: str, digits: int = 2, note: str = "") -> str:
    """A number with its 95% interval (and a note): "18.6 (18.3–18.9, chip 4)"."""
    return f"{r[column]:.{digits}f} ({_ci(r[f'{column}_lo'], r[f'{column}_hi'], digits)}{note and ', ' + note})"


def _where(frame: pl.DataFrame, column: str, index: int) -> str:
    """The smallest (index 0) or largest (-1) share of a column, with its table and chip."""
    r = frame.sort(column).row(index, named=True)
    return f"{pct(r[column])} ({r['label']}, chip {r['chip']})"


def _chip(r: dict) -> str:
    return f"chip {r['chip']}"


def _chip_axis(ax) -> None:
    ax.set_xticks(range(len(CHIPS)), [f"{c}\n(price {_price(c)})" for c in CHIPS], fontsize=8)
    ax.set_xlabel("hotel chip")


def _price(chip: int) -> int:
    return next(cost for cost, chips in PRICES.items() if chip in chips)


def _by_chip(ax, drawn: pl.DataFrame, labels: list[str], column: str, scale: float = 1.0, legend: bool = False,
             n_column: str = "n_hotels") -> None:
    """One series per table drawn: the column by chip with its 95% interval (column_lo, column_hi)."""
    colours = _colours(labels)
    for offset, label in zip(_offsets(len(labels)), labels):
        run = drawn.filter(pl.col("label") == label).sort("chip")
        x = np.array([CHIPS.index(c) for c in run["chip"]]) + offset
        y = run[column].to_numpy().astype(float)
        err = error_bars(y, run[f"{column}_lo"].to_numpy().astype(float), run[f"{column}_hi"].to_numpy().astype(float))
        ax.errorbar(x, scale * y, yerr=scale * np.nan_to_num(err), fmt="o", markersize=4, capsize=2,
                    color=colours[label], label=f"{label} (n={int(run[n_column].sum()):,} hotels)" if legend else None)


# --- hotels ----------------------------------------------------------------------------------------------

@lead
def hotel_payback(page: Page) -> None:
    payback = page.with_labels(page.mart("mart_mauerspechte_hotel_payback"))
    drawn, labels = _drawn(payback)
    if not labels:
        return
    fig, axes = plt.subplots(1, 3, figsize=(16, 4.6))
    _by_chip(axes[0], drawn, labels, "yield_per_roll", legend=True)
    x = np.arange(len(CHIPS))
    axes[0].hlines([2 * _pips(c) / 36 for c in CHIPS], x - 0.42, x + 0.42, colors="black", linestyles="--",
                   linewidth=1.2, label="the dice: 2 × pips/36 a roll")
    axes[0].set_ylabel("cards to the owner per roll (95% interval)")
    axes[0].set_title("yield per roll after the purchase", fontsize=10)
    _by_chip(axes[1], drawn, labels, "break_even_rolls")
    axes[1].axhline(DESIGN_ROLLS, color="black", linestyle="--", linewidth=1.2,
                    label=f"the design: price / (2 × pips/36) = {DESIGN_ROLLS} rolls")
    axes[1].set_ylabel("rolls to earn the price back at that rate")
    axes[1].set_title("price / yield per roll", fontsize=10)
    _by_chip(axes[2], drawn, labels, "paid_back_share", scale=100)
    axes[2].set_ylabel("hotels paid back by the game's end (%, Wilson)")
    axes[2].set_title("share paid back before the game ended", fontsize=10)
    for ax in axes:
        _chip_axis(ax)
    handles = [h for ax in axes[:2] for h in ax.get_legend_handles_labels()[0]]
    fig.legend(handles=handles, fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.03), ncol=4)
    fig.suptitle("Die Mauerspechte: does a hotel pay for itself? Its owner's cards per roll against the dice, "
                 "one-policy tables", y=1.02)

    ref = _reference(labels)
    rows = {r["chip"]: r for r in drawn.filter(pl.col("label") == ref).iter_rows(named=True)}
    ratios = sorted(rows.values(), key=lambda r: r["yield_ratio"])
    low, high = ratios[0], ratios[-1]
    below = [r for r in rows.values() if r["yield_ratio_hi"] is not None and r["yield_ratio_hi"] < 1]
    even = sorted(rows.values(), key=lambda r: r["break_even_rolls"])
    paid = sorted(rows.values(), key=lambda r: r["paid_back_share"])
    least, most = paid[0], paid[-1]
    n_hotels = sum(r["n_hotels"] for r in rows.values())
    robber = [r["robber_toll_share"] for r in rows.values()]
    bank = [r["bank_toll_share"] for r in rows.values()]
    parts = [
        f"at {ref} ({n_hotels:,} hotels) the owner got between {_p(low, 'yield_ratio', _chip(low))} and "
        f"{_p(high, 'yield_ratio', _chip(high))} of the dice's 2 × pips/36 cards per roll, significantly "
        f"less for {len(below)} of {len(rows)} chips (the robber took {pct(min(robber))}–{pct(max(robber))} of the "
        f"promise, the bank's shortage {pct(min(bank), 2)}–{pct(max(bank), 2)}), so at the rate observed the price "
        f"comes back in {_n(even[0], 'break_even_rolls', 1, _chip(even[0]))} to "
        f"{_n(even[-1], 'break_even_rolls', 1, _chip(even[-1]))} rolls against the design's {DESIGN_ROLLS} "
        "for every chip",
        f"yet only {_p(least, 'paid_back_share')} of the {least['chip']} hotels paid back by the game's end against "
        f"{_p(most, 'paid_back_share')} of the {most['chip']}s: the {least['chip']}s were bought later (turn "
        f"{least['mean_buy_turn']:.0f} on average, {least['mean_rolls']:.0f} rolls left, against turn "
        f"{most['mean_buy_turn']:.0f} and {most['mean_rolls']:.0f} rolls), and {_p(least, 'late_share')} of them had "
        f"fewer rolls left than the dice need to pay the price",
    ]
    everywhere = drawn.filter(pl.col("yield_ratio_hi") < 1).height
    above = drawn.filter(pl.col("yield_ratio_lo") > 1).height
    parts.append(f"over the {len(labels)} tables drawn the yield per roll is significantly below the dice's promise "
                 f"for {everywhere} of {drawn.height} chip-table pairs and above it for {above}; the share paid back "
                 f"ranges from {_where(drawn, 'paid_back_share', 0)} to {_where(drawn, 'paid_back_share', -1)}")
    page.figure("hotel_payback", fig, "Hotel payback: the owner's yield per roll against the dice", _sentence(parts))
    page.split_table("Hotel payback by chip", payback.sort("players", "label", "chip").select(
        "label", "chip", "cost", "n_hotels", "yield_per_roll", "yield_per_roll_lo", "yield_per_roll_hi",
        "analytic_per_roll", "yield_ratio", "yield_ratio_lo", "yield_ratio_hi", "break_even_rolls",
        "break_even_rolls_lo", "break_even_rolls_hi", "paid_back_share", "paid_back_share_lo", "paid_back_share_hi",
        "km_median_payback_rolls", "analytic_median_payback_rolls", "median_payback_rolls", "mean_payback_rolls",
        "mean_payback_rolls_lo", "mean_payback_rolls_hi", "analytic_mean_payback_rolls", "late_share",
        "late_share_lo", "late_share_hi", "unpaid_late_share", "mean_net", "mean_net_lo", "mean_net_hi",
        "mean_yield", "mean_yield_lo", "mean_yield_hi", "mean_expected_yield", "mean_robbed_cards",
        "mean_short_cards", "dice_ratio", "robber_toll_share", "bank_toll_share", "buyer_win_rate",
        "buyer_win_rate_lo", "buyer_win_rate_hi", "n_plays", "bought_share", "mean_buy_turn", "mean_rolls",
        "homogeneous"),
        note="Yield per roll: all hotels' cards over all their rolls (95% delta-method interval); the dice promise "
             "2 × pips/36. break_even_rolls = price / yield per roll (the design: 18 for every chip). Delays in rolls "
             "after the purchase (= turns); km_ = Kaplan-Meier (games that end first cut hotels off); analytic_ = "
             "the dice alone, ceil(price / 2) rolls of the chip. late = fewer rolls left than price / (2 × pips/36).")


def _km_at(rows: pl.DataFrame, rolls: int) -> tuple[float, float, float]:
    """The Kaplan-Meier share paid back within `rolls` rolls (the step at or before it) with its interval."""
    before = rows.filter(pl.col("rolls") <= rolls).sort("rolls")
    if before.is_empty():
        return 0.0, 0.0, 0.0
    last = before.row(-1, named=True)
    return last["paid_share"], last["paid_share_lo"], last["paid_share_hi"]


def _dice_curve(chip: int, rolls: np.ndarray) -> np.ndarray:
    """The chance that ceil(price / 2) rolls of the chip (2 cards each) come within `rolls` rolls."""
    return stats.binom.sf(math.ceil(_price(chip) / 2) - 1, rolls, _pips(chip) / 36)


@lead
def hotel_payback_curve(page: Page) -> None:
    curve = page.with_labels(page.mart("mart_mauerspechte_payback_curve"))
    payback = page.with_labels(page.mart("mart_mauerspechte_hotel_payback"))
    drawn, labels = _drawn(curve)
    if not labels:
        return
    ref = _reference(labels)
    run = drawn.filter(pl.col("label") == ref)
    medians = {r["chip"]: r for r in payback.filter(pl.col("label") == ref).iter_rows(named=True)}
    fig, axes = plt.subplots(1, len(PRICES), figsize=(15, 4.2), sharey=True)
    horizon = 80
    r = np.arange(0, horizon + 1)
    parts = []
    for ax, (price, chips) in zip(axes, PRICES.items()):
        for chip, colour in zip(chips, ("tab:blue", "tab:orange")):
            rows = run.filter(pl.col("chip") == chip).sort("rolls")
            if rows.is_empty():
                continue
            x = np.concatenate([[0], rows["rolls"].to_numpy()])
            ax.step(x, 100 * np.concatenate([[0], rows["paid_share"].to_numpy()]), where="post", color=colour,
                    label=f"chip {chip} (n={rows['n_hotels'][0]:,} hotels)")
            ax.fill_between(x, 100 * np.concatenate([[0], rows["paid_share_lo"].to_numpy()]),
                            100 * np.concatenate([[0], rows["paid_share_hi"].to_numpy()]), step="post", alpha=0.2,
                            color=colour)
        shares = [(chip, _km_at(run.filter(pl.col("chip") == chip), DESIGN_ROLLS)) for chip in chips
                  if chip in medians]
        if shares:
            parts.append(
                f"price {price} (chips {' and '.join(str(c) for c, _ in shares)}): "
                + " and ".join(f"{pct(s)} ({interval(lo, hi)})" for _, (s, lo, hi) in shares)
                + f" paid back within {DESIGN_ROLLS} rolls against the dice's "
                f"{pct(float(_dice_curve(chips[0], np.array([DESIGN_ROLLS]))[0]))}, half of them after "
                + " and ".join(str(medians[c]['km_median_payback_rolls']) for c, _ in shares)
                + f" rolls (the dice: {medians[shares[0][0]]['analytic_median_payback_rolls']})")
        hits = math.ceil(price / 2)
        ax.plot(r, 100 * _dice_curve(chips[0], r), color="black", linestyle="--", linewidth=1.2,
                label=f"the dice: {hits} rolls of a {_pips(chips[0])}-pip chip ({2 * hits} cards)")
        ax.axvline(DESIGN_ROLLS, color="grey", linestyle=":", linewidth=1, label=f"{DESIGN_ROLLS} rolls (the design)")
        ax.set_xlim(0, horizon)
        ax.set_title(f"price {price} cards: chips {chips[0]} and {chips[1]}", fontsize=10)
        ax.set_xlabel("rolls after the purchase")
        ax.legend(fontsize=7, loc="lower right")
    axes[0].set_ylabel("hotels paid back (%, Kaplan-Meier, 95% band)")
    fig.suptitle(f"Die Mauerspechte: how fast hotels pay back at {ref}, against the dice (robber and bank ignored)",
                 y=1.02)
    sentence = _sentence([
        f"at {ref}, counting the hotels whose game ended first as cut off (Kaplan-Meier): " + "; ".join(parts),
        "the yield comes in pairs, so a 4/10 hotel needs two rolls of its chip for its 3 cards and a 6/8 hotel "
        "three for its 5; only the 5/9 hotel's price of 4 is met exactly, and it pays back soonest"])
    page.figure("hotel_payback_curve", fig, "Hotel payback over time", sentence)
    rows = []
    for label in curve.sort("players", "label")["label"].unique(maintain_order=True):
        for chip in CHIPS:
            chip_rows = curve.filter((pl.col("label") == label) & (pl.col("chip") == chip))
            if chip_rows.is_empty():
                continue
            first = chip_rows.row(0, named=True)
            share, lo, hi = _km_at(chip_rows, DESIGN_ROLLS)
            rows.append({"label": label, "chip": chip, "n_plays": first["n_plays"], "n_hotels": first["n_hotels"],
                         "paid_share_18_rolls": share, "paid_share_18_rolls_lo": lo, "paid_share_18_rolls_hi": hi,
                         "dice_share_18_rolls": float(_dice_curve(chip, np.array([DESIGN_ROLLS]))[0]),
                         "homogeneous": first["homogeneous"]})
    if rows:
        page.split_table("Hotels paid back within 18 rolls", pl.DataFrame(rows),
                         note="Kaplan-Meier share of hotels paid back within 18 rolls of the purchase (95% interval), "
                              "against the dice's chance of ceil(price / 2) rolls of the chip in 18 rolls.")


@lead
def hotel_field(page: Page) -> None:
    field = page.with_labels(page.mart("mart_mauerspechte_hotel_field"))
    drawn, labels = _drawn(field)
    if not labels:
        return
    fig, axes = plt.subplots(1, 3, figsize=(16, 4.2))
    axes[2].sharey(axes[1])
    _by_chip(axes[0], drawn, labels, "owner_gain", legend=True)
    axes[0].set_title("to the owner: the hotel's yield + his buildings' uplift", fontsize=10)
    _by_chip(axes[1], drawn, labels, "owner_uplift")
    axes[1].set_title("to the owner's settlements and cities on the field", fontsize=10)
    _by_chip(axes[2], drawn, labels, "others_uplift")
    axes[2].set_title("to the opponents' settlements and cities on the field", fontsize=10)
    for ax in axes:
        _chip_axis(ax)
        ax.axhline(0, color="grey", linewidth=0.8)
    axes[0].set_ylabel("cards per hotel over its life (95% interval)")
    axes[1].set_ylabel("cards beyond the old 2/3/11/12 on the same rolls")
    axes[0].legend(fontsize=7, loc="upper right")
    fig.suptitle("Die Mauerspechte: what a hotel's chip gives the field's buildings, against the old token on the "
                 "same rolls, one-policy tables", y=1.02)
    ref = _reference(labels)
    rows = sorted(drawn.filter(pl.col("label") == ref).iter_rows(named=True), key=lambda r: r["chip"])
    most_others = max(rows, key=lambda r: r["others_uplift"])
    shares = [r["others_share"] for r in rows if r["others_share"] is not None]
    sentence = _sentence([
        f"at {ref}, besides its own yield ({min(r['mean_yield'] for r in rows):.1f}–"
        f"{max(r['mean_yield'] for r in rows):.1f} cards a hotel by chip) the new chip gave the owner's buildings on "
        f"the field {min(r['owner_uplift'] for r in rows):.2f}–{max(r['owner_uplift'] for r in rows):.2f} cards more "
        f"than the old token would have, and the opponents' {min(r['others_uplift'] for r in rows):.2f}–"
        f"{max(r['others_uplift'] for r in rows):.2f} (most on the {most_others['chip']}: "
        f"{most_others['others_uplift']:.2f}, {_ci(most_others['others_uplift_lo'], most_others['others_uplift_hi'])})",
        f"so {pct(min(shares))}–{pct(max(shares))} of the extra cards a hotel brings go to opponents"
        if shares else ""])
    page.figure("hotel_field", fig, "Hotel chips and the field's other buildings", sentence)
    page.split_table("Hotel chips and the field's buildings", field.sort("players", "label", "chip").select(
        "label", "chip", "n_plays", "n_hotels", "mean_yield", "mean_field_owner", "mean_old_owner", "owner_uplift",
        "owner_uplift_lo", "owner_uplift_hi", "mean_field_others", "mean_old_others", "others_uplift",
        "others_uplift_lo", "others_uplift_hi", "owner_gain", "owner_gain_lo", "owner_gain_hi", "others_share",
        "homogeneous"),
        note="Cards per hotel over its life; old_ = what the same buildings would have got on the same rolls under "
             "the old 2, 3, 11 or 12 (robber counted, bank not).")


def _win_by_owned(ax, drawn: pl.DataFrame, labels: list[str], item: str, least: int = 30) -> None:
    colours = _colours(labels)
    for offset, label in zip(_offsets(len(labels), 0.5), labels):
        run = drawn.filter((pl.col("label") == label) & (pl.col("item") == item)
                           & (pl.col("seat_plays") >= least)).sort("owned")
        if run.is_empty():
            continue
        y = run["win_rate"].to_numpy()
        err = error_bars(y, run["win_rate_lo"], run["win_rate_hi"])
        ax.errorbar(run["owned"].to_numpy() + offset, 100 * y, yerr=100 * err, fmt="o-", markersize=4, capsize=2,
                    linewidth=1, color=colours[label], label=f"{label} (n={int(run['seat_plays'].sum()):,} seat-plays)")
    for players in sorted(drawn["players"].unique().to_list()):
        ax.axhline(100 / players, color="grey", linestyle="--", linewidth=1)
        ax.text(ax.get_xlim()[1], 100 / players, f" fair {players}p", fontsize=7, va="center", color="grey")


def _buyers_text(buyers: pl.DataFrame, labels: list[str], ref: str, what: str) -> list[str]:
    """The buyers' against the non-buyers' win rate at the reference table and how many tables differ."""
    rows = {r["label"]: r for r in buyers.iter_rows(named=True)}
    if ref not in rows:
        return []
    r = rows[ref]
    def apart(lo, hi) -> bool:
        return lo is not None and hi is not None and lo > hi

    ahead = [lb for lb, b in rows.items() if apart(b["buyer_win_rate_lo"], b["non_buyer_win_rate_hi"])]
    behind = [lb for lb, b in rows.items() if apart(b["non_buyer_win_rate_lo"], b["buyer_win_rate_hi"])]
    text = (f"the {pct(r['buyer_share'])} of seats that {what} win {pct(r['buyer_win_rate'])} "
            f"({interval(r['buyer_win_rate_lo'], r['buyer_win_rate_hi'])}) against {pct(r['non_buyer_win_rate'])} "
            f"({interval(r['non_buyer_win_rate_lo'], r['non_buyer_win_rate_hi'])}) for the others; buyers win "
            f"significantly more often at {len(ahead)} of {len(rows)} tables drawn")
    if behind:
        text += f" and significantly less at {', '.join(behind)}"
    return [text]


@lead
def hotel_wins(page: Page) -> None:
    holdings = page.with_labels(page.mart("mart_mauerspechte_win_by_holdings"))
    buyers = page.with_labels(page.mart("mart_mauerspechte_buyers"))
    drawn, labels = _drawn(holdings.filter(pl.col("item") == "hotels") if not holdings.is_empty() else holdings)
    if not labels:
        return
    fig, ax = plt.subplots(figsize=(9, 4.4))
    _win_by_owned(ax, drawn, labels, "hotels")
    ax.set_xlabel("hotels the seat owned at the end")
    ax.set_ylabel("win rate (%, 95% Wilson interval)")
    ax.set_title("Die Mauerspechte: win rate by hotels owned, one-policy tables\n"
                 "(counts held by at least 30 seat-plays; dashed: the fair share)", fontsize=10)
    ax.legend(fontsize=7, loc="upper left")
    ref = _reference(labels)
    hotel_buyers = buyers.filter((pl.col("item") == "hotel") & pl.col("seat").is_null() & pl.col("primary"))
    parts = [f"at {ref} " + t for t in _buyers_text(hotel_buyers, labels, ref, "owned a hotel")]
    best = drawn.filter((pl.col("label") == ref) & (pl.col("seat_plays") >= 30)).sort("win_rate", descending=True)
    if not best.is_empty():
        b = best.row(0, named=True)
        parts.append(f"there the win rate peaks at {b['owned']} hotels: {pct(b['win_rate'])} "
                     f"({interval(b['win_rate_lo'], b['win_rate_hi'])}, {b['seat_plays']:,} seat-plays)")
    parts.append("an association, not a cause: a seat that is doing well can afford hotels")
    page.figure("hotel_wins", fig, "Hotels and winning", _sentence(parts))
    page.split_table("Hotel buyers against the other seats", buyers.filter(
        (pl.col("item") == "hotel") & pl.col("seat").is_null()).sort("players", "label", "policy").select(
        "label", "policy", "n_plays", "seat_plays", "buyers", "buyer_share", "mean_owned", "mean_owned_lo",
        "mean_owned_hi", "item_share", "buyer_win_rate", "buyer_win_rate_lo", "buyer_win_rate_hi", "non_buyer_win_rate",
        "non_buyer_win_rate_lo", "non_buyer_win_rate_hi", "fair_share", "homogeneous"),
        note="Per policy, every seat together; buyers = seat-plays that owned at least one hotel at the end; "
             "item_share = the policy's share of the run's hotels.")
    page.split_table("Hotel owners: win rate by hotels owned", holdings.filter(pl.col("item") == "hotels").sort(
        "players", "label", "policy", "owned").select(
        "label", "policy", "owned", "n_plays", "seat_plays", "seat_play_share", "wins", "win_rate", "win_rate_lo",
        "win_rate_hi", "fair_share", "mean_points", "mean_points_lo", "mean_points_hi", "homogeneous"))


# --- points, Love Parades, the wall, length --------------------------------------------------------------

def points_by_source(page: Page) -> None:
    points = page.with_labels(page.mart("mart_mauerspechte_points_by_source"))
    drawn, labels = _drawn(points)
    if not labels:
        return
    shown = [s for s in SOURCES if drawn.filter((pl.col("source") == s) & (pl.col("mean_points") > 0)).height]
    fig, ax = plt.subplots(figsize=(max(8.0, 1.5 * len(labels) + 3), 4.6))
    bars = [(label, side) for label in labels for side in ("winners", "others")]
    x = np.arange(len(bars)) + np.repeat(np.arange(len(labels)) * 0.6, 2)
    bottom = np.zeros(len(bars))
    for i, source in enumerate(shown):
        values = np.array([drawn.filter((pl.col("label") == lb) & (pl.col("side") == side)
                                        & (pl.col("source") == source))["mean_points"].sum() for lb, side in bars])
        ax.bar(x, values, 0.9, bottom=bottom, color=plt.cm.tab20(i), label=SOURCES[source])
        bottom += values
    ax.set_xticks(x, [side for _, side in bars], fontsize=7)
    for i, label in enumerate(labels):
        ax.annotate(label, ((x[2 * i] + x[2 * i + 1]) / 2, 0), xycoords=("data", "axes fraction"), xytext=(0, -22),
                    textcoords="offset points", ha="center", va="top", fontsize=8)
    ax.set_ylabel("mean points per seat-play")
    ax.legend(fontsize=7, ncol=2, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    ax.set_title("Die Mauerspechte: where the points come from, winners against the other seats, one-policy tables",
                 fontsize=10)
    ref = _reference(labels)
    run = drawn.filter(pl.col("label") == ref)
    win = {r["source"]: r for r in run.filter(pl.col("side") == "winners").iter_rows(named=True)}
    other = {r["source"]: r for r in run.filter(pl.col("side") == "others").iter_rows(named=True)}
    gaps = sorted(((win[s]["mean_points"] - other[s]["mean_points"], s) for s in win if s in other), reverse=True)
    total_gap = next(iter(win.values()))["mean_total_points"] - next(iter(other.values()))["mean_total_points"]
    wall = drawn.filter((pl.col("side") == "winners") & (pl.col("source") == "wall"))
    parts = [
        f"at {ref} the winners end with {next(iter(win.values()))['mean_total_points']:.1f} points against "
        f"{next(iter(other.values()))['mean_total_points']:.1f} for the other seats; the gap of {total_gap:.1f} comes "
        "most from " + ", ".join(
            f"{SOURCES[s]} (+{g:.2f}: {_n(win[s], 'mean_points')} against {_n(other[s], 'mean_points')})"
            for g, s in gaps[:3]),
        f"wall pieces make {pct(wall['points_share'].min())}–{pct(wall['points_share'].max())} of the winners' points "
        f"at the tables drawn" if not wall.is_empty() else ""]
    page.figure("points_by_source", fig, "Where the winners' points come from", _sentence(parts))
    page.split_table("Points by source", points.sort("players", "label", "side", "source").select(
        "label", "side", "source", "n_plays", "seat_plays", "mean_points", "mean_points_lo", "mean_points_hi",
        "points_share", "mean_total_points", "homogeneous"))


def love_parades(page: Page) -> None:
    parades = page.with_labels(page.mart("mart_mauerspechte_love_parades"))
    prices = page.with_labels(page.mart("mart_mauerspechte_parade_prices"))
    drawn, labels = _drawn(parades.filter(pl.col("n_parades") > 0) if not parades.is_empty() else parades)
    if not labels:
        return
    colours = _colours(labels)
    fig, axes = plt.subplots(1, 2, figsize=(14, 4.2), gridspec_kw={"width_ratios": [2, 1]})
    for label in labels:
        run = prices.filter((pl.col("label") == label) & pl.col("primary")).sort("price")
        axes[0].plot(run["price"], 100 * run["share"], "o-", markersize=3, color=colours[label],
                     label=f"{label} (n={int(run['n_parades_at_price'].sum()):,} chips)")
    axes[0].set_xlabel("price paid for the chip (cards)")
    axes[0].set_ylabel("share of the chips sold (%)")
    axes[0].set_title("price distribution", fontsize=10)
    axes[0].legend(fontsize=7)
    y = np.arange(len(labels))
    rows = [drawn.filter(pl.col("label") == lb).row(0, named=True) for lb in labels]
    mean = np.array([r["mean_price"] for r in rows])
    err = error_bars(mean, [r["mean_price_lo"] for r in rows], [r["mean_price_hi"] for r in rows])
    axes[1].errorbar(mean, y, xerr=err, fmt="o", capsize=3, color="black")
    for yi, r in zip(y, rows):
        axes[1].annotate(f"{pct(r['missing_number_share'], 0)} on a missing 2/12", (r["mean_price"], yi),
                         textcoords="offset points", xytext=(6, 5), fontsize=7)
    axes[1].set_yticks(y, labels, fontsize=8)
    axes[1].invert_yaxis()
    axes[1].set_xlabel("mean price (cards, 95% interval)")
    axes[1].set_title("mean price", fontsize=10)
    fig.suptitle("Die Mauerspechte: Love Parades, what a victory-point chip costs, one-policy tables", y=1.02)
    ref = _reference(labels)
    r = drawn.filter(pl.col("label") == ref).row(0, named=True)
    cheap, dear = min(rows, key=lambda x: x["mean_price"]), max(rows, key=lambda x: x["mean_price"])
    sentence = _sentence([
        f"at {ref} a play holds {_n(r, 'parades_per_play')} Love Parades and a chip costs {_n(r, 'mean_price')} "
        f"cards on average (median {r['median_price']}, at most {r['max_price']}, free {pct(r['free_share'])}); "
        f"{_p(r, 'missing_number_share')} of the parades come from a missing 2 or 12, and the player on turn, who "
        f"opens the bidding, takes {_p(r, 'opener_win_share')} of the chips",
        f"the mean price runs from {cheap['mean_price']:.2f} ({cheap['label']}) to {dear['mean_price']:.2f} "
        f"({dear['label']}) over the tables drawn"])
    page.figure("love_parades", fig, "Love Parades: the price of a chip", sentence)
    page.split_table("Love Parades", parades.sort("players", "label").select(
        "label", "n_plays", "n_parades", "parades_per_play", "parades_per_play_lo", "parades_per_play_hi", "mean_price",
        "mean_price_lo", "mean_price_hi", "sd_price", "median_price", "max_price", "free_share", "missing_number_share",
        "missing_number_share_lo", "missing_number_share_hi", "mean_bidders", "opener_win_share", "opener_win_share_lo",
        "opener_win_share_hi", "mean_tiergarten_left", "homogeneous"))
    counts = prices.filter(pl.col("primary")).sort("players", "label", "price").select(
        "label", "price", "n_parades_at_price", "n_missing_number", "share")
    page.table("Love Parade prices (chips sold at each price, one-policy tables drawn)", counts, collapsed=True)


def wall_opening(page: Page) -> None:
    wall = page.with_labels(page.mart("mart_mauerspechte_wall"))
    hist = page.with_labels(page.mart("mart_mauerspechte_wall_open_hist"))
    drawn, labels = _drawn(wall)
    if not labels:
        return
    colours = _colours(labels)
    fig, ax = plt.subplots(figsize=(9, 4.2))
    for label in labels:
        run = hist.filter((pl.col("label") == label) & pl.col("primary")).sort("opened_turn")
        if run.is_empty():
            continue
        ax.step(np.concatenate([[0], run["opened_turn"].to_numpy()]),
                100 * np.concatenate([[0], run["opened_share"].to_numpy()]), where="post", color=colours[label],
                label=f"{label} (n={run['n_plays'][0]:,} plays)")
    ax.axhline(50, color="grey", linestyle=":", linewidth=1)
    shown = hist.filter(pl.col("primary") & (pl.col("opened_share") >= 0.99))
    if not shown.is_empty():
        ax.set_xlim(0, 1.05 * shown.group_by("run_id").agg(pl.col("opened_turn").min())["opened_turn"].max())
    ax.set_xlabel("turn (one player's roll and actions)")
    ax.set_ylabel("plays whose wall has opened (%)")
    ax.set_title("Die Mauerspechte: when the wall opens (the first lower piece bought), one-policy tables", fontsize=10)
    ax.legend(fontsize=7, loc="lower right")
    ref = _reference(labels)
    r = drawn.filter(pl.col("label") == ref).row(0, named=True)
    rows = [drawn.filter(pl.col("label") == lb).row(0, named=True) for lb in labels]
    early = min(rows, key=lambda x: x["median_opened_turn"] if x["median_opened_turn"] is not None else 1e9)
    late = max(rows, key=lambda x: x["median_opened_turn"] if x["median_opened_turn"] is not None else -1)
    sentence = _sentence([
        f"at {ref} the wall opened in {_p(r, 'opened_share')} of the plays, at turn {_n(r, 'mean_opened_turn', 1)} "
        f"on average (median {r['median_opened_turn']}, quartiles {r['p25_opened_turn']}–{r['p75_opened_turn']}), "
        f"{_p(r, 'mean_opened_fraction')} of "
        f"the way through the play; {r['mean_pieces']:.1f} of the 12 pieces are bought",
        f"it opens earliest at {early['label']} (median turn {early['median_opened_turn']}) and latest at "
        f"{late['label']} (median turn {late['median_opened_turn']})"])
    page.figure("wall_opening", fig, "When the wall opens", sentence)
    page.split_table("The wall", wall.sort("players", "label").select(
        "label", "n_plays", "opened_plays", "opened_share", "opened_share_lo", "opened_share_hi", "mean_opened_turn",
        "mean_opened_turn_lo", "mean_opened_turn_hi", "p25_opened_turn", "median_opened_turn", "p75_opened_turn",
        "mean_opened_fraction", "mean_opened_fraction_lo", "mean_opened_fraction_hi", "mean_pieces", "mean_pieces_lo",
        "mean_pieces_hi", "all_pieces_share", "holder_plays", "holder_share", "holder_win_rate", "holder_win_rate_lo",
        "holder_win_rate_hi", "without_win_rate", "without_win_rate_lo", "without_win_rate_hi", "homogeneous"),
        note="holder = the seat holding Bester Mauerspecht (most wall pieces, alone) at the end; without = the "
             "other seats.")


def wall_buyers(page: Page) -> None:
    buyers = page.with_labels(page.mart("mart_mauerspechte_buyers"))
    holdings = page.with_labels(page.mart("mart_mauerspechte_win_by_holdings"))
    wall = page.with_labels(page.mart("mart_mauerspechte_wall"))
    pieces = buyers.filter(pl.col("item") == "wall_piece") if not buyers.is_empty() else buyers
    drawn, labels = _drawn(pieces.filter(pl.col("seat").is_not_null()) if not pieces.is_empty() else pieces)
    if not labels:
        return
    colours = _colours(labels)
    fig, axes = plt.subplots(1, 2, figsize=(15, 4.4))
    for offset, label in zip(_offsets(len(labels), 0.6), labels):
        run = drawn.filter(pl.col("label") == label).sort("seat")
        y = run["mean_owned"].to_numpy()
        err = error_bars(y, run["mean_owned_lo"], run["mean_owned_hi"])
        axes[0].errorbar(run["seat"].to_numpy() + offset, y, yerr=err, fmt="o", markersize=4, capsize=2,
                         color=colours[label], label=f"{label} (n={run['seat_plays'][0]:,} plays)")
    axes[0].set_xticks(range(4))
    axes[0].set_xlabel("seat (0 = first player)")
    axes[0].set_ylabel("wall pieces bought per play (95% interval)")
    axes[0].set_title("who buys the wall pieces", fontsize=10)
    axes[0].legend(fontsize=7)
    held, _ = _drawn(holdings.filter(pl.col("item") == "wall_pieces") if not holdings.is_empty() else holdings)
    _win_by_owned(axes[1], held, labels, "wall_pieces")
    axes[1].set_xlabel("wall pieces the seat bought")
    axes[1].set_ylabel("win rate (%, 95% Wilson interval)")
    axes[1].set_title("win rate by wall pieces bought (counts of at least 30 seat-plays)", fontsize=10)
    fig.suptitle("Die Mauerspechte: wall pieces by seat, and whether buying them goes with winning, "
                 "one-policy tables", y=1.02)
    ref = _reference(labels)
    run = drawn.filter(pl.col("label") == ref).sort("mean_owned")
    least, most = run.row(0, named=True), run.row(-1, named=True)
    apart = least["mean_owned_hi"] is not None and most["mean_owned_lo"] is not None and (
        least["mean_owned_hi"] < most["mean_owned_lo"])
    parts = [f"at {ref} seat {most['seat']} buys most, {_n(most, 'mean_owned')} pieces a play, seat {least['seat']} "
             f"least, {_n(least, 'mean_owned')} ({'a significant' if apart else 'not a significant'} difference)"]
    parts += _buyers_text(pieces.filter(pl.col("seat").is_null() & pl.col("primary")), labels, ref,
                          "bought a wall piece")
    w = wall.filter(pl.col("label") == ref)
    if not w.is_empty() and w["holder_win_rate"][0] is not None:
        w = w.row(0, named=True)
        parts.append(f"the holder of Bester Mauerspecht at the end wins {pct(w['holder_win_rate'])} "
                     f"({interval(w['holder_win_rate_lo'], w['holder_win_rate_hi'])}) of the plays against "
                     f"{pct(w['without_win_rate'])} ({interval(w['without_win_rate_lo'], w['without_win_rate_hi'])}) "
                     f"for the seats without it")
    page.figure("wall_buyers", fig, "Wall pieces: who buys them, and winning", _sentence(parts))
    page.split_table("Wall-piece buyers by seat", pieces.filter(pl.col("seat").is_not_null()).sort(
        "players", "label", "seat").select(
        "label", "seat", "policy", "n_plays", "seat_plays", "buyers", "buyer_share", "mean_owned", "mean_owned_lo",
        "mean_owned_hi", "mean_lower", "item_share", "buyer_win_rate", "buyer_win_rate_lo", "buyer_win_rate_hi",
        "non_buyer_win_rate", "non_buyer_win_rate_lo", "non_buyer_win_rate_hi", "homogeneous"),
        note="item_share = the seat's share of the run's wall pieces; mean_lower = lower pieces (each opens a section, "
             "sends a chip to the Tiergarten and releases a hotel).")
    page.split_table("Wall-piece buyers by policy", pieces.filter(pl.col("seat").is_null()).sort(
        "players", "label", "policy").select(
        "label", "policy", "n_plays", "seat_plays", "buyers", "buyer_share", "mean_owned", "mean_owned_lo",
        "mean_owned_hi", "mean_lower", "item_share", "buyer_win_rate", "buyer_win_rate_lo", "buyer_win_rate_hi",
        "non_buyer_win_rate", "non_buyer_win_rate_lo", "non_buyer_win_rate_hi", "homogeneous"))
    page.split_table("Win rate by wall pieces bought", holdings.filter(pl.col("item") == "wall_pieces").sort(
        "players", "label", "policy", "owned").select(
        "label", "policy", "owned", "n_plays", "seat_plays", "seat_play_share", "wins", "win_rate", "win_rate_lo",
        "win_rate_hi", "fair_share", "mean_points", "mean_points_lo", "mean_points_hi", "homogeneous"))


def _table_label(players: int, policies: str) -> str:
    names = policies.split(",")
    return f"{players}p {names[0] if len(set(names)) == 1 else policies}"


def _how_long(r: dict) -> str:
    """The difference in words: "15.1% shorter (13.9%–16.2%)" or "1.20 times as long"."""
    if r["difference_hi"] is not None and r["difference_hi"] < 0:
        return (f"{pct(1 - r['ratio'])} shorter ({pct(-r['difference_hi'] / r['catan_mean_turns'])}–"
                f"{pct(-r['difference_lo'] / r['catan_mean_turns'])})")
    if r["difference_lo"] is not None and r["difference_lo"] > 0:
        return f"{r['ratio']:.2f} times as long"
    return f"{r['ratio']:.2f} times as long (not a significant difference)"


def length_vs_catan(page: Page) -> None:
    length = page.mart("mart_mauerspechte_length_vs_catan")
    if length.is_empty():
        return
    length = length.with_columns(pl.struct("players", "policies").map_elements(
        lambda r: _table_label(r["players"], r["policies"]), return_dtype=pl.String).alias("table")).sort(
        "players", "table")
    matched = length.filter(pl.col("catan_n_plays").is_not_null())
    shown = matched if not matched.is_empty() else length
    fig, ax = plt.subplots(figsize=(max(7.0, 1.3 * shown.height + 2), 4.2))
    x = np.arange(shown.height)
    for offset, (prefix, name, colour) in zip((-0.2, 0.2), (("", "Die Mauerspechte", "tab:red"),
                                                           ("catan_", "Catan (base game)", "tab:grey"))):
        y = shown[f"{prefix}mean_turns"].to_numpy().astype(float)
        if np.isnan(y).all():
            continue
        err = np.nan_to_num(error_bars(y, shown[f"{prefix}mean_turns_lo"].to_numpy().astype(float),
                                       shown[f"{prefix}mean_turns_hi"].to_numpy().astype(float)))
        ax.bar(x + offset, np.nan_to_num(y), 0.4, yerr=err, capsize=3, color=colour, label=name)
    ax.set_xticks(x, [f"{t}\n(n={n:,} / {c:,})" if c is not None else t for t, n, c in
                      zip(shown["table"], shown["n_plays"], shown["catan_n_plays"])], fontsize=8)
    ax.set_ylabel("mean turns per play (95% interval)")
    ax.set_title("Die Mauerspechte against Catan: game length at the same table\n"
                 "(turns: one player's roll and actions; n = plays of each game)", fontsize=10)
    ax.legend(fontsize=8)
    parts = [f"at {r['table']} Die Mauerspechte lasts {_n(r, 'mean_turns', 1)} turns against Catan's "
             f"{_n(r, 'catan_mean_turns', 1)}, " + _how_long(r) + f", median {r['median_turns']} against "
             f"{r['catan_median_turns']}" for r in matched.iter_rows(named=True)]
    if matched.is_empty():
        parts = ["no Catan run of the same table is in the lake: Die Mauerspechte's lengths alone"]
    shorter = matched.filter(pl.col("difference_hi") < 0).height
    parts.append(f"it is significantly shorter at {shorter} of {matched.height} tables, although it is played to 15 "
                 "points at four players and 17 at three, Catan to 10: the wall pieces and Love Parade chips are "
                 "points Catan does not have" if shorter else
                 "the scenario is played to 15 points at four players and 17 at three, Catan to 10")
    page.figure("length_vs_catan", fig, "Game length against the base game", _sentence(parts))
    page.table("Game length against Catan (runs of the same table pooled)", length.select(
        "table", "n_runs", "n_plays", "mean_turns", "mean_turns_lo", "mean_turns_hi", "median_turns", "catan_n_runs",
        "catan_n_plays", "catan_mean_turns", "catan_mean_turns_lo", "catan_mean_turns_hi", "catan_median_turns",
        "difference", "difference_lo", "difference_hi", "ratio"))


# The sections this game hands to the report, in page order (see simlib/analysis/page.py: lead, replaces).
SECTIONS = (hotel_payback, hotel_payback_curve, hotel_field, hotel_wins, points_by_source, love_parades,
            wall_opening, wall_buyers, length_vs_catan)
