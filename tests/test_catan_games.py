"""Catan games played by the batch kernel (issue 5, in progress): properties every game must keep."""

from __future__ import annotations

import numpy as np
import pytest

from simlib.core.config import RunConfig
from simlib.games.catan import GAME
from simlib.games.catan import constants as C


@pytest.fixture(scope="module")
def played():
    config = RunConfig.build(GAME, players=4, policies=["random"], plays=150, seed=7)
    return config, GAME.run_kernel(config, 0, 150), GAME.simulate(config, 0, 150, events=False)


def test_resources_are_conserved(played):
    _, out, _ = played
    hands, bank = out.hands, out.bank
    assert (hands.sum(axis=1) + bank == 19).all()  # bank + hands = 19 of each, 95 in all
    assert (hands >= 0).all() and (bank >= 0).all()


def test_piece_limits_hold(played):
    _, out, _ = played
    pieces = out.pieces
    assert (pieces[:, :, 0] <= 5).all() and (pieces[:, :, 1] <= 4).all()
    assert (pieces[:, :, 2] <= 15).all() and (pieces[:, :, 3] <= 15).all()
    assert (pieces[:, :, 0] + pieces[:, :, 1] >= 2).all()  # the set-up's two settlements, or cities


def test_every_point_is_accounted_for(played):
    _, out, _ = played
    points, pieces, holders, vp = out.points, out.pieces, out.holders, out.vp_cards
    expected = pieces[:, :, 0] + 2 * pieces[:, :, 1] + vp + 2 * holders[:, :, 0] + 2 * holders[:, :, 1]
    assert (points == expected).all()


def test_the_winner_reached_ten_points_and_is_alone(played):
    _, out, tables = played
    reason, winner, points = out.end_reason, out.winner, out.points
    won = winner >= 0
    assert (points[won, winner[won]] >= 10).all()
    assert ((reason == 0) == won).all()
    games = tables["games"].to_pylist()
    assert all(g["winners"] == ([w] if w >= 0 else []) for g, w in zip(games, winner))


def test_card_holders_deserve_their_cards(played):
    _, out, _ = played
    knights, route, holders = out.knights, out.longest_route, out.holders
    for i in range(len(knights)):
        for p in range(4):
            if holders[i, p, 1]:
                assert knights[i, p] >= 3 and knights[i, p] == knights[i].max()
            if holders[i, p, 0]:
                assert route[i, p] >= 5


def test_production_never_exceeds_what_was_received(played):
    _, out, _ = played
    received, production = out.received, out.production
    assert (production.sum(axis=2) <= received).all()


def test_a_game_replays_alone(played):
    config, out, _ = played
    alone = GAME.run_kernel(config, 42, 43)
    for whole, single in zip(out, alone):
        assert np.array_equal(whole[42:43], single)


def test_weighted_builds_cities_and_beats_random():
    config = RunConfig.build(GAME, players=4, policies=["weighted", "random", "random", "random"], plays=300,
                             seed=11)
    out = GAME.run_kernel(config, 0, 300)
    winner, pieces = out.winner, out.pieces
    weighted_wins = (winner == 0).mean()
    assert weighted_wins > 0.4  # a fair share is 0.25; weighting builds wins clearly
    assert pieces[:, 0, 1].mean() > pieces[:, 1:, 1].mean()  # more cities than the random players


def test_builder_beats_weighted_and_random():
    config = RunConfig.build(GAME, players=4, policies=["builder", "weighted", "random", "random"], plays=200,
                             seed=13)
    out = GAME.run_kernel(config, 0, 200)
    wins = np.bincount(out.winner[out.winner >= 0], minlength=4) / 200
    assert wins[0] > wins[1] > max(wins[2], wins[3])
    assert (out.end_reason == 0).mean() > 0.95  # games end in a win


def test_dice_sums_follow_two_dice(played):
    from scipy import stats

    _, out, _ = played
    rolls = out.rolls.sum(axis=0)[2:]
    pips = np.array([1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1]) / 36
    assert rolls.sum() > 30_000
    assert stats.chisquare(rolls, rolls.sum() * pips).pvalue > 0.001



@pytest.mark.parametrize("policies,board", [(["random"], "standard"),
                                            (["builder", "weighted", "random", "random"], "standard"),
                                            (["random"], "beginner")])
def test_events_replay_legally_to_the_points_written(policies, board):
    """A plain replay of the events alone (tests/catan_reference.py) finds every action affordable and
    legal, resources conserved at every step, and ends on the points, routes and cards of the seats table."""
    from catan_reference import replay_game, topology

    config = RunConfig.build(GAME, players=4, policies=policies, plays=12, seed=5, options={"map": board})
    tables = GAME.simulate(config, 0, 12, events=True)
    events = tables["events"].to_pylist()
    seats = tables["seats"].to_pylist()
    games = tables["games"].to_pylist()
    seen = set()
    for play in range(12):
        mine = [e for e in events if e["play_index"] == play]
        assert [e["seq"] for e in mine] == list(range(len(mine)))
        points, game = replay_game(mine, 4, topology(board))
        kernel = [s for s in seats if s["play_index"] == play]
        assert points == [s["points"] for s in kernel]
        # The reference's own search of every trail against the kernel's route search, and the cards.
        assert game.routes == [s["longest_route"] for s in kernel]
        assert [game.longest == q for q in range(4)] == [s["longest_route_card"] for s in kernel]
        assert [game.army == q for q in range(4)] == [s["largest_army_card"] for s in kernel]
        if games[play]["completed"]:
            winner = games[play]["winners"][0]
            assert points[winner] >= 10 and winner == (games[play]["turns"] - 1) % 4
        seen |= {e["action"] for e in mine}
    assert seen == set(C.EVENT_ACTIONS)  # every kind of event was replayed


def test_the_event_replay_catches_tampered_events():
    from catan_reference import BOARD, Illegal, replay_game

    config = RunConfig.build(GAME, players=4, policies=["random"], plays=1, seed=5)
    events = GAME.simulate(config, 0, 1, events=True)["events"].to_pylist()
    first_settlement = next(e["node"] for e in events if e["action"] == "setup_settlement")
    neighbour = int(next(m for m in BOARD.node_nodes[first_settlement] if m >= 0))

    def tampered(action, change, occurrence=0):
        copy = [dict(e) for e in events]
        change([e for e in copy if e["action"] == action][occurrence])
        return copy

    cases = {
        "a better rate than owned": tampered("trade", lambda e: e.update(amount=e["amount"] - 1)),
        "another dice sum": tampered("roll", lambda e: e.update(dice=7 if e["dice"] != 7 else 8)),
        "the distance rule": tampered("setup_settlement", lambda e: e.update(node=neighbour), occurrence=1),
        "out of turn": tampered("city", lambda e: e.update(seat=(e["seat"] + 1) % 4)),
        "robbing oneself": tampered("steal", lambda e: e.update(victim=e["seat"])),
        "a card not drawn": tampered("buy_dev", lambda e: e.update(card="monopoly"), occurrence=3),
    }
    first_token = next(i for i, e in enumerate(e for e in events if e["action"] == "hex") if e["token"] is not None)
    cases |= {
        "a token off the spiral": tampered("hex", lambda e: e.update(token=2 if e["token"] != 2 else 12),
                                           occurrence=first_token),
        "terrain against the published counts": tampered(
            "hex", lambda e: e.update(terrain="forest" if e["terrain"] != "forest" else "hills"),
            occurrence=first_token),
    }
    for what, case in cases.items():
        with pytest.raises(Illegal):
            replay_game(case, 4)
            pytest.fail(f"not caught: {what}")


def test_the_reference_route_search_agrees_with_the_kernels_at_every_change():
    """After every road, ship, settlement and ship move of 12 games, every seat's longest route by the
    reference's plain search of every trail equals the kernel's route search on the same position (the
    topology arrays are the same: tests/test_catan_board.py checks it)."""
    from catan_reference import Replay

    from simlib.games.catan.board import load_board
    from simlib.games.catan.rules import ROAD, SHIP, longest_route

    board = load_board("standard")
    compared = []

    class Checked(Replay):
        def update_longest(self):
            super().update_longest()
            kind = np.array([{None: 0, "road": ROAD, "ship": SHIP}[k] for k in self.edge_kind], np.int64)
            kernel = [longest_route(q, self.edge_owner, kind, self.node_owner, board.node_edges, board.edge_nodes)
                      for q in range(self.players)]
            assert self.routes == kernel, (self.turn, self.routes, kernel)
            compared.append(max(kernel))

    config = RunConfig.build(GAME, players=4, policies=["random"], plays=12, seed=29)
    events = GAME.simulate(config, 0, 12, events=True)["events"].to_pylist()
    for play in range(12):
        game = Checked(4)
        for e in events:
            if e["play_index"] == play:
                game.apply(e)
    assert len(compared) > 500 and max(compared) >= 10


def test_the_reference_imports_nothing_from_simlib():
    import subprocess
    import sys
    from pathlib import Path

    probe = "import sys, catan_reference; print(' '.join(m for m in sys.modules if m.split('.')[0] == 'simlib'))"
    done = subprocess.run([sys.executable, "-c", probe], cwd=Path(__file__).parent, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == []  # no simlib module was loaded


def test_cards_received_per_roll_match_the_dice_probabilities():
    """Each building level beside a hex with token t should get pips(t)/36 cards of it per roll (pips:
    1 for 2 and 12 ... 5 for 6 and 8). Over every roll of 20 games, for each seat and resource whose
    bank could pay whatever the dice, the kernel's production (its produce events, which the replay
    matches card for card) is compared with that expectation: the 99.9% interval of the mean difference
    must contain 0, and the mean itself must be small against the mean expectation."""
    from catan_reference import replay_game

    config = RunConfig.build(GAME, players=4, policies=["random"], plays=20, seed=17)
    events = GAME.simulate(config, 0, 20, events=True)["events"].to_pylist()
    differences, expectations = [], []
    for play in range(20):
        _, game = replay_game([e for e in events if e["play_index"] == play], 4)
        for expected, got, safe in game.roll_log:
            for r in np.nonzero(safe)[0]:
                owed = expected[:, r] > 0
                differences.extend(got[owed, r] - expected[owed, r])
                expectations.extend(expected[owed, r])
    d = np.array(differences)
    half_width = 3.29 * d.std(ddof=1) / np.sqrt(len(d))
    assert len(d) > 20_000
    assert abs(d.mean()) < half_width, (d.mean(), half_width)
    assert half_width < 0.05 * np.mean(expectations)  # sharp enough: the interval is within 5% of the expectation


@pytest.fixture(scope="module")
def ships_that_may_move():
    """At the start of every turn of 8 games whose mover has ships: the ships he may move by the kernel's
    list (kernel._movable_ships) and by the reference's reading of the rules (the last ship at the open
    end of a shipping route, not built this turn, with somewhere to go)."""
    from catan_reference import Replay

    from simlib.games.catan.board import load_board
    from simlib.games.catan.kernel import _movable_ships
    from simlib.games.catan.rules import ROAD, SHIP, route_ok

    board = load_board("standard")
    n_edges = len(board.edge_nodes)
    seen = []

    class Watched(Replay):
        def on_end_turn(self, e, p):
            super().on_end_turn(e, p)
            q, turn = (self.turn + 1) % self.players, self.turn + 1
            ships = [a for a in range(n_edges) if self.edge_owner[a] == q and self.edge_kind[a] == "ship"]
            if not ships:
                return
            kind = np.array([{None: 0, "road": ROAD, "ship": SHIP}[k] for k in self.edge_kind], np.int64)
            owner = self.edge_owner.copy()
            legal = np.zeros((self.players, 2, n_edges), np.bool_)
            for x in range(n_edges):
                legal[q, 1, x] = route_ok(x, q, SHIP, board.edge_land, board.edge_sea, owner, kind, board.edge_nodes,
                                          self.node_owner, board.node_edges)
            built = np.array([self.edge_built.get(x, -1) for x in range(n_edges)], np.int64)
            moved, counts = np.zeros(n_edges, np.int64), np.zeros(n_edges, np.int64)
            n = _movable_ships(q, turn, int(legal[q, 1].sum()), legal, moved, counts, board.edge_land, board.edge_sea,
                               owner, kind, board.edge_nodes, built, self.node_owner, board.node_edges)
            mine = set()
            for a in ships:
                if self.at_open_end(a, q) and built[a] != turn:
                    self.edge_owner[a], self.edge_kind[a] = -1, None
                    if any(b != a and self.route_ok(b, q, "ship") for b in range(n_edges)):
                        mine.add(a)
                    self.edge_owner[a], self.edge_kind[a] = q, "ship"
            seen.append((set(moved[:n].tolist()), mine))

    config = RunConfig.build(GAME, players=4, policies=["random"], plays=8, seed=5)
    events = GAME.simulate(config, 0, 8, events=True)["events"].to_pylist()
    for play in range(8):
        game = Watched(4)
        for e in events:
            if e["play_index"] == play:
                game.apply(e)
    assert len(seen) > 1000
    return seen


def test_the_kernel_offers_no_ship_move_the_rules_forbid(ships_that_may_move):
    assert all(kernel <= rules for kernel, rules in ships_that_may_move)


def test_the_kernel_offers_every_ship_move_the_rules_allow(ships_that_may_move):
    missing = [rules - kernel for kernel, rules in ships_that_may_move if rules - kernel]
    assert not missing, f"{len(missing)} of {len(ships_that_may_move)} turn starts lack a legal ship move"
