"""A readable account of one game of Die Mauerspechte (`simlib replay mauerspechte`): the Catan engine's account
of the base game's steps, then the scenario's own steps turn by turn (wall chips, wall pieces, the wall
opening, hotels released, bought and producing, the Tiergarten, Love Parades with their bids, the special
cards), then the points by source, the standing after every turn (from the standings table) and how the play
felt (core/feel.py)."""

from __future__ import annotations

import pyarrow as pa

from ...core.config import RunConfig
from ..catan.replay import account, feel_lines
from . import constants as C
from .berlin import Berlin
from .tables import STANDING

_BASE = set(C.base.EVENT_ACTIONS)


def _line(e: dict) -> str:
    a = e["action"]
    if a == "wall_chip":
        return f"puts threshold chip {e['chip']} under {e['section']}"
    if a == "wall_piece":
        return f"buys the {e['piece']} piece of {e['section']}"
    if a == "wall_open":
        return f"{e['section']} is gone: its edges and intersections are free"
    if a == "hotel_release":
        return f"releases hotel {e['hotel']} (chip {e['chip']} now on offer)"
    if a == "hotel":
        return f"buys hotel {e['hotel']} with chip {e['chip']} (the {e['old_token']} leaves the game)"
    if a == "hotel_produce":
        return f"hotel {e['hotel']} gives +{e['amount']} {e['resource']}"
    if a == "tiergarten":
        return f"a chip goes to the Tiergarten ({e['reason'].replace('_', ' ')}; {e['waiting']} waiting)"
    if a == "bid":
        return f"bids {e['bid']}"
    if a == "pass":
        return "passes"
    if a == "parade":
        return f"wins the Love Parade chip for {e['bid']} cards ({e['bidders']} bidders)"
    if a == "harbour":
        kind = "3:1" if e["rate"] == 3 else f"2:1 {e['resource']}"
        return f"harbour place {e['harbour']}: {kind}"
    if a == "pay":
        return f"pays 1 {e['resource']}"
    if a == "card":
        name = e["special_card"].replace("_", " ").title()
        return f"takes {name}" if e["seat"] is not None else f"{name} is neutralised"
    return a


def describe(config: RunConfig, play: int, result: dict[str, pa.Table], berlin: Berlin) -> str:
    events = result["events"].to_pylist()
    base_events = pa.Table.from_pylist([e for e in events if e["action"] in _BASE and e["action"] != "end_turn"]
                                       or [], schema=result["events"].schema)
    seats = result["seats"].to_pylist()
    as_catan = pa.Table.from_pylist([{**s, "vp_cards": s["points_dev_cards"], "dev_played": 0,
                                      "longest_route_card": s["points_longest_route"] > 0,
                                      "largest_army_card": s["points_army"] > 0} for s in seats])
    lines = account(config, play, {**result, "events": base_events, "seats": as_catan}, berlin.board)
    lines[0] = lines[0].replace("Catan,", "Die Mauerspechte,", 1)
    end = next(i for i, line in enumerate(lines) if line.startswith("end:"))
    berlin_lines = ["Berlin (the scenario's steps):"]
    for e in events:
        if e["action"] not in _BASE:
            who = f"seat {e['seat']}" if e["seat"] is not None else "      "
            when = "set-up   " if e["turn"] is None else f"turn {e['turn']:4d}"
            berlin_lines.append(f"{when}  {who}  {_line(e)}")
    sources = [c for c in result["seats"].column_names if c.startswith("points_")]
    points = [f"seat {s['seat']}: {s['points']} points = " + ", ".join(
        f"{c.removeprefix('points_')} {s[c]}" for c in sources if s[c]) for s in seats]
    return "\n".join(lines[:end] + berlin_lines + lines[end:end + 1] + points + feel_lines(result, play, STANDING))
