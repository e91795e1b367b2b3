"""7 Steps's games replayed turn by turn by the independent reference (tests/support/sevensteps_reference.py, which
derives the rules from docs/games/sevensteps.md, the settled points of issue 12 and the data files alone and
imports nothing from simlib; nor does this driver: the runs come from the command line, tests/support/cli_runs.py).
Every play of small runs of every policy, of mixed tables, on both sides, with
both readings of the rule text wherever it can be read two ways (first_disc: tile, the text's, and colour;
threshold_counts: discs, the text's, and total; the reference takes them from the options the lake records with
the run), another tile threshold and the turn limit must be legal at every disc and end on the rows of the games,
seats, events and turns tables. Each check of the reference is then shown to catch a stream changed in one place,
by its own rule."""

from __future__ import annotations

import copy
import functools
from collections import Counter, defaultdict
from types import SimpleNamespace

import pytest

from support.cli_runs import simulated_plays
from support.feel_reference import kept_standing
from support.sevensteps_reference import (
    AID,
    BONUS,
    COLLAPSE,
    COLOURS,
    HAND,
    Board,
    Illegal,
    Replay,
    Specials,
    collapse,
    measures,
    replay,
)

# name: (players, policies, options, plays, seed)
RUNS = {
    "random4_front": (4, ["random"], {}, 300, 11),
    "random2_back": (2, ["random"], {"side": "back"}, 300, 12),
    "random3_back": (3, ["random"], {"side": "back"}, 300, 13),
    "greedy4_front": (4, ["greedy"], {}, 300, 14),
    "greedy4_back": (4, ["greedy"], {"side": "back"}, 300, 15),
    "climber4_front": (4, ["climber"], {}, 300, 16),
    "mixed4_back": (4, ["random", "greedy", "climber", "random"], {"side": "back"}, 300, 17),
    "mixed3_front": (3, ["climber", "random", "greedy:reach=2"], {}, 200, 18),
    "random4_back": (4, ["random"], {"side": "back"}, 300, 19),
    "colour_random4_back": (4, ["random"], {"side": "back", "first_disc": "colour"}, 300, 19),
    "colour_greedy3_back": (3, ["greedy"], {"side": "back", "first_disc": "colour"}, 200, 20),
    "total_random4": (4, ["random"], {"threshold_counts": "total"}, 300, 25),
    "total_mixed4_back": (4, ["greedy", "climber", "random", "search:budget=8:horizon=2"],
                          {"threshold_counts": "total", "side": "back", "first_disc": "colour"}, 40, 26),
    "threshold8_random4": (4, ["random"], {"tile_threshold": 8}, 300, 21),
    "threshold8_climber4": (4, ["climber"], {"tile_threshold": 8, "side": "back"}, 200, 22),
    "reach2_greedy4": (4, ["greedy:reach=2"], {}, 300, 23),
    "limit_greedy4": (4, ["greedy"], {"max_turns": 30, "unused_tile_points": 5}, 200, 24),
}


@functools.cache
def every_run() -> dict[str, tuple[dict, ...]]:
    """Every run of RUNS simulated through the command line (one batch), play by play, turns in order, each with
    its run's options as the lake records them."""
    runs = simulated_plays("sevensteps", {name: (players, policies, plays, seed, options)
                                          for name, (players, policies, options, plays, seed) in RUNS.items()},
                           options=True)
    for plays in runs.values():
        for play in plays:
            play["events"].sort(key=lambda e: (e["turn"], e["disc"]))
            play["turns"].sort(key=lambda r: r["turn"])
    return runs


def played(name: str) -> tuple[dict, ...]:
    """The run's plays, each as its rows of every table."""
    return every_run()[name]


def check(name: str, play: dict, **override) -> Replay:
    """The play replayed under its run's recorded options (the readings it played), `override` changed."""
    players, policies, _, _, _ = RUNS[name]
    game = replay(players, {**play["options"], **override}, play["events"], play["turns"], play["games"][0],
                  play["seats"], policies)
    assert kept_standing(play["standings"]) == game.standing, "the standings table is not the replayed points"
    return game


@functools.lru_cache(maxsize=None)
def replayed(name: str) -> SimpleNamespace:
    """Every play of the run replayed: the situations met and the draw and tile-take tallies, summed."""
    out = SimpleNamespace(seen=Counter(), draw_expected=[0.0] * 7, draw_observed=[0] * 7,
                          take_expected=Counter(), take_observed=Counter())
    for play in played(name):
        game = check(name, play)
        out.seen += game.seen
        for c in range(7):
            out.draw_expected[c] += game.draw_expected[c]
            out.draw_observed[c] += game.draw_observed[c]
        out.take_expected.update(game.take_expected)
        out.take_observed.update(game.take_observed)
    return out


def seen_in(name: str) -> Counter:
    return replayed(name).seen


@pytest.mark.parametrize("name", list(RUNS))
def test_every_play_replays_legally_to_the_tables(name):
    """Every hand, disc, level, collapse, bonus, tile, throw, refill and the end as the rules give them, and the
    games and seats rows as the replay sums them up."""
    plays = played(name)
    assert len(plays) == RUNS[name][3]
    assert all(RUNS[name][2].items() <= play["options"].items() for play in plays)  # the lake recorded them
    seen_in(name)


def test_the_runs_meet_every_situation():
    """The replayed runs hold the situations the rules single out, so that each check has met the kernel's own
    games (not only the tampered streams below)."""
    seen = Counter()
    for name in RUNS:
        seen += seen_in(name)
    needed = ["aid_high_start", "aid_step_up_2", "aid_downhill", "aid_take_down", "aid_move_tower",
              "bonus_one_colour", "bonus_colours", "bonus_level", "bonus_line", "bonus_steps_up",
              "take_aid", "take_bonus", "reshuffle_aid", "double_step", "downhill_step", "collapse", "collapse_2",
              "collapse_after_first", "level7_after_collapse", "first_level_1", "first_level_2", "first_level_3",
              "first_level_5", "first_level_7", "chain_7", "thrown", "short_refill", "short_refill_last_seat",
              "shared_win", "turn_limit", "take_bonus_lifted", "no_take_bonus_lifted"]
    missing = [key for key in needed if not seen[key]]
    assert not missing, (missing, dict(seen))
    # both readings of each option were played: the recorded options name them
    readings = Counter((p["options"]["first_disc"], p["options"]["threshold_counts"]) for name in RUNS
                       for p in played(name)[:1])
    assert {first for first, _ in readings} == {"tile", "colour"} and {c for _, c in readings} == {"discs", "total"}
    # the first_disc=tile reading (the text's) lets a turn start above the colour's lowest level (on the back)
    assert seen_in("random4_back")["first_level_4"] > seen_in("colour_random4_back")["first_level_4"]
    # counting the discs' points (the text's "hierbei"), a turn the bonus lifted to 7 still takes a tile; the
    # total reading never lets it
    assert seen_in("random4_front")["take_bonus_lifted"] and not seen_in("total_random4")["take_bonus_lifted"]
    assert seen_in("total_random4")["no_take_bonus_lifted"]
    # the threshold 8 hands out more tiles than 7 under the same policy
    assert seen_in("threshold8_random4")["take_aid"] + seen_in("threshold8_random4")["take_bonus"] > \
        seen_in("random4_front")["take_aid"] + seen_in("random4_front")["take_bonus"]


@pytest.mark.parametrize("name", ["random4_front", "random2_back", "greedy4_back", "reach2_greedy4"])
def test_draws_and_tiles_are_uniform(name):
    """Discs are drawn uniformly from the bag (the deal included): per colour, the discs drawn stay within 5
    standard deviations of the bag's proportions at each draw; each tile taken is drawn uniformly from its
    pile: per tile id, likewise."""
    r = replayed(name)
    total = sum(r.draw_observed)
    assert total > 5000
    for c in range(7):
        exp, obs = r.draw_expected[c], r.draw_observed[c]
        assert abs(obs - exp) <= 5 * exp ** 0.5 + 5, (COLOURS[c], obs, exp)
    for tile, exp in r.take_expected.items():
        if exp >= 20:
            obs = r.take_observed[tile]
            assert abs(obs - exp) <= 5 * exp ** 0.5 + 5, (tile, obs, exp)


def test_searches_are_never_capped_on_the_standard_board():
    """docs/lake.md: capped_searches is 0 on the standard board (the worst case needs 7,664 chains)."""
    for name in RUNS:
        for play in played(name):
            assert play["games"][0]["max_nodes"] <= 10_000
            assert all(s["capped_searches"] == 0 for s in play["seats"]), name


# --- the reference's own board and rules, against the drawn facts of docs/games/sevensteps.md -----------------

def test_reference_board_matches_the_documented_standard_layout():
    front, back = Board("front"), Board("back")
    edges = {(a, b) for a in range(front.n) for b in front.neighbours[a] if a < b}
    assert front.n == 49 and len(edges) == 120
    assert sum(front.colour[a] == front.colour[b] for a, b in edges) == 84
    assert sum(back.colour[a] == back.colour[b] for a, b in edges) == 14
    assert sorted(Counter(len(n) for n in front.neighbours).items()) == [(3, 12), (4, 6), (5, 6), (6, 25)]
    # the documented table: a few fields (tile, printed field) -> (q, r), front, back
    for field, coord, f, b in [(0, (0, 0), "blue", "blue"), (2, (1, -1), "blue", "red"),
                               (7 + 4, (2, -1), "yellow", "black"), (14 + 6, (2, -2), "black", "orange"),
                               (28 + 3, (-3, 0), "white", "blue"), (42 + 6, (1, 3), "purple", "black")]:
        assert front.coord[field] == coord and COLOURS[front.colour[field]] == f and COLOURS[back.colour[field]] == b
    specials = Specials()
    assert sum(specials.copies[AID].values()) == 10 and sum(specials.copies[BONUS].values()) == 10


def test_reference_collapses_as_documented():
    board = Board("front")
    at = board.at
    yellow = COLOURS.index("yellow")
    # open question 9: yellow (2,-1), (3,-1), (4,-1) at 6; a disc on (2,-1) collapses it, then two together
    h = [0] * board.n
    for c in [(2, -1), (3, -1), (4, -1)]:
        h[at[c]] = 6
    h[at[(2, -1)]] += 1
    assert collapse(h, board, yellow) == 3
    assert (h[at[(2, -1)]], h[at[(3, -1)]], h[at[(4, -1)]]) == (3, 2, 2)
    assert sorted(h[f] for f in board.fields_of[yellow]) == [2, 2, 3, 3, 3, 3, 3] and sum(h) == 19
    # rule 14: (2,0) 5 -> 6 by the chain, (2,-1) 6 -> 7 collapses and brings (2,0) to 7
    h = [0] * board.n
    h[at[(2, 0)]], h[at[(2, -1)]] = 6, 7
    assert collapse(h, board, yellow) == 2
    assert (h[at[(2, -1)]], h[at[(2, 0)]]) == (2, 1) and sum(h) == 13


def test_reference_measures_as_documented():
    board = Board("front")
    f = [board.at[c] for c in [(-1, 0), (0, 0), (1, 0), (2, 0)]]           # S8: E, E, E
    assert measures(board, f, [1, 1, 1, 1]) == {"one_colour": 3, "colours": 2, "level": 1, "line": 4,
                                                 "steps_up": 0}
    assert measures(board, f[:1], [1])["line"] == 1 and measures(board, f[:2], [1, 2])["line"] == 2
    f = [board.at[c] for c in [(-1, 0), (0, 0), (1, 0), (2, 0), (3, 0), (4, -1)]]   # the S6 chain
    m = measures(board, f, [1, 2, 3, 4, 5, 6])
    assert m["steps_up"] == 5 and m["level"] == 6 and m["line"] == 5
    back = Board("back")
    f = [back.at[c] for c in [(0, 0), (1, -1), (2, -1), (3, -1)]]             # S3 on the back
    assert measures(back, f, [1, 1, 1, 1])["colours"] == 4


# --- tampered streams: each broken in one place, each caught by its own rule ------------------------------------

def walk(name: str):
    """Every turn of every play of a run, with the state before it: (index, play, row, events, snapshot)."""
    players, policies, _, _, _ = RUNS[name]
    for index, play in enumerate(played(name)):
        game = Replay(players, play["options"], policies, index)
        by_turn = defaultdict(list)
        for ev in play["events"]:
            by_turn[ev["turn"]].append(ev)
        game.deal(play["turns"])
        for row in play["turns"]:
            evs = by_turn[row["turn"]]
            snap = SimpleNamespace(heights=list(game.heights), hands=[list(h) for h in game.hands],
                                   aid=list(game.aid_held), bonus=list(game.bonus_held),
                                   pile=copy.deepcopy(game.pile), board=game.board, specials=game.specials,
                                   seat=row["turn"] % players, last=row is play["turns"][-1])
            yield index, play, row, evs, snap
            game.turn(row, evs)


def at_disc(snap, events, i):
    """Heights and the mover's hand just before disc i of a turn without a board-changing aid."""
    h, hand = list(snap.heights), list(snap.hands[snap.seat])
    for ev in events[:i]:
        c = snap.board.colour[ev["field"]]
        h[ev["field"]] += 1
        hand[c] -= 1
        if h[ev["field"]] >= COLLAPSE:
            collapse(h, snap.board, c)
    return h, hand


def find(name, pick):
    """The first (play index, play copy, turn, spot) where pick(row, events, snap) returns a spot."""
    for index, play, row, evs, snap in walk(name):
        spot = pick(row, evs, snap)
        if spot is not None:
            return index, copy.deepcopy(play), row["turn"], spot
    raise LookupError(f"no such situation in {name}")


def rows_of(play, turn):
    row = next(r for r in play["turns"] if r["turn"] == turn)
    return row, [e for e in play["events"] if e["turn"] == turn]


def move_disc(board, ev, field, level=None):
    ev["field"], (ev["q"], ev["r"]), ev["colour"] = field, board.coord[field], COLOURS[board.colour[field]]
    if level is not None:
        ev["level"] = level


def set_score(play, turn, delta):
    row, evs = rows_of(play, turn)
    row["turn_score"] += delta
    for ev in evs:
        ev["turn_score"] += delta


def rejected(name, play, rule, words="", **override):
    with pytest.raises(Illegal) as info:
        check(name, play, **override)
    assert info.value.rule == rule, str(info.value)
    assert words in str(info.value), str(info.value)
    return str(info.value)


def no_aid(row):
    return row["aid"] is None


def last_disc_spot(condition):
    """A pick for the last disc (i >= 1) of a turn without aid: the first other field meeting condition."""
    def pick(row, evs, snap):
        if not no_aid(row) or len(evs) < 2:
            return None
        i = len(evs) - 1
        h, hand = at_disc(snap, evs, i)
        prev, prev_level = evs[i - 1]["field"], evs[i - 1]["level"]
        used = {e["field"] for e in evs[:i]}
        for g in range(snap.board.n):
            if g != evs[i]["field"] and g not in used and condition(snap.board, g, h, hand, prev, prev_level, evs[i]):
                return i, g, h[g] + 1
        return None
    return pick


def tamper_last_disc(name, condition, rule, words=""):
    index, play, turn, (i, g, level) = find(name, last_disc_spot(condition))
    _, evs = rows_of(play, turn)
    move_disc(Board(RUNS[name][2].get("side", "front")), evs[i], g, level)
    rejected(name, play, rule, words)


def test_tampered_level():
    index, play, turn, _ = find("greedy4_front", lambda row, evs, snap: row["turn"] > 8 and len(evs) > 2 or None)
    rows_of(play, turn)[1][2]["level"] += 1
    rejected("greedy4_front", play, "level")


def test_tampered_field_not_adjacent():
    tamper_last_disc("random4_front", lambda b, g, h, hand, prev, pl, ev: b.colour[g] == b.colour[ev["field"]]
                     and g not in b.neighbours[prev] and h[g] + 1 == ev["level"], "adjacent")


def test_tampered_field_used_twice():
    index, play, turn, _ = find("greedy4_front", lambda row, evs, snap: len(evs) >= 3 or None)
    _, evs = rows_of(play, turn)
    move_disc(Board(), evs[2], evs[0]["field"])
    rejected("greedy4_front", play, "reuse")


def test_tampered_first_disc_not_on_the_lowest_level():
    def pick(row, evs, snap):
        if not no_aid(row) or not evs or row["turn"] < 8:
            return None
        c = snap.board.colour[evs[0]["field"]]
        return next((g for g in snap.board.fields_of[c] if snap.heights[g] > snap.heights[evs[0]["field"]]), None)
    index, play, turn, g = find("random4_front", pick)
    move_disc(Board(), rows_of(play, turn)[1][0], g)
    rejected("random4_front", play, "first disc")


def test_first_disc_tile_reading_is_not_the_colour_reading():
    """A play of a first_disc=tile run (the default) replayed under the colour reading starts a turn too high."""
    for play in played("random4_back"):
        assert play["options"]["first_disc"] == "tile"
        try:
            check("random4_back", play, first_disc="colour")
        except Illegal as error:
            assert error.rule == "first disc", str(error)
            return
    pytest.fail("every tile-reading play also kept the colour reading")


def test_tampered_colour_not_held():
    tamper_last_disc("random4_front", lambda b, g, h, hand, prev, pl, ev: g in b.neighbours[prev]
                     and hand[b.colour[g]] == 0 and pl <= h[g] + 1 <= pl + 1, "held")


def test_tampered_step_two_up_without_aid():
    tamper_last_disc("greedy4_front", lambda b, g, h, hand, prev, pl, ev: g in b.neighbours[prev]
                     and hand[b.colour[g]] > 0 and h[g] + 1 >= pl + 2, "step")


def test_tampered_step_down_without_aid():
    tamper_last_disc("greedy4_front", lambda b, g, h, hand, prev, pl, ev: g in b.neighbours[prev]
                     and hand[b.colour[g]] > 0 and h[g] + 1 < pl, "step")


def test_tampered_aid_removed_from_a_double_step_and_a_downhill_step():
    for aid in ("step_up_2", "downhill"):
        def pick(row, evs, snap, aid=aid):
            if row["aid"] is None or snap.specials.aids[row["aid"]]["effect"] != aid:
                return None
            lv = [e["level"] for e in evs]
            bad = [i for i in range(1, len(lv)) if (lv[i] > lv[i - 1] + 1 if aid == "step_up_2" else lv[i] < lv[i - 1])]
            return bad[0] if bad else None
        index, play, turn, i = find("random4_front", pick)
        rows_of(play, turn)[0]["aid"] = None
        rejected("random4_front", play, "step", f"disc {i}")


def test_tampered_turn_score():
    index, play, turn, _ = find("greedy4_back", lambda row, evs, snap: row["turn"] > 5 or None)
    set_score(play, turn, 1)
    rejected("greedy4_back", play, "score")


def test_tampered_event_score_alone():
    index, play, turn, _ = find("greedy4_back", lambda row, evs, snap: len(evs) > 2 or None)
    rows_of(play, turn)[1][1]["turn_score"] -= 1
    rejected("greedy4_back", play, "score", "disc 1")


def test_tampered_bonus_not_met():
    def pick(row, evs, snap):
        held = snap.bonus[snap.seat]
        if row["bonus"] is not None or held is None or not evs:
            return None
        spec = snap.specials.bonuses[held]
        value = measures(snap.board, [e["field"] for e in evs], [e["level"] for e in evs])[spec["measure"]]
        return held if value < spec["at_least"] else None
    index, play, turn, held = find("random4_front", pick)
    row, _ = rows_of(play, turn)
    points = Specials().bonuses[held]["points"]
    row["bonus"], row["bonus_points"] = held, points
    set_score(play, turn, points)
    rejected("random4_front", play, "bonus", "needs")


def test_tampered_bonus_not_held():
    index, play, turn, _ = find("greedy4_front", lambda row, evs, snap: snap.bonus[snap.seat] is None
                                and row["bonus"] is None and len(evs) >= 3 or None)
    row, _ = rows_of(play, turn)
    row["bonus"], row["bonus_points"] = "S1", 3
    set_score(play, turn, 3)
    rejected("greedy4_front", play, "bonus", "holds None")


def test_tampered_bonus_points():
    index, play, turn, _ = find("greedy4_front", lambda row, evs, snap: row["bonus"] is not None or None)
    row, _ = rows_of(play, turn)
    row["bonus_points"] += 1
    set_score(play, turn, 1)
    rejected("greedy4_front", play, "bonus", "pays")


def test_tampered_tile_taken_after_a_high_score():
    index, play, turn, _ = find("greedy4_front", lambda row, evs, snap: row["taken"] is None
                                and row["turn_score"] - row["bonus_points"] >= 7
                                and (snap.aid[snap.seat] is None or row["aid"] is not None) or None)
    row, _ = rows_of(play, turn)
    row["taken"], row["taken_tile"] = AID, "B1"
    rejected("greedy4_front", play, "take", "scoring")


def test_tampered_tile_taken_while_holding_one_of_that_pile():
    index, play, turn, _ = find("random4_front", lambda row, evs, snap: row["taken"] != AID and row["aid"] is None
                                and snap.aid[snap.seat] is not None and row["turn_score"] < 7 or None)
    row, _ = rows_of(play, turn)
    row["taken"], row["taken_tile"] = AID, "B3"
    rejected("random4_front", play, "take", "already holds")


def test_tampered_tile_not_in_its_pile():
    def pick(row, evs, snap):
        if row["taken"] != BONUS:
            return None
        out = [b for s, b in enumerate(snap.bonus) if b is not None and s != snap.seat]
        return out[0] if out else None
    index, play, turn, tile = find("random4_front", pick)
    rows_of(play, turn)[0]["taken_tile"] = tile
    rejected("random4_front", play, "pile", tile)


def test_threshold_seven_refuses_the_threshold_eight_tiles():
    """A play of the tile_threshold=8 run replayed with the default threshold 7 takes a tile after a 7."""
    for play in played("threshold8_random4"):
        if any(r["taken"] is not None and r["turn_score"] == 7 for r in play["turns"]):
            rejected("threshold8_random4", play, "take", "scoring 7 >= 7", tile_threshold=7)
            return
    pytest.fail("no tile taken after a turn of 7 under threshold 8")


def test_threshold_counting_the_total_refuses_the_tiles_the_bonus_lifted():
    """A play of a threshold_counts=discs run (the default) replayed counting the total takes a tile after a
    turn whose bonus lifted it to the threshold."""
    for play in played("random4_front"):
        assert play["options"]["threshold_counts"] == "discs"
        if any(r["taken"] is not None and r["turn_score"] >= 7 for r in play["turns"]):
            rejected("random4_front", play, "take", "(total)", threshold_counts="total")
            return
    pytest.fail("no tile taken after a turn the bonus lifted to 7")


def test_tampered_hand():
    index, play, turn, _ = find("random3_back", lambda row, evs, snap: row["turn"] >= 9 or None)
    row, _ = rows_of(play, turn)
    hand = list(row["hand"])
    c = max(range(7), key=lambda k: hand[k])
    hand[c] -= 1
    hand[(c + 1) % 7] += 1
    row["hand"] = hand
    rejected("random3_back", play, "hand")


def test_tampered_first_hand():
    play = copy.deepcopy(played("random2_back")[0])
    hand = list(play["turns"][1]["hand"])
    hand[0] += 1
    play["turns"][1]["hand"] = hand
    rejected("random2_back", play, "deal", "is not 7")


def test_tampered_drawn_count():
    index, play, turn, _ = find("random3_back", lambda row, evs, snap: sum(row["drawn"]) >= 2 or None)
    row, _ = rows_of(play, turn)
    drawn = list(row["drawn"])
    c = next(k for k in range(7) if drawn[k])
    drawn[c] -= 1
    row["drawn"] = drawn
    rejected("random3_back", play, "refill", "needed")


def test_tampered_thrown_more_than_held():
    def pick(row, evs, snap):
        hand = list(snap.hands[snap.seat])
        for e in evs:
            hand[snap.board.colour[e["field"]]] -= 1
        return next((c for c in range(7) if hand[c] == row["thrown"][c]), None)
    index, play, turn, c = find("reach2_greedy4", pick)
    row, _ = rows_of(play, turn)
    thrown = list(row["thrown"])
    thrown[c] += 1
    row["thrown"] = thrown
    rejected("reach2_greedy4", play, "throw")


def test_tampered_bag_left():
    play = copy.deepcopy(played("greedy4_back")[3])
    play["turns"][10]["bag_left"] += 1
    rejected("greedy4_back", play, "bag")


def test_tampered_end_one_round_early_and_mid_round():
    players = RUNS["greedy4_front"][0]
    plays = played("greedy4_front")
    # one round early: the short refill fell in the last round, so without it the bag never ran short
    play = copy.deepcopy(plays[5])
    cut = len(play["turns"]) - players
    play["turns"], play["events"] = play["turns"][:cut], [e for e in play["events"] if e["turn"] < cut]
    rejected("greedy4_front", play, "end", "never ran short")
    # mid-round: the last turn dropped from a play whose short refill came before the last seat
    play = next(copy.deepcopy(p) for p in plays if sum(p["turns"][-1]["drawn"]) == 0
                and sum(p["turns"][-2]["drawn"]) == 0)
    cut = len(play["turns"]) - 1
    play["turns"], play["events"] = play["turns"][:cut], [e for e in play["events"] if e["turn"] < cut]
    rejected("greedy4_front", play, "end", "before the round")


def test_tampered_end_one_round_late():
    play = copy.deepcopy(played("greedy4_front")[6])
    n = len(play["turns"])
    extra = copy.deepcopy(play["turns"][-4:])
    for k, row in enumerate(extra):
        row["turn"] = n + k
    play["turns"] += extra
    rejected("greedy4_front", play, "end", "after the game ended")


def test_tampered_turn_limit_ignored():
    """A play cut by max_turns replayed with a larger limit must have gone on."""
    play = next(p for p in played("limit_greedy4") if p["games"][0]["end_reason"] == "turn_limit")
    rejected("limit_greedy4", play, "end", max_turns=1000)


def test_tampered_collapse_count():
    index, play, turn, i = find("greedy4_back", lambda row, evs, snap: next(
        (i for i, e in enumerate(evs) if e["collapses"]), None))
    rows_of(play, turn)[1][i]["collapses"] -= 1
    rejected("greedy4_back", play, "collapse")
    index, play, turn, i = find("greedy4_back", lambda row, evs, snap: next(
        (i for i, e in enumerate(evs) if e["collapses"] == 2), None))
    rows_of(play, turn)[1][i]["collapses"] = 1
    rejected("greedy4_back", play, "collapse", "2 towers")


def test_tampered_no_disc_placed_with_a_hand():
    index, play, turn, _ = find("greedy4_front", lambda row, evs, snap: row["turn"] > 4 or None)
    row, _ = rows_of(play, turn)
    row["placed"], row["turn_score"] = 0, 0
    play["events"] = [e for e in play["events"] if e["turn"] != turn]
    rejected("greedy4_front", play, "at least one")


def test_tampered_placed_count():
    index, play, turn, _ = find("greedy4_front", lambda row, evs, snap: len(evs) > 1 or None)
    rows_of(play, turn)[0]["placed"] -= 1
    rejected("greedy4_front", play, "placed")


def test_tampered_more_discs_than_a_max_five_aid_allows():
    def pick(row, evs, snap):
        held = snap.aid[snap.seat]
        if row["aid"] is None and held and snap.specials.aids[held]["max_discs"] < len(evs):
            return held
        return None
    index, play, turn, held = find("greedy4_front", pick)
    rows_of(play, turn)[0]["aid"] = held
    rejected("greedy4_front", play, "max discs")


def test_tampered_aid_not_held():
    index, play, turn, _ = find("greedy4_front", lambda row, evs, snap: snap.aid[snap.seat] is None or None)
    rows_of(play, turn)[0]["aid"] = "B2"
    rejected("greedy4_front", play, "aid", "holds None")


def test_tampered_take_down_on_an_empty_field():
    def pick(row, evs, snap):
        if row["aid"] is None or snap.specials.aids[row["aid"]]["effect"] != "take_down":
            return None
        return next((g for g in range(snap.board.n) if snap.heights[g] == 0), None)
    index, play, turn, g = find("random4_front", pick)
    rows_of(play, turn)[0]["aid_field"] = g
    rejected("random4_front", play, "aid", "take_down")


def test_tampered_move_tower_onto_a_built_field():
    def pick(row, evs, snap):
        if row["aid"] is None or snap.specials.aids[row["aid"]]["effect"] != "move_tower":
            return None
        c = snap.board.colour[row["aid_field"]]
        return next((g for g in snap.board.fields_of[c] if g != row["aid_field"] and snap.heights[g] > 0), None)
    index, play, turn, g = find("random4_front", pick)
    rows_of(play, turn)[0]["aid_target"] = g
    rejected("random4_front", play, "aid", "move_tower")


def test_tampered_geometry_and_colour():
    play = copy.deepcopy(played("random2_back")[1])
    play["events"][5]["q"] += 1
    rejected("random2_back", play, "geometry")
    play = copy.deepcopy(played("random2_back")[1])
    ev = play["events"][5]
    ev["colour"] = COLOURS[(COLOURS.index(ev["colour"]) + 1) % 7]
    rejected("random2_back", play, "colour")


def test_tampered_final_rows():
    base = played("climber4_front")[2]
    for table, key, change, rule in [("seats", "score", 1, "seats"), ("seats", "discs", -1, "seats"),
                                     ("seats", "bonus_points", 1, "seats"), ("seats", "aids_taken", 1, "seats"),
                                     ("seats", "tiles_left", 1, "seats"), ("seats", "rank", 1, "seats"),
                                     ("games", "rounds", 1, "games"), ("games", "turns", -1, "games"),
                                     ("games", "collapses", 1, "games"), ("games", "bag_left", 1, "games")]:
        play = copy.deepcopy(base)
        play[table][0][key] += change
        rejected("climber4_front", play, rule, key)
    play = copy.deepcopy(base)
    winners = play["games"][0]["winners"]
    play["games"][0]["winners"] = [s for s in range(4) if s not in winners][:1]
    rejected("climber4_front", play, "games", "winners")
    play = copy.deepcopy(base)
    play["games"][0]["end_reason"] = "turn_limit"
    rejected("climber4_front", play, "games", "end_reason")


def test_unused_tile_points_option_is_scored():
    """The limit run scores 5 per unused tile: its plays replayed with the default 2 disagree on the scores."""
    play = next(p for p in played("limit_greedy4") if any(s["tiles_left"] for s in p["seats"]))
    rejected("limit_greedy4", play, "seats", "score", unused_tile_points=2)


def test_the_deal_leaves_the_bag_its_discs():
    for name in ("random2_back", "random3_back", "random4_front"):
        players = RUNS[name][0]
        for play in played(name)[:20]:
            assert all(sum(r["hand"]) == HAND for r in play["turns"][:players])
            first_refill = play["turns"][0]
            assert first_refill["bag_left"] == 140 - HAND * players - sum(first_refill["drawn"]) \
                + sum(first_refill["thrown"])
