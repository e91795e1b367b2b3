"""What Die Mauer's, Mauerbruch's and Catan's pages may say (issue 35; docs/statistics.md, "What a sentence may
say"): one estimand a question (the win share against the fair share, never a win rate), the play the unit of
every interval, the tests of one figure sharing one error rate (Holm), "too few plays to tell" or "no ... larger
than" where nothing is shown, and every length in the game's unit.

The words are checked on hand-made rows whose answers are worked out here (Holm by hand: the smaller of two p-values
times 2, the larger times 1, never below the smaller's), then on a small real lake through the command line. The
clustered interval of Die Mauer's build-round shares is checked on a hand-made lake."""

from __future__ import annotations

import html
import re

import polars as pl
import pytest

from simlib.analysis.pipeline import build
from simlib.games.catan.report import _holder_findings, _holder_tests, _loss_findings
from simlib.games.mauer.report import SEATS, _findings, _gap, _penalty_verdict, _tables
from simlib.games.mauerbruch.report import _breaker_findings, _breaker_tests, _breaker_verdict

from support.lake_fixture import seats_from_penalties, write_run
from support.mart_checks import cli, clustered_share, marts_of, pipeline_and_report, row, wilson

# --- Mauerbruch: the breaker's win share against the fair share ----------------------------------------------------


def breaker_rows(*tables: tuple[str, float, float, float]) -> pl.DataFrame:
    """Tables of one policy as the endings figure draws them: (label, win share, effective plays, raw p), four
    players (a fair share of 25%), the interval a plain one around the share."""
    return pl.DataFrame([{"label": label, "players": 4, "fair_share": 0.25, "breaker_win_share": share,
                          "breaker_win_share_lo": share - 0.01, "breaker_win_share_hi": share + 0.01,
                          "breaker_effective_plays": n, "breaker_p_value": p, "n_plays": int(n)}
                         for label, share, n, p in tables])


def test_one_table_at_p_003_is_more_than_a_fair_share():
    tested = _breaker_tests(breaker_rows(("4 random players", 0.27, 2_000, 0.03)))
    assert tested["p_holm"].to_list() == [0.03]
    words = " ".join(w for w in _breaker_findings(tested) if w)
    assert "more than a fair share at 1 of 1 table of one policy (Holm over 1 test)" in words
    assert _breaker_verdict(tested, tested.row(0, named=True)).startswith(
        "Yes: the breaker takes more than a fair share at the only one-policy table")


def test_two_tables_at_p_003_and_004_share_one_error_rate_and_cannot_tell():
    """Holm: 0.03 x 2 = 0.06 and 0.04 x 1, raised to 0.06: neither below 0.05, so neither table says 'more'."""
    tested = _breaker_tests(breaker_rows(("4 random players", 0.27, 2_000, 0.03),
                                         ("3 random players", 0.36, 2_000, 0.04)))
    assert tested["p_holm"].to_list() == pytest.approx([0.06, 0.06])
    words = " ".join(w for w in _breaker_findings(tested) if w)
    assert "more than a fair share" not in words
    assert "too few plays to tell at 4 random players, 3 random players" in words
    verdict = _breaker_verdict(tested, tested.row(0, named=True))
    assert verdict.startswith("Too few plays to tell at 2 one-policy tables") and "significant" not in verdict


def test_a_share_pinned_near_fair_is_no_effect_larger_than_the_margin():
    """A share of 25.2% over 100,000 effective plays: the 90% Wilson interval, about 25.0% to 25.4%, lies within
    25% +- 1 percentage point, so the plays rule out a larger effect."""
    lo, hi = wilson(0.252 * 100_000, 100_000, z=1.6448536269514722)
    assert 0.24 < lo < hi < 0.26
    tested = _breaker_tests(breaker_rows(("4 random players", 0.252, 100_000, 0.2)))
    assert tested["within_margin"].to_list() == [True]
    assert "within 1 percentage point of the fair share at 4 random players" in " ".join(
        w for w in _breaker_findings(tested) if w)
    assert _breaker_verdict(tested, tested.row(0, named=True)).startswith(
        "No: within 1 percentage point of a fair share at the only one-policy table")


# --- Die Mauer: seats compared pair by pair, Holm over every pair drawn -------------------------------------------


def pair_rows(label: str, pairs: dict[tuple[int, int], tuple[float, float, bool]]) -> list[dict]:
    """A table's pairs: (a, b) -> (difference b - a, Holm-adjusted p, within the margin), intervals +-0.5 (95%) and
    +-0.4 (90%) around the difference."""
    return [{"label": label, "a": a, "b": b, "difference": d, "difference_lo": d - 0.5, "difference_hi": d + 0.5,
             "difference_lo90": d - 0.4, "difference_hi90": d + 0.4, "p_holm": p, "equivalent": near}
            for (a, b), (d, p, near) in pairs.items()]


def seat_means(label: str, means: list[float]) -> list[dict]:
    return [{"label": label, "seat": s, "mean": m, "mean_lo": m - 0.2, "mean_hi": m + 0.2} for s, m in enumerate(means)]


def test_a_pair_with_b_below_a_reads_as_the_gap_from_the_lower_seat():
    gap = _gap({"a": 0, "b": 2, "difference": -1.5, "difference_lo": -2.0, "difference_hi": -1.0})
    assert gap == {"low": 2, "high": 0, "gap": 1.5, "gap_lo": 1.0, "gap_hi": 2.0}


def test_seats_differ_only_where_a_pair_survives_holm():
    pairs = pl.DataFrame(
        pair_rows("3 random players", {(0, 1): (1.0, 0.001, False), (0, 2): (2.0, 0.0001, False),
                                       (1, 2): (1.0, 0.01, False)})
        + pair_rows("4 heavy players", {(0, 1): (0.3, 0.2, False), (0, 2): (0.1, 0.9, False),
                                        (0, 3): (0.2, 0.6, False), (1, 2): (-0.2, 0.7, False),
                                        (1, 3): (-0.1, 0.9, False), (2, 3): (0.1, 0.9, False)})
        + pair_rows("5 random players", {(a, b): (0.01, 1.0, True) for a in range(5) for b in range(a + 1, 5)}))
    means = pl.DataFrame(seat_means("3 random players", [3.0, 4.0, 5.0]) + seat_means("4 heavy players",
                                                                                      [3.0, 3.3, 3.1, 3.2])
                         + seat_means("5 random players", [3.0] * 5))
    tables = _tables(pairs)
    assert [(t["apart"], t["near"], t["first_fewest"]) for t in tables] == [
        (True, False, True), (False, False, False), (False, True, False)]
    words = " ".join(w for w in _findings(tables, pairs.height, means, SEATS) if w)
    assert words.startswith("seats differ at 1 of 3 tables of one policy (each pair of seats compared play by play, "
                            "Holm over 19 pairs)")
    assert "seat 0 (the first builder) has fewer than every other seat at 1 of them" in words
    assert ("the widest gap: at 3 random players seat 0 averages 3.0 (2.8 to 3.2) penalty points a play and seat 2 "
            "5.0 (4.8 to 5.2), a gap of 2.0 (1.5 to 2.5, play by play)") in words
    assert "no two seats differ by more than 0.41 at 5 random players" in words
    assert "too few plays to tell at 4 heavy players" in words and "significant" not in words
    verdict = _penalty_verdict(tables, pairs.height, means)
    assert verdict.startswith("No: seats differ at 1 of 3 one-policy tables (Holm over 19 pairs of seats), seat 0 "
                              "(the first builder) getting fewer than every other seat at 1 of the 3")


def test_no_pair_differing_anywhere_is_too_few_plays_not_no_effect():
    pairs = pl.DataFrame(pair_rows("4 random players", {(0, 1): (0.3, 0.2, False), (0, 2): (0.1, 0.9, False),
                                                        (1, 2): (-0.2, 0.7, False)}))
    means = pl.DataFrame(seat_means("4 random players", [3.0, 3.3, 3.1]))
    verdict = _penalty_verdict(_tables(pairs), pairs.height, means)
    assert verdict.startswith("Too few plays to tell at the only one-policy table: no pair of seats is shown to "
                              "differ (Holm over 3 pairs), nor is a gap above 1% of the mean ruled out")


# --- Catan: the card holders' win share, seats' losses pair by pair -----------------------------------------------


def holder_rows(*rows: tuple[str, str, float, float, float]) -> pl.DataFrame:
    """(label, card, holder's win share, effective plays, raw p) at four players; the seats without it 20%."""
    return pl.DataFrame([{"label": label, "card": card, "fair_share": 0.25, "holder_win_share": share,
                          "holder_win_share_lo": share - 0.02, "holder_win_share_hi": share + 0.02,
                          "holder_effective_plays": n, "holder_p_value": p, "without_win_share": 0.2,
                          "without_win_share_lo": 0.19, "without_win_share_hi": 0.21}
                         for label, card, share, n, p in rows])


def test_card_holders_against_the_fair_share_with_holm_over_both_cards():
    tested = _holder_tests(holder_rows(("4 builder players", "longest_route", 0.70, 600, 1e-30),
                                       ("4 builder players", "largest_army", 0.28, 600, 0.04)))
    assert tested["p_holm"].to_list() == pytest.approx([2e-30, 0.04])  # 1e-30 x 2; 0.04 x 1
    words = _holder_findings(tested, "4 builder players")
    assert words[0] == ("at 4 builder players the longest-route card's holder takes a win share of 70.0% (68.0% to "
                        "72.0%) against a fair 25.0%, the seats without it 20.0% (19.0% to 21.0%), and the "
                        "largest-army card's holder takes a win share of 28.0% (26.0% to 30.0%), the seats without it "
                        "20.0%")
    assert words[1] == "the holder takes more than a fair share for every card at every table drawn (Holm over 2 tests)"
    weaker = _holder_tests(holder_rows(("4 builder players", "longest_route", 0.70, 600, 1e-30),
                                       ("4 builder players", "largest_army", 0.28, 600, 0.03),
                                       ("4 random players", "largest_army", 0.27, 600, 0.04)))
    assert weaker["p_holm"].to_list() == pytest.approx([3e-30, 0.06, 0.06])
    said = " ".join(w for w in _holder_findings(weaker, "4 builder players") if w)
    assert "for 1 of the 3 cards and tables drawn (Holm over 3 tests)" in said and "too few plays to tell at 2" in said
    assert "win rate" not in said


def test_seats_losses_differ_only_where_a_pair_survives_holm():
    def pairs(label, rows):
        return [{"label": label, "seat_a": a, "seat_b": b, "difference": d, "difference_lo": lo,
                 "difference_hi": hi, "p_holm": p, "equivalent": near} for a, b, d, lo, hi, p, near in rows]
    frame = pl.DataFrame(pairs("4 builder players", [(0, 1, -2.2, -3.54, -0.86, 0.01, False),
                                                     (0, 2, 0.1, -1.0, 1.2, 0.9, False)])
                         + pairs("4 random players", [(0, 1, 0.01, -0.02, 0.04, 0.8, True)]))
    words = _loss_findings(frame)
    assert words[0] == ("some seat loses more than another at 1 table of 2 (each pair of seats compared play by play, "
                        "Holm over 3 pairs)")
    assert words[1] == "most at 4 builder players: seat 0 loses 2.20 (0.86 to 3.54) cards a play more than seat 1"
    assert words[2] == "no two seats' losses differ by more than 1% of the mean at 4 random players (90% intervals)"


# --- Die Mauer: the share of build rounds, the play the unit --------------------------------------------------------

# Three plays' build rounds (Baurunden) by outcome: play 0 two 'builder builds' and a gift (hollow_2), play 1 one
# 'builder builds', play 2 one 'builder builds' and three 'competitors build'.
CASES = [["builder_builds", "builder_builds", "hollow_2"], ["builder_builds"],
         ["builder_builds", "competitors_build", "competitors_build", "competitors_build"]]


def ratio_interval(k: list[int], m: list[int]) -> tuple[float, float]:
    """R = sum k / sum m; the ratio estimator's variance over plays, sum (k - R m)^2 / (n (n - 1) mean(m)^2); Wilson's
    interval at R (1 - R) / variance trials."""
    return clustered_share(list(zip(m, k)))[1:]


def test_build_round_shares_count_the_play_as_the_unit(tmp_path):
    lake = tmp_path / "lake"
    games, seats = seats_from_penalties([[0, 5, 10], [3, 0, 6], [4, 4, 1]])
    events = [{"play_index": play, "baurunde": i, "outcome": outcome, "builds": [], "plans": []}
              for play, outcomes in enumerate(CASES) for i, outcome in enumerate(outcomes)]
    write_run(lake, "cases", 3, ["random"] * 3, games, seats, events=events)
    result = build(lake, tmp_path / "marts", tmp_path / "simlib.duckdb")
    assert result.test_failures == []
    cases = marts_of(tmp_path / "marts")["mart_mauer_baurunde_cases"]
    assert sorted(cases["outcome"]) == ["builder_builds", "competitors_build", "hollow_2"]  # none of 0 build rounds
    # 'builder builds': 2, 1, 1 of 3, 1, 4: R = 1/2, residuals 1/2, 1/2, -1; squares 1.5 over 8^2 build rounds: the
    # per-play variance 1.5 / 64, effective build rounds 0.25 / that = 32/3 (not the 8 build rounds as if
    # independent).
    builds = row(cases, outcome="builder_builds")
    assert (builds["n_baurunden_with_outcome"], builds["n_baurunden"], builds["n_plays"]) == (4, 8, 3)
    assert builds["share"] == 0.5
    assert (builds["share_lo"], builds["share_hi"]) == pytest.approx(wilson(0.5 * 32 / 3, 32 / 3), rel=1e-12)
    for outcome in ("builder_builds", "competitors_build", "hollow_2"):
        k = [c.count(outcome) for c in CASES]
        got = row(cases, outcome=outcome)
        assert (got["share_lo"], got["share_hi"]) == pytest.approx(ratio_interval(k, [len(c) for c in CASES]),
                                                                   rel=1e-12), outcome
        assert got["per_play"] == pytest.approx(sum(k) / 3)


# --- the pages of a small real lake ----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def pages(tmp_path_factory) -> dict[str, str]:
    root = tmp_path_factory.mktemp("pages")
    lake = root / "lake"
    for game, players, policy, plays, rounds in (("mauer", "3", "random", "600", ["--rounds", "3"]),
                                                 ("mauer", "4", "heavy", "600", ["--rounds", "3"]),
                                                 ("mauerbruch", "3", "random", "600", []),
                                                 ("mauerbruch", "4", "greedy", "600", [])):
        status, out = cli("simulate", game, "--plays", plays, "--players", players, "--policies", policy,
                          "--events", "--seed", "3", "--workers", "1", "--lake", str(lake), "--quiet", *rounds)
        assert status == 0, out
    _, reports = pipeline_and_report(root, lake)
    return {name: (reports / f"{name}.html").read_text() for name in ("mauer", "mauerbruch", "index")}


def captions(page: str) -> dict[str, str]:
    """Each figure's caption in plain text, by its title."""
    found = {}
    for caption in re.findall(r"<figcaption>(.*?)</figcaption>", page, re.S):
        text = html.unescape(re.sub(r"<[^>]+>", "", caption)).strip()
        title, _, said = text.partition(". ")
        found[title] = said
    return found


def assert_honest(text: str) -> None:
    """No win rate, no bare 'significantly', no 'no significant effect', no interval whose ends print alike."""
    assert "win rate" not in text and "significantly" not in text and "no significant" not in text, text
    for lo, hi in re.findall(r"\(([-+]?[\d.,]+%?) to ([-+]?[\d.,]+%?)[,)]", text):
        assert lo != hi, text


def test_the_mauer_page_says_only_what_its_tests_show(pages):
    said = captions(pages["mauer"])
    seats, matches, cases = (said["Penalty points by seat"], said["Penalty points over a match by table position"],
                             said["How build rounds resolve"])
    assert "Holm over 9 pairs" in seats  # three pairs of seats at three players, six at four
    assert "Holm over 9 pairs" in matches and "match by match" in matches
    assert "penalty points a play" in seats and "Spielrunde" not in seats + matches
    assert "of build rounds" in cases and "Baurunden" not in cases
    for text in (seats, matches, cases):
        assert_honest(text)
    index = html.unescape(re.sub(r"<[^>]+>", " ", pages["index"]))
    assert "build rounds at" in index  # the length verdict in Die Mauer's unit


def test_the_mauerbruch_page_compares_the_breakers_win_share_with_the_fair_share(pages):
    ending = captions(pages["mauerbruch"])["How plays end"]
    assert "takes a win share of" in ending and "against a fair" in ending and "Holm over 2 tests" in ending
    assert_honest(ending)
    assert_honest(captions(pages["mauerbruch"])["What decides a pair"])
    index = html.unescape(re.sub(r"<[^>]+>", " ", pages["index"]))
    verdict = index[index.index("Does the player who breaks the wall win?"):][:400]
    assert "win share of" in verdict and "Holm over the tables" in verdict
    assert "turns at" in index  # Mauerbruch's length verdict in turns
