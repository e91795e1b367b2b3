"""The board the workbench draws for a 7 Steps play (Game.drawing): every field in its colour, and the towers'
heights after each turn, replayed through the kernel's blocks; checked here by counting discs, which a collapse
only moves (seven discs onto the colour's seven fields) and a take-down returns to the bag."""

from __future__ import annotations

import tomllib

import pytest

from simlib.core.config import RunConfig
from simlib.core.registry import get_game

from support.paths import REPO

GAME = get_game("sevensteps")
# The build-aid tiles that take a disc back, as the specials file (the default, `assumed`) names them.
TAKE_DOWN = {aid["id"] for aid in tomllib.loads(
    (REPO / "simlib/games/sevensteps/specials/assumed.toml").read_text())["aid"] if aid["effect"] == "take_down"}


@pytest.mark.parametrize("policy", ["random", "climber"])
def test_the_towers_hold_every_disc_placed_less_those_taken_down(policy):
    config = RunConfig.build(GAME, players=3, policies=[policy], plays=3, seed=5)
    result = GAME.replayed(config, 2, 3)
    drawing = GAME.drawing(config, 2)
    turns = result["turns"].to_pylist()
    taken_down = sum(1 for t in turns if t["aid"] in TAKE_DOWN)
    placed = result["events"].num_rows
    last = len(turns) - 1
    standing = [s for s in drawing["shapes"] if s["kind"] == "text" and s["from"] <= last
                and s.get("until", last + 1) > last]
    assert sum(int(s["label"]) for s in standing) == placed - taken_down
    fields = [s for s in drawing["shapes"] if s["kind"] == "polygon"]
    assert len(fields) == 49 and drawing["turns"] == len(turns)
    assert all(s["from"] < s["until"] for s in drawing["shapes"] if "until" in s)
