"""A readable account of one Spielrunde, Baurunde by Baurunde, from its event rows."""

from __future__ import annotations

from collections import deque

import pyarrow as pa
import pyarrow.compute as pc

from ...core.config import RunConfig
from ...core.feel import feel_sentence, standing_lines
from .tables import STANDING

_SHORT = {"wall1": "1", "wall2": "2", "wall3": "3", "wall4": "4", "wall5": "5", "gate": "G", "tower": "T",
          "hollow": "-"}


def _rows(table: pa.Table, play: int) -> list[dict]:
    return table.filter(pc.equal(table["play_index"], play)).to_pylist()


def describe(config: RunConfig, play: int, result: dict[str, pa.Table]) -> str:
    game = _rows(result["games"], play)[0]
    seats = _rows(result["seats"], play)
    lines = [
        f"Die Mauer, play {play} (match {game['match_id']}, round {game['round']}), {config.players} players, "
        f"first Bauherr: table position {game['first_player']}",
        "seats: " + ", ".join(f"{s['seat']}={s['policy_spec']}" for s in seats),
        "pieces: 1-5 wall pieces by crenellations, G gate, T tower, - hollow hand",
    ]
    wall: deque[str] = deque()
    for ev in _rows(result["events"], play):
        plans = " ".join(_SHORT[p] for p in ev["plans"])
        what = [f"seat {b['seat']} builds {_SHORT[b['piece']]} at {b['end']}" for b in ev["builds"]]
        if ev["gift_from"] is not None:
            what.append(f"seat {ev['gift_from']} gives {_SHORT[ev['gift_piece']]} to the Bauherr")
        lines.append(f"{ev['baurunde']:3d}  Bauherr {ev['builder_seat']}  plans [{plans}]  "
                     f"{ev['outcome']}: {'; '.join(what) or 'nothing built'}")
        for b in ev["builds"]:
            (wall.appendleft if b["end"] == "left" else wall.append)(_SHORT[b["piece"]])
        lines.append(f"     wall: {' '.join(wall) or '(empty)'}")
    lines.append(f"end: {game['end_reason']} after {game['turns']} Baurunden")
    for s in seats:
        held = ", ".join(p if s["left_" + p] == 1 else f"{s['left_' + p]} x {p}"
                         for p in _SHORT if p != "hollow" and s["left_" + p])
        lines.append(f"seat {s['seat']} (player {s['player']}, {s['policy']}): penalty {s['penalty']}, "
                     f"rank {s['rank']}{', winner' if s['winner'] else ''}{'; holds ' + held if held else ''}")
    lines += standing_lines(result["standings"], play, STANDING)
    lines.append(feel_sentence(game, STANDING))
    return "\n".join(lines)
