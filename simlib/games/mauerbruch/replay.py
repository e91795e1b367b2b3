"""A readable account of one Mauerbruch play, pair by pair, from its event rows."""

from __future__ import annotations

import pyarrow as pa
import pyarrow.compute as pc

from ...core.config import RunConfig
from ...core.feel import feel_sentence
from .tables import STANDING


def _rows(table: pa.Table, play: int) -> list[dict]:
    return table.filter(pc.equal(table["play_index"], play)).to_pylist()


def describe(config: RunConfig, play: int, result: dict[str, pa.Table]) -> str:
    game = _rows(result["games"], play)[0]
    seats = _rows(result["seats"], play)
    deal = _rows(result["deals"], play)[0]["stacks"]
    lines = [
        f"Mauerbruch, play {play}, {config.players} players, deck {game['deck_name']} ({game['deck_id']}); "
        f"seat {game['opener_seat']} opened, seat 0 began",
        "seats: " + ", ".join(f"{s['seat']}={s['policy_spec']}" for s in seats),
        "wall (stack: cards bottom to top, by id): " + " | ".join(f"{i}: {len(s)} cards" for i, s in enumerate(deal)),
    ]
    won = [0] * config.players  # the standing: cards won by seat after each take
    discard = config.options.get("opening") == "discard"
    for ev in _rows(result["events"], play):
        swap = f"swaps card {ev['swap_card']} onto stack {ev['swap_stack']} for a Wunschkarte, " \
            if ev["swap_card"] is not None else ""
        bans = " ".join(b for b, on in (("2-ban", ev["ban2"]), ("5-ban", ev["ban5"])) if on)
        if not (discard and ev["phase"] == "opening_double"):
            won[ev["seat"]] += 2
        lines.append(f"{ev['take']:3d} {ev['phase']:14s} seat {ev['seat']}: {swap}takes {ev['label_a']} "
                     f"(stack {ev['stack_a']}) + {ev['label_b']} (stack {ev['stack_b']}): {ev['pair_kind']}"
                     f"{'  [' + bans + ']' if bans else ''}   cards won: {' '.join(map(str, won))}")
    if game["end_reason"] == "broken":
        lines.append(f"end: broken after {game['turns']} turns: stack {game['stack_emptied']} emptied, the breaker "
                     f"adds stack {game['bonus_stack']} ({game['bonus_cards']} cards); {game['cards_left']} cards left")
    else:
        lines.append(f"end: blocked after {game['turns']} turns; {game['cards_left']} cards left in the wall")
    for s in seats:
        lines.append(f"seat {s['seat']} (player {s['player']}, {s['policy']}): {s['cards']} cards, rank {s['rank']}"
                     f"{', winner' if s['winner'] else ''}")
    lines.append(feel_sentence(game, STANDING))
    return "\n".join(lines)
