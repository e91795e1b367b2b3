"""A readable account of one Burgenland play, action by action, from its event rows."""

from __future__ import annotations

import pyarrow as pa
import pyarrow.compute as pc

from ...core.config import RunConfig
from ...core.feel import feel_sentence, standing_lines
from .tables import STANDING


def _rows(table: pa.Table, play: int) -> list[dict]:
    return table.filter(pc.equal(table["play_index"], play)).to_pylist()


def _cards(colours: list[int], coins: list[int]) -> str:
    return " ".join(f"c{c}:{v}" for c, v in zip(colours, coins)) or "-"


def _action(e: dict) -> str:
    kind = e["action"]
    if kind == "deal":
        return f"is dealt {_cards(e['gained_colours'], e['gained_coins'])} and {e['jokers_gained']} joker"
    if kind == "draw":
        return f"draws {_cards(e['gained_colours'], e['gained_coins'])}"
    if kind == "swap":
        tile = f" (tile {e['bonus_tile']})" if e["bonus_tile"] else ""
        return f"swaps the stones on positions {e['swapped'][0]} and {e['swapped'][1]}{tile}"
    if kind == "exchange":
        return f"exchanges {_cards(e['paid_colours'], e['paid_coins'])} for a joker"
    where = "the central castle" if e["castle"] == 0 else f"castle {e['castle']} ({'/'.join(e['colours'])})"
    spot = f" spot {'abcdefgh'[e['spot']]}" if e["spot"] is not None else ""
    tile = f" with {e['bonus_tile']}" if e["bonus_tile"] else ""
    paid = _cards(e["paid_colours"], e["paid_coins"]) + (f" + {e['jokers_paid']} jokers" if e["jokers_paid"] else "")
    extra = f"; master builder {e['master_builder']}" if e["master_builder"] else ""
    gains = []
    if e["wall_jokers"]:
        gains.append(f"{e['wall_jokers']} wall jokers")
    if e["well_reward"]:
        gains.append(f"well reward {e['well_reward']}")
    if e["spot_bonus"]:
        gains.append(f"bonus {e['spot_bonus']}" + (f" {e['tile_gained']}" if e["tile_gained"] else ""))
    if e["gained_colours"]:
        gains.append(f"cards {_cards(e['gained_colours'], e['gained_coins'])}")
    if e["jokers_gained"]:
        gains.append(f"{e['jokers_gained']} jokers")
    return (f"builds a {e['piece']} in {where}{spot}{tile}, paying {paid}{extra}"
            + (f"; takes {', '.join(gains)}" if gains else ""))


def describe(config: RunConfig, play: int, result: dict[str, pa.Table]) -> str:
    game = _rows(result["games"], play)[0]
    seats = _rows(result["seats"], play)
    lines = [f"Burgenland, play {play}, {config.players} players, {game['start_hands']} starting hands",
             "stones (positions 0-7): " + ", ".join(game["stones"]),
             "seats: " + ", ".join(f"{s['seat']}={s['policy_spec']}" for s in seats)]
    for e in _rows(result["events"], play):
        turn = "deal" if e["turn"] is None else f"{e['turn']:4d}"
        lines.append(f"{turn} seat {e['seat']} {_action(e)} (pile {e['deck_left']})")
    lines.append(f"end: {game['end_reason']} after {game['turns']} turns; {game['wells_built']} wells, "
                 f"{game['swaps_used']} swaps, {game['central_built']} pieces in the central castle")
    for s in seats:
        lines.append(f"seat {s['seat']} ({s['policy']}): {s['score']} pieces placed, {s['pieces_left']} left, "
                     f"rank {s['rank']}{', winner' if s['winner'] else ''}")
    lines += standing_lines(result["standings"], play, STANDING)
    lines.append(feel_sentence(game, STANDING))
    return "\n".join(lines)
