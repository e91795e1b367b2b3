"""The board the workbench draws for a Catan play (Game.drawing): each piece where the play's events put it, on the
map's geometry; checked against the map's own topology (a corner of every hex around a node), not the drawing's."""

from __future__ import annotations

import math
from collections import Counter

import pytest

from simlib.core.config import RunConfig
from simlib.core.registry import get_game
from simlib.games.catan.board import load_board


@pytest.fixture(scope="module")
def drawn():
    game = get_game("catan")
    config = RunConfig.build(game, players=4, policies=["random"], plays=2, seed=3)
    events = [e for e in game.replayed(config, 1, 2)["events"].to_pylist() if e["play_index"] == 1]
    return game.drawing(config, 1), events, load_board("standard")


def _centre(board, h):
    q, r = (int(x) for x in board.hex_coords[h])
    return math.sqrt(3) * (q + r / 2), 1.5 * r


def test_every_hex_is_drawn_with_the_terrain_and_token_the_play_drew(drawn):
    drawing, events, board = drawn
    hexes = [s for s in drawing["shapes"] if s["kind"] == "polygon"]
    assert len(hexes) == len(board.hex_coords)
    tokens = {e["hex"]: "" if e["token"] is None else str(e["token"]) for e in events if e["action"] == "hex"}
    assert {h: hexes[h]["label"] for h in tokens} == tokens


def test_a_settlement_stands_on_a_corner_of_every_hex_around_its_node(drawn):
    drawing, events, board = drawn
    placed = [e for e in events if e["action"] in ("setup_settlement", "settlement", "city")]
    shapes = [s for s in drawing["shapes"] if s["kind"] in ("settlement", "city")]
    assert len(shapes) == len(placed) > 0
    for event, shape in zip(placed, shapes):
        x, y = shape["points"][0]
        for h in board.node_hexes[event["node"]]:
            if h >= 0:
                cx, cy = _centre(board, h)
                assert math.hypot(x - cx, y - cy) == pytest.approx(1.0), (event, h)


def test_a_road_joins_two_neighbouring_corners_and_a_city_replaces_its_settlement(drawn):
    drawing, events, _ = drawn
    for s in drawing["shapes"]:
        if s["kind"] in ("road", "ship"):
            (x1, y1), (x2, y2) = s["points"]
            assert math.hypot(x1 - x2, y1 - y2) == pytest.approx(1.0)  # a side of a hex of radius 1
    kinds = Counter(s["kind"] for s in drawing["shapes"])
    actions = Counter(e["action"] for e in events)
    assert kinds["road"] == actions["road"] + actions["setup_road"]
    assert kinds["ship"] == actions["ship"] + actions["move_ship"]
    ended = [s for s in drawing["shapes"] if s["kind"] == "settlement" and "until" in s]
    assert len(ended) == actions["city"]
    assert all(s["until"] >= s["from"] for s in drawing["shapes"] if "until" in s)
