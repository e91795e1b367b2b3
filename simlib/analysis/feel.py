"""How a play feels, on every game page (issue 38): who leads as the play goes on, is the game decided early, can a
player who falls behind come back, and does that change among good players? From mart_setup_feel,
mart_setup_feel_tenths and mart_ladder_feel (pipelines/shared), in the game's own standing (its `standing`,
core/feel.py); the features are defined in docs/statistics.md, "How a play feels".

Each index answer rests on one estimand with its 95% interval, at the most-played table of one policy at the
published rules: "decided early?" on how often the single half-time leader goes on to win, "come back?" on how often
the winner was last at half-time. The words follow the interval's ends against lines set from the players' fair share
(decided_lines, comeback_lines): an interval across a line is too close to call between the words on either side."""

from __future__ import annotations

import polars as pl

from .estimators import newcombe
from .figure_kinds import Points
from .page import Page
from .sections import one_policy_setups, published_rules, without_fixed_openings
from .words import count, interval, number, pct, sentence

DECIDED_QUESTION = "Is the game decided early?"
COMEBACK_QUESTION = "Can a player who falls behind come back?"
# The lines move with the players, so that a word means the same at 2 players as at 5: chance (half-time says
# nothing) gives the half-time leader a seat's fair share 1/n of the wins, and the last at half-time too.
# "Decided early?" reads how far the half-time leader's win rate goes from 1/n towards a certain win: at or past
# DECIDED_WAY[1] of the way (at 4 players 2/3), mostly decided; at or short of DECIDED_WAY[0] (at 4 players 1/2),
# not; between them, partly.
DECIDED_WAY = (1 / 3, 5 / 9)
# "Come back?" reads the share of plays won from last place at half-time against what chance would give the last,
# 1/n: at or below COMEBACK_OF_CHANCE[0] of it (at 4 players 5%) comebacks are rare, at or above [1] (10%) common.
COMEBACK_OF_CHANCE = (0.2, 0.4)


def decided_lines(players: int) -> tuple[float, float]:
    """The half-time leader's win rates at which "no" turns to "partly" and "partly" to "mostly"."""
    fair = 1 / players
    return tuple(fair + way * (1 - fair) for way in DECIDED_WAY)


def comeback_lines(players: int) -> tuple[float, float]:
    """The shares won from last place at half-time at which "rarely" turns to "sometimes" and that to "yes"."""
    return tuple(part / players for part in COMEBACK_OF_CHANCE)


def _band(lo: float, hi: float, lines: tuple[float, float], words: tuple[str, str, str]) -> str:
    """words[0] when the interval lies at or below the lower line, words[2] at or above the upper one, words[1]
    between them; across a line, the two words it lies between ("no or partly": too close to call)."""
    if hi <= lines[0]:
        return words[0]
    if lo >= lines[1]:
        return words[2]
    if lo >= lines[0] and hi <= lines[1]:
        return words[1]
    return f"{words[0]} or {words[1]}" if lo < lines[0] else f"{words[1]} or {words[2]}"


def _main(feel: pl.DataFrame) -> dict:
    """The set-up the answers quote: the most plays, then the most players, then the first label."""
    return feel.sort("n_plays", "players", "setup_label", descending=[True, True, False]).row(0, named=True)


def _lines(lines: tuple[float, float]) -> str:
    """Where the words change, as percentages, to a tenth where not whole ("50% and 66.7%")."""
    return " and ".join(pct(x, 0 if abs(100 * x - round(100 * x)) < 1e-9 else 1) for x in lines)


def _verdict(word: str) -> str:
    """The band's word, or where the interval crosses a line, that it is too close to call."""
    return word if " or " not in word else f"too close to call between {word.replace(' or ', ' and ')}"


def decided_answer(row: dict) -> str:
    """The index's answer to DECIDED_QUESTION from a row of mart_setup_feel ("" without a single half-time
    leader)."""
    if not row["half_leader_plays"]:
        return ""
    rate, lo, hi = row["half_leader_win_rate"], row["half_leader_win_rate_lo"], row["half_leader_win_rate_hi"]
    lines = decided_lines(row["players"])
    word = _band(lo, hi, lines, ("no", "partly", "mostly"))
    said = (f"{_verdict(word)}: at {row['setup_label']} the half-time leader goes on to win {pct(rate)} of plays "
            f"({interval(lo, hi)}; a seat's fair share is {pct(1 / row['players'], 0)}, and the words change at "
            f"{_lines(lines)})")
    when = (f"the winner leads for good from {pct(row['mean_decided_at'], 0)} of the play on average "
            f"({interval(row['mean_decided_at_lo'], row['mean_decided_at_hi'])})")
    return sentence(said, when)


def comeback_answer(row: dict, unit: str) -> str:
    """The index's answer to COMEBACK_QUESTION from a row of mart_setup_feel, the deficit in the standing's
    `unit`."""
    share, lo, hi = row["won_from_last_share"], row["won_from_last_share_lo"], row["won_from_last_share_hi"]
    lines = comeback_lines(row["players"])
    word = _band(lo, hi, lines, ("rarely", "sometimes", "yes"))
    said = (f"{_verdict(word)}: at {row['setup_label']} {pct(share)} of plays ({interval(lo, hi)}) are won by a "
            f"player who was last at half-time (1 in {row['players']} if half-time said nothing; the words change "
            f"at {_lines(lines)})")
    deficit = (f"winners were at worst {number(row['mean_max_deficit'], 1)} {unit} behind the leader, on average "
               f"({interval(row['mean_max_deficit_lo'], row['mean_max_deficit_hi'], False, 1)})")
    return sentence(said, deficit)


def _rung(row: dict) -> str:
    """A table of one rung in words: "4 search (budget=256) players"."""
    return f"{row['players']} {row['rung_label']} players"


def ladder_answer(ladder: pl.DataFrame) -> str:
    """Along the skill ladder (mart_ladder_feel rows of one players and options): the half-time leader's win rate
    at the bottom and the top rung, and their difference (Newcombe's interval)."""
    rows = ladder.filter(pl.col("half_leader_plays") > 0).sort("rung")
    if rows.height < 2:
        return ""
    bottom, top = rows.row(0, named=True), rows.row(-1, named=True)
    d, lo, hi = newcombe(bottom["half_leader_wins"], bottom["half_leader_plays"], top["half_leader_wins"],
                            top["half_leader_plays"])
    ends = (f"the half-time leader wins {pct(bottom['half_leader_win_rate'])} with {_rung(bottom)} and "
            f"{pct(top['half_leader_win_rate'])} with {_rung(top)}")
    gap = f"{100 * d:+.1f} pp, 95% interval {100 * lo:+.1f} pp to {100 * hi:+.1f} pp"
    if lo > 0:
        return sentence(f"among good players the game is decided earlier: {ends} ({gap})")
    if hi < 0:
        return sentence(f"among good players the game is decided later: {ends} ({gap})")
    return sentence(f"too few plays to tell whether skill changes how early the game is decided: {ends} ({gap})")


def examples(row: dict, game: str) -> str:
    """Where to find one play of each kind: the workbench lists them to open, and `simlib replay` tells one in the
    shell (the run ids stay in the table's column: the report is read without a server, and shows no hash)."""
    if row.get("comeback_play") is None and row.get("runaway_play") is None:
        return ""
    return sentence("the table of set-ups below names, per set-up, one play won from last place at half-time and one "
                    "whose winner led throughout: open them in the workbench (`make serve`, under 'Plays the report "
                    f"names') or read one with `simlib replay {game} --run RUN --play PLAY`")


def _tenths_rows(tenths: pl.DataFrame) -> pl.DataFrame:
    return tenths.sort("players", "setup_label", "tenth").select(
        "n_plays", x=pl.col("tenth").cast(pl.String), series="setup_label",
        panel=pl.format("{} players", "players"),
        **{k: 100 * pl.col(f"winner_leads_share{end}") for k, end in (("value", ""), ("lo", "_lo"), ("hi", "_hi"))})


def play_feel(page: Page) -> None:
    standing = page.game.standing
    feel = without_fixed_openings(page, published_rules(page, one_policy_setups(page.mart("mart_setup_feel"))))
    if standing is None or feel.is_empty():
        return
    tenths = page.mart("mart_setup_feel_tenths").join(feel.select("setup_id"), on="setup_id")
    main = _main(feel)
    decided, comeback = decided_answer(main), comeback_answer(main, standing.unit)
    ladder = page.mart("mart_ladder_feel").filter((pl.col("players") == main["players"]) & (pl.col("options") == ""))
    along = ladder_answer(ladder)
    title = (f"{page.game.title}: who leads as the play goes on? The share of plays whose eventual winner leads "
             f"alone ({standing.unit}), 95% intervals")
    figure = Points(_tenths_rows(tenths), title, "tenths of the play played", "plays the winner leads alone (%)")
    explain = sentence(f"at each tenth of the play (after the {standing.step} that ends it), the share of plays in "
                       "which the eventual winner leads alone (a shared lead does not count); a curve that is high "
                       f"early means a game decided early; {count(feel.height, 'table')} of one policy")
    said = [explain, decided, comeback, along, examples(main, page.game.name)]
    page.figure("feel", figure, "Who leads as the play goes on", " ".join(filter(None, said)))
    page.verdict("decided", DECIDED_QUESTION, " ".join(filter(None, [decided, along])))
    page.verdict("comeback", COMEBACK_QUESTION, comeback)
    _tables(page, ladder)


def _tables(page: Page, ladder: pl.DataFrame) -> None:
    """Every set-up's figures (mixed tables folded), and the ladder's rungs where played."""
    standing = page.game.standing
    shown = page.mart("mart_setup_feel").sort("players", "setup_label")
    page.split_table(f"How plays feel per set-up (the standing: {standing.unit} after each {standing.step})", shown,
                     "setup_label n_plays half_leader_win_rate± q1_leader_win_rate± q3_leader_win_rate± "
                     "won_from_last_share± mean_decided_at± mean_decisive_at± mean_lead_changes± "
                     "mean_winner_lead_share± mean_max_deficit± mean_drama± n_runs example_run_id comeback_play "
                     "runaway_play", mart="mart_setup_feel")
    if not ladder.is_empty():
        page.table("How plays feel along the skill ladder", ladder.sort("players", "options", "rung"),
                   "setup_label rung_label n_plays half_leader_win_rate± won_from_last_share± mean_decided_at± "
                   "mean_lead_changes± mean_max_deficit±", mart="mart_ladder_feel")
