"""The board the workbench draws for a Burgenland play (Game.drawing): the stones as swaps leave them and every piece
where it was built. Checked against what each build recorded of its castle: the colours of the castle's two stones
when it was built (the events table's `colours`), which the drawing's stones must show at that turn."""

from __future__ import annotations

from collections import Counter

import pytest

from simlib.core.config import RunConfig
from simlib.core.registry import get_game

GAME = get_game("burgenland")


@pytest.fixture(scope="module")
def drawn():
    config = RunConfig.build(GAME, players=4, policies=["random"], plays=6, seed=2)
    events = [e for e in GAME.replayed(config, 5, 6)["events"].to_pylist() if e["play_index"] == 5]
    return GAME.drawing(config, 5), events, GAME.board(config)


def _stone_at(drawing, point, turn) -> str:
    [stone] = [s for s in drawing["shapes"] if s["kind"] == "circle" and s["title"].startswith("stone")
               and s["points"][0] == point and s["from"] <= turn < s.get("until", 10**9)]
    return stone["fill"]


def test_the_stones_show_the_colours_each_build_recorded(drawn):
    drawing, events, board = drawn
    assert any(e["action"] == "swap" for e in events), "no swap in this play: choose another"
    lines = [s for s in drawing["shapes"] if s["kind"] == "line"]
    checked = 0
    for e in events:
        if e["action"] == "build" and e["castle"] and e["colours"]:
            a, b = lines[e["castle"] - 1]["points"]
            assert sorted([_stone_at(drawing, a, e["turn"]), _stone_at(drawing, b, e["turn"])]) == sorted(e["colours"])
            checked += 1
    assert checked > 5


def test_every_piece_built_is_drawn_from_its_turn(drawn):
    drawing, events, _ = drawn
    built = Counter((e["turn"], e["seat"]) for e in events if e["action"] == "build")
    drawn_pieces = Counter((s["from"], s["seat"]) for s in drawing["shapes"] if s["kind"] == "square" and "seat" in s)
    assert drawn_pieces == built
