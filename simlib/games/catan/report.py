"""Catan's own report sections: production against the dice (the page's lead: how much of the dice's promise
arrives), cards lost to the robber and to discards, and the win share of the longest-route and largest-army
card holders against a seat's fair share. Figures draw the tables of one policy, a colour per policy and a marker
per set-up of it. The play is the unit of every interval (its seats share its dice), and the tests of one figure
share one error rate (Holm; docs/statistics.md)."""

from __future__ import annotations

import polars as pl

from ...analysis.estimators import MARGIN_SHARE, Z90, holm, wilson
from ...analysis.page import (
    Forest,
    GameReport,
    Page,
    Points,
    ci,
    count,
    lead,
    pct,
    sentence,
    span,
    stack,
    with_n,
)
from ...analysis.sections import figure_rows
from .constants import RESOURCES

BUILDINGS = {"settlement": "settlements", "city": "cities"}
CARDS = {"longest_route": "longest-route card", "largest_army": "largest-army card"}


def _most_played(drawn: pl.DataFrame) -> str:
    """The set-up a sentence quotes: the most plays, then the most players."""
    sizes = drawn.group_by("label", "players").agg(pl.col("n_plays").max())
    return sizes.sort("n_plays", "players", "label", descending=[True, True, False])["label"][0]


@lead
def production_vs_dice(page: Page) -> None:
    production, drawn, labels = figure_rows(page, "mart_catan_production_vs_dice")
    if not labels:
        return
    order = [pl.col(c).replace_strict(list(v), range(len(v))) for c, v in (("building", BUILDINGS),
                                                                           ("resource", RESOURCES))]
    fig = Points(drawn.sort(order[0], "players", "label", order[1]).select(
        "n_plays", x="resource", series="label", panel=pl.format("cards received by {}", pl.col("building").replace(
            BUILDINGS)), reference=pl.lit(100.0), **{k: 100 * pl.col(f"ratio{e}") for k, e in (
                ("value", ""), ("lo", "_lo"), ("hi", "_hi"))}),
        "Catan: cards received from rolls against the dice's promise\n(tables of one policy, published rules, "
        "95% intervals)", "", "received, % of the dice's promise", "the dice's promise (pips/36 a roll)", 5.8)
    drawn = drawn.with_columns(p_holm=pl.Series(holm(drawn["ratio_p"].to_numpy()), dtype=pl.Float64))
    quoted = drawn.filter(pl.col("label") == _most_played(drawn)).sort("ratio")
    least, most = (ci(r, "ratio", where=f"{r['building']} {r['resource']}")
                   for r in (quoted.row(0, named=True), quoted.row(-1, named=True)))
    apart = pl.col("p_holm") < 0.05
    short, over = drawn.filter(apart & (pl.col("ratio") < 1)), drawn.filter(apart & (pl.col("ratio") > 1))
    level = drawn.filter(pl.col("p_holm") >= 0.05)
    near = level.filter((pl.col("ratio_lo90") > 0.99) & (pl.col("ratio_hi90") < 1.01)).height
    page.figure("production_vs_dice", fig, "Production against the dice", sentence(
        f"{short.height} of the {drawn.height} buildings and resources drawn get less than the dice promise "
        f"(Holm over {count(drawn.height, 'test')}): at {quoted['label'][0]} from {least} to {most} of it arrives",
        f"{over.height} get more" if over.height else None,
        f"{near} get within 1% of the promise (90% intervals)" if near else None,
        f"too few plays to tell at {level.height - near} of them" if level.height > near else None,
        "the robber and the bank's shortage take the rest"))
    fewer = quoted.filter((pl.col("p_holm") < 0.05) & (pl.col("ratio") < 1)).height  # at the set-up quoted
    said = ("no: every building and resource gets" if fewer == quoted.height else
            f"not everywhere: {fewer} of {quoted.height} buildings and resources get" if fewer else
            "no building or resource is shown to get")
    page.verdict("own", "Do the dice deliver what they promise?", sentence(
        f"{said} less at {quoted['label'][0]} (Holm over the figure's {count(drawn.height, 'test')}), {least} to "
        f"{most} of the promise"))
    page.split_table("Production against the dice", production.sort("players", "label", "building", "resource"), [
        "label", "building", "resource", "n_plays", "ratio", "ratio_lo", "ratio_hi", "ratio_p", "received_per_play",
        "expected_per_play", "mean_difference", "mean_difference_lo", "mean_difference_hi", "sd_difference",
        "homogeneous"], mart="mart_catan_production_vs_dice",
        note="Per play, all seats together (a play's seats share its dice, robber and bank: the play is the unit of "
             "every interval); the difference is received - expected.")


def losses(page: Page) -> None:
    lost, drawn, labels = figure_rows(page, "mart_catan_losses")
    if not labels:
        return
    fig = Points(stack(drawn.sort("players", "label", "seat"), {"mean_robbed": "cards stolen by the robber",
                       "mean_discarded": "cards discarded on a 7"}, x="seat", series="label", n_plays="n_plays"),
                 "Catan: cards lost by seat (tables of one policy, published rules, 95% intervals)",
                 "seat (0 = the start player)", "cards lost a play (95% interval)", panel_width=5.8)
    pairs = _tested_loss_pairs(page, drawn["run_id"].unique())
    quoted = drawn.filter(pl.col("label") == _most_played(drawn), pl.col("seat") == 0).row(0, named=True)
    page.figure("losses", fig, "Cards lost to the robber and to discards", sentence(
        f"seats lose {span(drawn['lost_share'])} of the cards they receive" + (", most of them discarded on a 7" if (
            drawn["mean_discarded"] > drawn["mean_robbed"]).all() else "") + ": at "
        f"{quoted['label']} seat 0 discards {ci(quoted, 'mean_discarded', False)} cards a play and loses "
        f"{ci(quoted, 'mean_robbed', False)} to the robber", *_loss_findings(pairs)))
    page.split_table("Cards lost to the robber and to discards", lost.sort("players", "label", "seat"), [
        "label", "seat", "n_plays", "mean_lost", "mean_lost_lo", "mean_lost_hi", "lost_share", "mean_robbed",
        "mean_robbed_lo", "mean_robbed_hi", "mean_discarded", "mean_discarded_lo", "mean_discarded_hi",
        "mean_received", "robbed_share", "discarded_share", "policy", "homogeneous"], mart="mart_catan_losses")


def _tested_loss_pairs(page: Page, run_ids: pl.Series) -> pl.DataFrame:
    """The seat pairs (mart_catan_loss_pairs) of the runs the figure draws, each p Holm-adjusted over all of them:
    one family, every pair of seats of every table drawn."""
    pairs = page.with_labels(page.mart("mart_catan_loss_pairs").filter(pl.col("run_id").is_in(run_ids.implode())))
    pairs = pairs.sort("players", "label", "seat_a", "seat_b")
    return pairs.with_columns(p_holm=pl.Series(holm(pairs["p_value"].to_numpy()), dtype=pl.Float64))


def _loss_findings(pairs: pl.DataFrame) -> list[str]:
    """Where some seat loses more than another (Holm over every pair drawn), the largest such gap, where the plays
    rule out a gap above 1% of the mean, and where they cannot tell."""
    if pairs.is_empty():
        return []
    tables = pairs.group_by("label", maintain_order=True).agg(
        (pl.col("p_holm") < 0.05).any().alias("apart"), pl.col("equivalent").all().alias("near"))
    apart = tables.filter(pl.col("apart"))["label"].to_list()
    near = tables.filter(~pl.col("apart") & pl.col("near"))["label"].to_list()
    unclear = tables.filter(~pl.col("apart") & ~pl.col("near"))["label"].to_list()
    parts = [f"some seat loses more than another at {count(len(apart), 'table')} of {tables.height} (each pair of "
             f"seats compared play by play, Holm over {count(pairs.height, 'pair')})"]
    if apart:
        top = pairs.filter(pl.col("p_holm") < 0.05).sort(pl.col("difference").abs(), descending=True).row(0, named=True)
        more, less = (top["seat_b"], top["seat_a"]) if top["difference"] > 0 else (top["seat_a"], top["seat_b"])
        gap = {"gap": abs(top["difference"]), "gap_lo": min(abs(top["difference_lo"]), abs(top["difference_hi"])),
               "gap_hi": max(abs(top["difference_lo"]), abs(top["difference_hi"]))}
        parts.append(f"most at {top['label']}: seat {more} loses {ci(gap, 'gap', False)} cards a play more than seat "
                     f"{less}")
    if near:
        parts.append(f"no two seats' losses differ by more than 1% of the mean at {', '.join(near)} (90% intervals)")
    if unclear:
        parts.append(f"too few plays to tell at {', '.join(unclear)}")
    return parts


def card_holders(page: Page) -> None:
    holders, drawn, labels = figure_rows(page, "mart_catan_card_holders")
    if not labels:
        return
    drawn = _holder_tests(drawn.drop_nulls("holder_win_share"))
    order = pl.col("card").replace_strict(list(CARDS), range(len(CARDS)))
    rows = stack(drawn.sort("players", "label", order), {"holder_win_share": "the card's holder at the end",
                 "without_win_share": "a seat without it (mean)"}, {"holder_win_share": 100, "without_win_share": 100},
                 into="series", row=with_n(), panel=pl.format("the {}", pl.col("card").replace_strict(CARDS)),
                 policy="focal", reference=100 * pl.col("fair_share"))
    fig = Forest(rows.with_columns(open=pl.col("series") == "a seat without it (mean)"), "Catan: do the card holders "
                 "win? (tables of one policy, published rules)", "win share (%, 95% interval)", reference=None,
                 reference_label="a seat's fair share", panel_width=4.2)
    page.figure("card_holders", fig, "Longest route and largest army", sentence(
        *_holder_findings(drawn, _most_played(drawn)),
        "an association, not a cause: the card is worth 2 points and goes to a seat doing well"))
    page.split_table("Win share of the card holders", holders.sort("players", "label", "card"), [
        "label", "card", "n_plays", "holder_win_share", "holder_win_share_lo", "holder_win_share_hi", "fair_share",
        "holder_p_value", "without_win_share", "without_win_share_lo", "without_win_share_hi", "held_share",
        "plays_with_holder", "holder_wins", "homogeneous"], mart="mart_catan_card_holders",
        note="Win share: a win counts 1, shared by k tied winners 1/k each (a Catan play has one winner, or none on "
             "the turn limit). The seats without the card count as one a play: their mean.")


def _holder_tests(drawn: pl.DataFrame) -> pl.DataFrame:
    """The drawn rows with the holder's p Holm-adjusted over them (one family: both cards at every table drawn) and
    whether its 90% interval lies within the margin of the fair share (TOST)."""
    near = []
    for r in drawn.iter_rows(named=True):
        lo, hi = wilson(r["holder_win_share"] * r["holder_effective_plays"], r["holder_effective_plays"], Z90)
        near.append(r["fair_share"] - MARGIN_SHARE < lo and hi < r["fair_share"] + MARGIN_SHARE)
    return drawn.with_columns(p_holm=pl.Series(holm(drawn["holder_p_value"].to_numpy()), dtype=pl.Float64),
                              within_margin=pl.Series(near, dtype=pl.Boolean))


def _holder_findings(tested: pl.DataFrame, quoted: str) -> list[str]:
    """The holders' win shares at the set-up quoted, against the fair share and the seats without the card; where
    the holders take more than a fair share (Holm over the figure's tests); where the plays cannot tell."""
    parts = []
    for card, name in CARDS.items():
        rows = tested.filter((pl.col("card") == card) & (pl.col("label") == quoted))
        if rows.is_empty():
            continue
        r = rows.row(0, named=True)
        parts.append(f"the {name}'s holder takes a win share of {ci(r, 'holder_win_share')}"
                     + (f" against a fair {pct(r['fair_share'])}, the seats without it "
                        f"{ci(r, 'without_win_share')}" if not parts else f", the seats without it "
                                                                         f"{pct(r['without_win_share'])}"))
    said = f"at {quoted} " + ", and ".join(parts) if parts else None
    more = tested.filter((pl.col("p_holm") < 0.05) & (pl.col("holder_win_share") > pl.col("fair_share")))
    less = tested.filter((pl.col("p_holm") < 0.05) & (pl.col("holder_win_share") < pl.col("fair_share")))
    level = tested.filter(pl.col("p_holm") >= 0.05)
    n = tested.height
    at = ("for every card at every table drawn" if more.height == n else
          f"for {more.height} of the {n} cards and tables drawn")
    return [said,
            f"the holder takes more than a fair share {at} (Holm over {count(n, 'test')})",
            f"less at {less.height}" if less.height else None,
            f"within {MARGIN_SHARE * 100:.0f} percentage point of a fair share at {level['within_margin'].sum()}"
            if level["within_margin"].any() else None,
            f"too few plays to tell at {(~level['within_margin']).sum()}" if (~level["within_margin"]).any() else None]


# The sections this game hands to the report, in page order.
REPORT = GameReport(
    sections=(production_vs_dice, losses, card_holders),
    order=30,
)
