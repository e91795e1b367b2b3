"""Random plays of the batch kernel, replayed through the plain reference implementation."""

from __future__ import annotations

from collections import defaultdict

from hypothesis import given, settings
from hypothesis import strategies as st

from simlib.core.config import RunConfig
from simlib.games.mauer import GAME

from support.feel_reference import feel_mismatch
from support.mauer_reference import PENALTY, PIECES, penalties, replay

POLICIES = ["random", "heavy", "reader", "hollow", "heavy:epsilon=0.3", "hollow:builder_hollow=0.9"]


def simulate(players, policies, plays, seed, **options):
    config = RunConfig.build(GAME, players=players, policies=policies, plays=plays, seed=seed, options=options,
                             events=True, standings=True)
    return config, GAME.simulate(config, 0, plays, events=True)


def by_play(table):
    rows = defaultdict(list)
    for row in table.to_pylist():
        rows[row["play_index"]].append(row)
    return rows


def seen_standing(players: int, events: list[dict], pen: dict, scored: list[int]) -> list[list[int]]:
    """Each seat's penalty points as the table sees them after each Baurunde, negated: its kit's (one piece of each
    type) less the pieces it built, gifts unseen; after the last Baurunde, the points scored."""
    kit = sum(pen.values())
    built = [0] * players
    standing = []
    for ev in events:
        for b in ev["builds"]:
            built[b["seat"]] += pen[b["piece"]]
        standing.append([built[s] - kit for s in range(players)])
    standing[-1] = [-p for p in scored]
    return standing


def check_feel(game: dict, standing: list[list[int]]) -> None:
    """The games row's feel columns: the features of the standing, none where the fewest penalty points are tied."""
    final = standing[-1]
    winners = [s for s, points in enumerate(final) if points == max(final)]
    why = feel_mismatch(game, standing, winners[0] if len(winners) == 1 else None)
    assert why is None, why


def check_plays(config, tables):
    """Every play's events are legal and give exactly the penalties and end the batch wrote."""
    games = {g["play_index"]: g for g in tables["games"].to_pylist()}
    seats = by_play(tables["seats"])
    events = by_play(tables["events"])
    standings = by_play(tables["standings"])
    pen = dict(PENALTY)
    for key, value in config.options.items():
        if key.startswith("penalty_"):
            pen[{"gate": "gate", "tower": "tower"}.get(key[8:], "wall" + key[-1])] = value
    for play, game in games.items():
        evs = sorted(events[play], key=lambda e: e["baurunde"])
        hands, wall, reason = replay(config.players, evs, pen, config.options["max_baurunden"])
        assert reason == game["end_reason"]
        assert game["completed"] == (reason == "emptied")
        assert game["turns"] == len(evs)
        rows = sorted(seats[play], key=lambda s: s["seat"])
        assert [r["penalty"] for r in rows] == penalties(hands, pen)
        for r, hand in zip(rows, hands):
            assert [r[f"left_{p}"] for p in PIECES] == [hand[p] for p in PIECES]
        # Pieces are conserved: hands + wall = 7 x players.
        assert sum(sum(h.values()) for h in hands) + len(wall.pieces) == 7 * config.players
        if reason == "emptied":
            assert game["turns"] >= 7
        best = min(r["penalty"] for r in rows)
        assert game["winners"] == [r["seat"] for r in rows if r["penalty"] == best]
        assert [r["winner"] for r in rows] == [r["penalty"] == best for r in rows]
        assert [r["rank"] for r in rows] == [1 + sum(o["penalty"] < r["penalty"] for o in rows) for r in rows]
        assert all(r["score"] == -r["penalty"] for r in rows)
        seen = seen_standing(config.players, evs, pen, [r["penalty"] for r in rows])
        check_feel(game, seen)
        kept = sorted(standings[play], key=lambda s: (s["turn"], s["seat"]))  # the standings table: penalty points
        assert [[-r["standing"] for r in kept[t:t + config.players]] for t in range(0, len(kept), config.players)] \
            == seen


@settings(max_examples=40, deadline=None)
@given(players=st.integers(3, 6), seed=st.integers(0, 2**63 - 1), rounds=st.integers(1, 3),
       start=st.sampled_from(["continue", "rotate", "fixed"]),
       mix=st.lists(st.sampled_from(POLICIES), min_size=6, max_size=6))
def test_random_plays_are_legal_and_scored_right(players, seed, rounds, start, mix):
    config, tables = simulate(players, mix[:players], 4 * rounds, seed, rounds=rounds, start=start)
    check_plays(config, tables)


def test_a_batch_of_mixed_policies_replays_exactly():
    config, tables = simulate(5, ["random", "heavy", "reader", "hollow", "random"], 400, 11)
    check_plays(config, tables)
    reasons = set(tables["games"].column("end_reason").to_pylist())
    assert "emptied" in reasons


def test_the_baurunde_limit_ends_a_stalled_round():
    # Everybody always plans the hollow hand: case 3 forever.
    always_hollow = "hollow:epsilon=0:builder_hollow=1:competitor_hollow=1"
    config, tables = simulate(4, [always_hollow], 2, 3, rounds=1, max_baurunden=50)
    check_plays(config, tables)
    assert tables["games"].column("end_reason").to_pylist() == ["baurunde_limit"] * 2
    assert tables["games"].column("turns").to_pylist() == [50, 50]


def test_a_designers_penalty_override_is_scored():
    config, tables = simulate(4, ["random"], 50, 5, penalty_tower=12)
    check_plays(config, tables)


def test_start_modes_choose_the_next_first_bauherr():
    for start, expect in (("fixed", lambda g, prev: 0), ("rotate", lambda g, prev: (prev["first_player"] + 1) % 4),
                          ("continue", lambda g, prev: (prev["first_player"] + prev["turns"]) % 4)):
        _, tables = simulate(4, ["random"], 20, 9, rounds=5, start=start)
        games = tables["games"].to_pylist()
        for prev, g in zip(games, games[1:]):
            if g["round"] == 0:
                assert g["first_player"] == 0
            else:
                assert g["first_player"] == expect(g, prev), start


def test_random_policy_statistics_match_its_definition():
    """The first builder plans each of his 7 types and the hollow hand with probability 1/8."""
    _, tables = simulate(4, ["random"], 16_000, 21, rounds=1)
    first = [e["plans"][0] for e in tables["events"].to_pylist() if e["baurunde"] == 0]
    n = len(first)
    for name in PIECES + ["hollow"]:
        share = first.count(name) / n
        assert abs(share - 1 / 8) < 4 * (1 / 8 * 7 / 8 / n) ** 0.5, (name, share)


def test_lockstep_numpy_version_gives_exactly_the_kernels_results():
    """A second, independent implementation (masks instead of branches) with the same keyed draws."""
    import numpy as np

    from simlib.games.mauer.constants import END_REASON_NAMES
    from simlib.games.mauer.lockstep import simulate_random

    for players in (3, 4, 5, 6):
        config = RunConfig.build(GAME, players=players, policies=["random"], plays=3000, seed=players,
                                 options={"rounds": 1})
        tables = GAME.simulate(config, 1000, 4000, events=False)
        pen = np.array([1, 2, 3, 4, 6, 10, 15])
        baurunden, reason, penalty, left = simulate_random(players, 1000, 3000, players, pen, 500)
        assert tables["games"].column("turns").to_numpy().tolist() == baurunden.tolist()
        assert tables["games"].column("end_reason").to_pylist() == [END_REASON_NAMES[r] for r in reason]
        assert tables["seats"].column("penalty").to_numpy().tolist() == penalty.ravel().tolist()
        assert tables["seats"].column("left_tower").to_numpy().tolist() == left[:, :, 6].ravel().tolist()
