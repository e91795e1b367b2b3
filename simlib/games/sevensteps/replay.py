"""A readable account of one 7 Steps play, turn by turn, from its event rows."""

from __future__ import annotations

import pyarrow as pa
import pyarrow.compute as pc

from ...core.config import RunConfig
from ...core.feel import feel_sentence, standing_lines
from .board import Board
from .constants import COLOURS
from .tables import STANDING


def _rows(table: pa.Table, play: int) -> list[dict]:
    return table.filter(pc.equal(table["play_index"], play)).to_pylist()


def _hand(counts: list[int]) -> str:
    return " ".join(f"{n}{COLOURS[c]}" for c, n in enumerate(counts) if n) or "-"


def describe(config: RunConfig, play: int, result: dict[str, pa.Table], board: Board) -> str:
    game = _rows(result["games"], play)[0]
    seats = _rows(result["seats"], play)
    discs: dict[int, list[dict]] = {}
    for ev in _rows(result["events"], play):
        discs.setdefault(ev["turn"], []).append(ev)
    lines = [f"7 Steps, play {play}, {config.players} players, {game['side']} side, board {board.name}",
             "seats: " + ", ".join(f"{s['seat']}={s['policy_spec']}" for s in seats)]
    for t in _rows(result["turns"], play):
        aid = ""
        if t["aid"] is not None:
            where = "".join(f" {x}" for x in (t["aid_field"], t["aid_target"]) if x is not None)
            aid = f"plays {t['aid']}{where}; "
        chain = ", ".join(f"{d['colour']} {d['field']} ({d['q']},{d['r']}) at {d['level']}"
                          + (f" collapses {d['collapses']}" if d["collapses"] else "")
                          for d in discs.get(t["turn"], []))
        bonus = f" + {t['bonus']} {t['bonus_points']}" if t["bonus"] is not None else ""
        taken = f"; takes {t['taken_tile']}" if t["taken"] is not None else ""
        thrown = f"; throws back {_hand(t['thrown'])}" if any(t["thrown"]) else ""
        lines.append(f"{t['turn']:3d} seat {t['seat']} holds {_hand(t['hand'])}: {aid}"
                     f"{chain or 'passes'}: {t['turn_score']}{bonus and ' (' + bonus.strip() + ')'}"
                     f"{taken}{thrown}; draws {_hand(t['drawn'])}; bag {t['bag_left']}")
    lines.append(f"end: {game['end_reason']} after {game['rounds']} rounds ({game['turns']} turns), "
                 f"{game['collapses']} collapses, {game['bag_left']} discs left in the bag")
    for s in seats:
        lines.append(f"seat {s['seat']} ({s['policy']}): {s['score']} points ({s['turn_points']} in turns, "
                     f"{s['bonus_points']} of them bonuses, {s['tile_points']} for {s['tiles_left']} unused tiles), "
                     f"rank {s['rank']}{', winner' if s['winner'] else ''}")
    lines += standing_lines(result["standings"], play, STANDING)
    lines.append(feel_sentence(game, STANDING))
    return "\n".join(lines)
